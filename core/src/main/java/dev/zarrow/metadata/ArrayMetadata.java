package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code zarr.json} of an array, per the Zarr v3 core specification. Values are kept as written
 * (names and configurations, the fill value as JSON) so that a document read and written again is
 * unchanged; interpretation (data type, codecs, grid) happens when an array is opened.
 *
 * @param shape the array shape
 * @param dataType the data type, a name or {name, configuration}
 * @param chunkGrid the chunk grid ({@code regular} with {@code chunk_shape})
 * @param chunkKeyEncoding the chunk key encoding ({@code default} or {@code v2})
 * @param fillValue the fill value as JSON
 * @param codecs the codec chain
 * @param attributes user attributes (never null)
 * @param dimensionNames the dimension names (entries may be null), or null when absent
 * @param storageTransformers the storage transformers (usually empty), or null when absent
 * @param extensions further top-level keys, each an object with {@code "must_understand": false}
 * @param zarrFormat the format the document is stored in: 3 ({@code zarr.json}), or 2 ({@code .zarray},
 *     converted to this model by {@link V2Metadata} and written back as v2)
 */
public record ArrayMetadata(
    long[] shape,
    NamedConfig dataType,
    NamedConfig chunkGrid,
    NamedConfig chunkKeyEncoding,
    JsonNode fillValue,
    List<NamedConfig> codecs,
    ObjectNode attributes,
    List<String> dimensionNames,
    List<NamedConfig> storageTransformers,
    Map<String, JsonNode> extensions,
    int zarrFormat) {

  private static final List<String> KNOWN =
      List.of(
          "zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding",
          "fill_value", "codecs", "attributes", "dimension_names", "storage_transformers");

  /** A Zarr v3 document. */
  public ArrayMetadata(long[] shape, NamedConfig dataType, NamedConfig chunkGrid, NamedConfig chunkKeyEncoding,
      JsonNode fillValue, List<NamedConfig> codecs, ObjectNode attributes, List<String> dimensionNames,
      List<NamedConfig> storageTransformers, Map<String, JsonNode> extensions) {
    this(shape, dataType, chunkGrid, chunkKeyEncoding, fillValue, codecs, attributes, dimensionNames,
        storageTransformers, extensions, 3);
  }

  public ArrayMetadata {
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw new IllegalArgumentException("zarr_format " + zarrFormat + ": expected 2 or 3");
    }
    shape = shape.clone();
    codecs = List.copyOf(codecs);
    attributes = attributes == null ? JsonNodeFactory.instance.objectNode() : attributes;
    dimensionNames = dimensionNames == null ? null : Collections.unmodifiableList(new ArrayList<>(dimensionNames));
    storageTransformers = storageTransformers == null ? null : List.copyOf(storageTransformers);
    extensions = extensions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
    if (dimensionNames != null && dimensionNames.size() != shape.length) {
      throw new MetadataException("/dimension_names: " + dimensionNames.size() + " names for " + shape.length + " dimensions");
    }
    if (elementCount(shape) < 0) {
      throw new MetadataException("/shape: " + Arrays.toString(shape) + " has more elements than 2^63 - 1");
    }
  }

  /**
   * The number of elements of {@code shape} (0 when a size is 0, whatever the others), or -1 when it
   * is more than a long counts. Every array's shape counts (the constructor checks it), so products
   * over its regions, chunk grid and edge chunks never overflow.
   */
  public static long elementCount(long[] shape) {
    for (long s : shape) {
      if (s == 0) {
        return 0;
      }
    }
    long n = 1;
    for (long s : shape) {
      if (s < 0 || n > Long.MAX_VALUE / s) {
        return -1;
      }
      n *= s;
    }
    return n;
  }

  /** The number of elements (see {@link #elementCount(long[])}). */
  public long size() {
    return elementCount(shape);
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  /** A copy with another shape. */
  public ArrayMetadata withShape(long[] newShape) {
    return new ArrayMetadata(newShape, dataType, chunkGrid, chunkKeyEncoding, fillValue, codecs, attributes,
        dimensionNames, storageTransformers, extensions, zarrFormat);
  }

  /** A copy with other attributes. */
  public ArrayMetadata withAttributes(ObjectNode newAttributes) {
    return new ArrayMetadata(shape, dataType, chunkGrid, chunkKeyEncoding, fillValue, codecs, newAttributes,
        dimensionNames, storageTransformers, extensions, zarrFormat);
  }

  /** A copy with another codec chain. */
  public ArrayMetadata withCodecs(List<NamedConfig> newCodecs) {
    return new ArrayMetadata(shape, dataType, chunkGrid, chunkKeyEncoding, fillValue, newCodecs, attributes,
        dimensionNames, storageTransformers, extensions, zarrFormat);
  }

  /** A copy stored in another format (2 or 3); {@link V2Metadata#toZarray} says what v2 cannot express. */
  public ArrayMetadata withZarrFormat(int format) {
    return new ArrayMetadata(shape, dataType, chunkGrid, chunkKeyEncoding, fillValue, codecs, attributes,
        dimensionNames, storageTransformers, extensions, format);
  }

  /** A copy with another fill value. */
  public ArrayMetadata withFillValue(JsonNode newFill) {
    return new ArrayMetadata(shape, dataType, chunkGrid, chunkKeyEncoding, newFill, codecs, attributes,
        dimensionNames, storageTransformers, extensions, zarrFormat);
  }

  /** A copy with another chunk grid. */
  public ArrayMetadata withChunkGrid(NamedConfig newGrid) {
    return new ArrayMetadata(shape, dataType, newGrid, chunkKeyEncoding, fillValue, codecs, attributes,
        dimensionNames, storageTransformers, extensions, zarrFormat);
  }

  /** Parses an array document; {@code what} names it (the key) in errors. */
  public static ArrayMetadata parse(JsonNode doc, String what) {
    try {
      return parse(doc);
    } catch (dev.zarrow.error.ZarrException e) {
      throw e.withContext(what);
    }
  }

  static ArrayMetadata parse(JsonNode doc) {
    if (!doc.isObject()) {
      throw new MetadataException("expected a JSON object, got " + Json.kind(doc));
    }
    checkFormat(doc, "array");
    long[] shape = parseShape(require(doc, "shape"), "/shape");
    NamedConfig dataType = NamedConfig.parse(require(doc, "data_type"), "/data_type");
    NamedConfig grid = NamedConfig.parse(require(doc, "chunk_grid"), "/chunk_grid");
    NamedConfig keys = NamedConfig.parse(require(doc, "chunk_key_encoding"), "/chunk_key_encoding");
    if (!doc.has("fill_value")) {
      throw new MetadataException("/fill_value: missing");
    }
    JsonNode fill = doc.get("fill_value");
    JsonNode codecsNode = require(doc, "codecs");
    if (!codecsNode.isArray()) {
      throw new MetadataException("/codecs: expected an array");
    }
    List<NamedConfig> codecs = new ArrayList<>();
    for (int i = 0; i < codecsNode.size(); i++) {
      codecs.add(NamedConfig.parse(codecsNode.get(i), "/codecs/" + i));
    }
    ObjectNode attributes = parseAttributes(doc);
    List<String> dimensionNames = null;
    JsonNode names = doc.get("dimension_names");
    if (names != null && !names.isNull()) {
      if (!names.isArray()) {
        throw new MetadataException("/dimension_names: expected an array");
      }
      dimensionNames = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        JsonNode n = names.get(i);
        if (!n.isNull() && !n.isTextual()) {
          throw new MetadataException("/dimension_names/" + i + ": expected a string or null");
        }
        dimensionNames.add(n.isNull() ? null : n.textValue());
      }
      if (dimensionNames.size() != shape.length) {
        throw new MetadataException("/dimension_names: " + dimensionNames.size() + " names for " + shape.length + " dimensions");
      }
    }
    List<NamedConfig> transformers = null;
    JsonNode st = doc.get("storage_transformers");
    if (st != null) {
      if (!st.isArray()) {
        throw new MetadataException("/storage_transformers: expected an array");
      }
      transformers = new ArrayList<>();
      for (int i = 0; i < st.size(); i++) {
        transformers.add(NamedConfig.parse(st.get(i), "/storage_transformers/" + i));
      }
    }
    return new ArrayMetadata(shape, dataType, grid, keys, fill, codecs, attributes, dimensionNames,
        transformers, extensions(doc, KNOWN));
  }

  /** The v3 document (whatever {@link #zarrFormat} is), keys in the order of the specification, extensions last. */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("zarr_format", 3);
    out.put("node_type", "array");
    ArrayNode shapeNode = out.putArray("shape");
    for (long s : shape) {
      shapeNode.add(s);
    }
    out.set("data_type", dataType.toJson());
    out.set("chunk_grid", chunkGrid.toJson());
    out.set("chunk_key_encoding", chunkKeyEncoding.toJson());
    out.set("fill_value", fillValue == null ? JsonNodeFactory.instance.nullNode() : fillValue.deepCopy());
    ArrayNode codecsNode = out.putArray("codecs");
    codecs.forEach(c -> codecsNode.add(c.toJson()));
    out.set("attributes", attributes.deepCopy());
    if (dimensionNames != null) {
      ArrayNode names = out.putArray("dimension_names");
      dimensionNames.forEach(names::add);
    }
    if (storageTransformers != null) {
      ArrayNode st = out.putArray("storage_transformers");
      storageTransformers.forEach(t -> st.add(t.toJson()));
    }
    extensions.forEach((k, v) -> out.set(k, v.deepCopy()));
    return out;
  }

  static void checkFormat(JsonNode doc, String nodeType) {
    JsonNode format = doc.get("zarr_format");
    if (format == null || !format.isIntegralNumber() || format.asLong() != 3) {
      throw new MetadataException("/zarr_format: expected 3, got " + Json.kind(format));
    }
    JsonNode type = doc.get("node_type");
    if (type == null || !type.isTextual() || !type.textValue().equals(nodeType)) {
      throw new MetadataException("/node_type: expected \"" + nodeType + "\", got " + Json.kind(type));
    }
  }

  static JsonNode require(JsonNode doc, String key) {
    JsonNode node = doc.get(key);
    if (node == null || node.isNull()) {
      throw new MetadataException("/" + key + ": missing");
    }
    return node;
  }

  /** Parses a list of non-negative integers (a shape). */
  public static long[] parseShape(JsonNode node, String pointer) {
    if (!node.isArray()) {
      throw new MetadataException(pointer + ": expected an array of integers, got " + Json.kind(node));
    }
    long[] out = new long[node.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode n = node.get(i);
      if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
        throw new MetadataException(pointer + "/" + i + ": expected a non-negative integer, got " + Json.kind(n));
      }
      out[i] = n.asLong();
    }
    return out;
  }

  static ObjectNode parseAttributes(JsonNode doc) {
    JsonNode attributes = doc.get("attributes");
    if (attributes == null || attributes.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!attributes.isObject()) {
      throw new MetadataException("/attributes: expected an object");
    }
    return (ObjectNode) attributes;
  }

  /** Unknown top-level keys: kept when they say {@code "must_understand": false}, refused otherwise. */
  static Map<String, JsonNode> extensions(JsonNode doc, List<String> known) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (known.contains(e.getKey())) {
        continue;
      }
      JsonNode value = e.getValue();
      JsonNode must = value.isObject() ? value.get("must_understand") : null;
      if (must == null || !must.isBoolean() || must.booleanValue()) {
        throw new dev.zarrow.error.UnsupportedExtensionException(
            "/" + e.getKey() + ": unknown metadata extension that does not say \"must_understand\": false");
      }
      out.put(e.getKey(), value);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayMetadata m && zarrFormat == m.zarrFormat && toJson().equals(m.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode() * 31 + zarrFormat;
  }

  @Override
  public String toString() {
    return "ArrayMetadata" + Arrays.toString(shape) + " " + Json.compact(dataType.toJson());
  }
}
