package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code zarr.json} of a group: attributes, plus extensions kept as written. zarr-python's
 * {@code consolidated_metadata} is kept verbatim (it is derived data; zarrow neither reads nor updates it).
 * A Zarr v2 group ({@code .zgroup} and {@code .zattrs}, {@link V2Metadata}) has {@code zarrFormat} 2 and is
 * written back as v2.
 */
public record GroupMetadata(ObjectNode attributes, Map<String, JsonNode> extensions, int zarrFormat) {
  private static final List<String> KNOWN = List.of("zarr_format", "node_type", "attributes", "consolidated_metadata");

  /** A Zarr v3 group. */
  public GroupMetadata(ObjectNode attributes, Map<String, JsonNode> extensions) {
    this(attributes, extensions, 3);
  }

  public GroupMetadata {
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw new IllegalArgumentException("zarr_format " + zarrFormat + ": expected 2 or 3");
    }
    attributes = attributes == null ? JsonNodeFactory.instance.objectNode() : attributes;
    extensions = extensions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  public static GroupMetadata empty() {
    return new GroupMetadata(null, null);
  }

  public GroupMetadata withAttributes(ObjectNode newAttributes) {
    return new GroupMetadata(newAttributes, extensions, zarrFormat);
  }

  /** A copy stored in another format (2 or 3); v2 keeps no extensions. */
  public GroupMetadata withZarrFormat(int format) {
    return new GroupMetadata(attributes, format == 2 ? Map.of() : extensions, format);
  }

  public static GroupMetadata parse(JsonNode doc, String what) {
    try {
      if (!doc.isObject()) {
        throw new MetadataException("expected a JSON object, got " + Json.kind(doc));
      }
      ArrayMetadata.checkFormat(doc, "group");
      Map<String, JsonNode> extensions = new LinkedHashMap<>();
      JsonNode consolidated = doc.get("consolidated_metadata");
      if (consolidated != null) {
        extensions.put("consolidated_metadata", consolidated);
      }
      extensions.putAll(ArrayMetadata.extensions(doc, KNOWN));
      return new GroupMetadata(ArrayMetadata.parseAttributes(doc), extensions);
    } catch (dev.zarrow.error.ZarrException e) {
      throw e.withContext(what);
    }
  }

  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("zarr_format", 3);
    out.put("node_type", "group");
    out.set("attributes", attributes.deepCopy());
    extensions.forEach((k, v) -> out.set(k, v.deepCopy()));
    return out;
  }
}
