package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import java.util.Iterator;
import java.util.Objects;

/**
 * An extension point value of {@code zarr.json} (a data type, codec, chunk grid, chunk key encoding):
 * either a plain name, or {@code {"name": ..., "configuration": {...}, "must_understand": ...}}.
 *
 * @param name the registered name
 * @param configuration the configuration object, or {@code null} when absent
 * @param mustUnderstand false only when the document says {@code "must_understand": false}
 * @param plain true when written as a bare string (kept so documents round-trip)
 * @param mustUnderstandWritten true when the document spells {@code "must_understand"} out, so an
 *     explicit {@code true} is written back too
 */
public record NamedConfig(String name, ObjectNode configuration, boolean mustUnderstand, boolean plain, boolean mustUnderstandWritten) {

  public NamedConfig {
    Objects.requireNonNull(name, "name");
  }

  /** {@code must_understand} written only when false. */
  public NamedConfig(String name, ObjectNode configuration, boolean mustUnderstand, boolean plain) {
    this(name, configuration, mustUnderstand, plain, !mustUnderstand);
  }

  /** The same value under another name (an alias resolved), its other parts kept. */
  public NamedConfig withName(String newName) {
    return new NamedConfig(newName, configuration, mustUnderstand, plain, mustUnderstandWritten);
  }

  /** The same value with another configuration, as an object. */
  public NamedConfig withConfiguration(ObjectNode newConfiguration) {
    return new NamedConfig(name, newConfiguration, mustUnderstand, false, mustUnderstandWritten);
  }

  /** {@code {"name": name, "configuration": configuration}}. */
  public static NamedConfig of(String name, ObjectNode configuration) {
    return new NamedConfig(name, configuration, true, false);
  }

  /** A bare name, written as a JSON string. */
  public static NamedConfig plain(String name) {
    return new NamedConfig(name, null, true, true);
  }

  /** The configuration, or an empty object when absent. */
  public ObjectNode config() {
    return configuration == null ? JsonNodeFactory.instance.objectNode() : configuration;
  }

  /** Parses a string or an object; {@code pointer} names the place in the document for errors. */
  public static NamedConfig parse(JsonNode node, String pointer) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      throw new MetadataException(pointer + ": missing");
    }
    if (node.isTextual()) {
      return plain(node.textValue());
    }
    if (!node.isObject()) {
      throw new MetadataException(pointer + ": expected a name or an object, got " + Json.kind(node));
    }
    JsonNode name = node.get("name");
    if (name == null || !name.isTextual()) {
      throw new MetadataException(pointer + "/name: expected a string");
    }
    JsonNode configuration = node.get("configuration");
    if (configuration != null && !configuration.isObject()) {
      throw new MetadataException(pointer + "/configuration: expected an object");
    }
    JsonNode must = node.get("must_understand");
    if (must != null && !must.isBoolean()) {
      throw new MetadataException(pointer + "/must_understand: expected a boolean");
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("name") && !key.equals("configuration") && !key.equals("must_understand")) {
        throw new MetadataException(pointer + "/" + key + ": unexpected key");
      }
    }
    return new NamedConfig(
        name.textValue(),
        configuration == null ? null : (ObjectNode) configuration,
        must == null || must.booleanValue(),
        false,
        must != null);
  }

  /** The JSON form: the bare name when {@link #plain()} and nothing else is set, else an object. */
  public JsonNode toJson() {
    if (plain && configuration == null && !mustUnderstandWritten) {
      return JsonNodeFactory.instance.textNode(name);
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("name", name);
    if (configuration != null) {
      out.set("configuration", configuration.deepCopy());
    }
    if (mustUnderstandWritten || !mustUnderstand) {
      out.put("must_understand", mustUnderstand);
    }
    return out;
  }
}
