package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zarr v2 metadata ({@code .zarray}, {@code .zgroup}, {@code .zattrs}) converted to and from the v3 model,
 * so that everything above the metadata works on one model. A v2 array becomes: its data type
 * ({@link V2DataTypes}); a regular grid of {@code chunks}; chunk key encoding {@code v2} with its
 * {@code dimension_separator}; its fill value ({@code null} is zero for numbers, the empty value for
 * objects, as is zarr-python 2's default {@code 0} for object arrays); and the codecs
 * {@code [transpose (order F)] + array filters + serializer + bytes filters + compressor}, where the
 * serializer is {@code bytes} in the dtype's byte order, or for {@code |O} the object codec among the
 * filters ({@code vlen-utf8}: data type {@code string}; {@code vlen-bytes}: {@code bytes}).
 * The result has {@link ArrayMetadata#zarrFormat()} 2, and {@link #toZarray} writes it back.
 */
public final class V2Metadata {
  public static final String ZARRAY = ".zarray";
  public static final String ZGROUP = ".zgroup";
  public static final String ZATTRS = ".zattrs";

  /**
   * The attribute of a Zarr v3 array that keeps the v2 {@code fill_value} it was converted from, when
   * the v3 fill differs from it ({@code null} for numbers, which v3 has no form for, a bool's {@code 0},
   * an object array's {@code 0}): {@link #asV2} writes it back, so that a v2 -> v3 -> v2 conversion
   * keeps the fill as zarr-python 2 wrote it.
   */
  public static final String FILL_ATTRIBUTE = "_zarrow_v2_fill_value";

  /**
   * The extension of a v2 array's model (never written: {@code .zarray} has no extensions) that holds
   * its {@code fill_value} as written, when the model's fill differs from it: {@code {"must_understand":
   * false, "value": ...}}. {@link #toZarray} writes the value back.
   */
  public static final String FILL_EXTENSION = "zarrow_v2_fill_value";

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private V2Metadata() {}

  /** Parses a {@code .zarray} (and its {@code .zattrs}, or null); {@code what} names it in errors. */
  public static ArrayMetadata parseArray(JsonNode zarray, JsonNode zattrs, String what) {
    try {
      return parseArray(zarray, attributes(zattrs));
    } catch (ZarrException e) {
      throw e.withContext(what);
    }
  }

  /** Parses a {@code .zgroup} (and its {@code .zattrs}, or null); {@code what} names it in errors. */
  public static GroupMetadata parseGroup(JsonNode zgroup, JsonNode zattrs, String what) {
    try {
      checkFormat(zgroup);
      return new GroupMetadata(attributes(zattrs), null, 2);
    } catch (ZarrException e) {
      throw e.withContext(what);
    }
  }

  /** Attributes from a {@code .zattrs} document (null: none). */
  public static ObjectNode attributes(JsonNode zattrs) {
    if (zattrs == null) {
      return F.objectNode();
    }
    if (!zattrs.isObject()) {
      throw new MetadataException(ZATTRS + ": expected a JSON object, got " + Json.kind(zattrs));
    }
    return (ObjectNode) zattrs;
  }

  private static void checkFormat(JsonNode doc) {
    if (!doc.isObject()) {
      throw new MetadataException("expected a JSON object, got " + Json.kind(doc));
    }
    JsonNode format = present(doc, "zarr_format");
    if (!format.isIntegralNumber() || format.asLong() != 2) {
      throw new MetadataException("/zarr_format: expected 2, got " + Json.kind(format));
    }
  }

  /** The value of {@code key}, which the v2 spec requires even where it allows null. */
  private static JsonNode present(JsonNode doc, String key) {
    JsonNode node = doc.get(key);
    if (node == null) {
      throw new MetadataException("/" + key + ": missing (the Zarr v2 spec requires it)");
    }
    return node;
  }

  private static ArrayMetadata parseArray(JsonNode doc, ObjectNode attributes) {
    checkFormat(doc);
    long[] shape = ArrayMetadata.parseShape(ArrayMetadata.require(doc, "shape"), "/shape");
    long[] chunks = ArrayMetadata.parseShape(ArrayMetadata.require(doc, "chunks"), "/chunks");
    if (chunks.length != shape.length) {
      throw new MetadataException("/chunks: " + chunks.length + " sizes for " + shape.length + " dimensions");
    }
    ArrayNode chunkShape = F.arrayNode();
    for (int i = 0; i < chunks.length; i++) {
      if (chunks[i] < 1 || chunks[i] > Integer.MAX_VALUE) {
        throw new MetadataException("/chunks/" + i + ": expected a positive int32, got " + chunks[i]);
      }
      chunkShape.add((int) chunks[i]);
    }
    V2DataTypes.Parsed dtype = V2DataTypes.parse(ArrayMetadata.require(doc, "dtype"), "/dtype");
    // Keys whose value may be null, but which the v2 spec requires all the same (zarr-python 2 refuses
    // a document without them): a missing "filters" read as null would decode delta or shuffle data raw.
    present(doc, "compressor");
    present(doc, "fill_value");
    present(doc, "filters");
    JsonNode order = ArrayMetadata.require(doc, "order");
    if (!order.isTextual() || !(order.textValue().equals("C") || order.textValue().equals("F"))) {
      throw new MetadataException("/order: expected \"C\" or \"F\", got " + Json.kind(order));
    }
    JsonNode separator = doc.get("dimension_separator");
    String sep = ".";
    if (separator != null && !separator.isNull()) {
      if (!separator.isTextual() || !(separator.textValue().equals(".") || separator.textValue().equals("/"))) {
        throw new MetadataException("/dimension_separator: expected \".\" or \"/\", got " + Json.kind(separator));
      }
      sep = separator.textValue();
    }

    List<NamedConfig> arrayFilters = new ArrayList<>();
    List<NamedConfig> bytesFilters = new ArrayList<>();
    NamedConfig serializer = null;
    JsonNode filters = doc.get("filters");
    if (!filters.isNull()) {
      if (!filters.isArray()) {
        throw new MetadataException("/filters: expected a list or null, got " + Json.kind(filters));
      }
      for (int i = 0; i < filters.size(); i++) {
        String pointer = "/filters/" + i;
        String id = V2Codecs.id(filters.get(i), pointer);
        NamedConfig codec = V2Codecs.toV3(filters.get(i), dtype.itemSize(), pointer);
        if (V2Codecs.FOREIGN_OBJECT_CODECS.contains(id)) {
          throw new UnsupportedExtensionException(pointer + ": object codec " + id + " is not supported (zarrow reads"
              + " object arrays of vlen-utf8, vlen-bytes and vlen-array)");
        }
        if (V2Codecs.OBJECT_CODECS.contains(id)) {
          if (dtype.kind() != V2DataTypes.Kind.OBJECT || serializer != null) {
            throw new MetadataException(pointer + ": object codec " + id + " on a "
                + (serializer != null ? "second object codec" : "non-object dtype"));
          }
          serializer = codec;
        } else if (V2Codecs.onBytes(id) || serializer != null) {
          bytesFilters.add(codec);
        } else if (!bytesFilters.isEmpty()) {
          throw new UnsupportedExtensionException(pointer + ": array filter " + id + " after a bytes filter");
        } else {
          arrayFilters.add(codec);
        }
      }
    }
    NamedConfig dataType = dtype.dataType();
    if (dtype.kind() == V2DataTypes.Kind.OBJECT) {
      if (serializer == null) {
        throw new MetadataException("/filters: an object (|O) array needs an object codec (vlen-utf8, vlen-bytes, vlen-array) among its filters");
      }
      dataType = switch (serializer.name()) {
        case "vlen-utf8" -> NamedConfig.plain("string");
        case "vlen-bytes" -> NamedConfig.plain("bytes");
        default -> vlenArrayType(serializer);
      };
    } else {
      ObjectNode bytes = F.objectNode();
      if (dtype.endian() != null) {
        bytes.put("endian", dtype.endian());
      }
      serializer = NamedConfig.of("bytes", bytes);
    }

    List<NamedConfig> codecs = new ArrayList<>();
    if (order.textValue().equals("F") && shape.length > 0) {
      ArrayNode permutation = F.arrayNode();
      for (int i = shape.length - 1; i >= 0; i--) {
        permutation.add(i);
      }
      ObjectNode config = F.objectNode();
      config.set("order", permutation);
      codecs.add(NamedConfig.of("transpose", config));
    }
    codecs.addAll(arrayFilters);
    codecs.add(serializer);
    codecs.addAll(bytesFilters);
    JsonNode compressor = doc.get("compressor");
    if (!compressor.isNull()) {
      codecs.add(V2Codecs.toV3(compressor, dtype.itemSize(), "/compressor"));
    }
    ObjectNode grid = F.objectNode();
    grid.set("chunk_shape", chunkShape);
    JsonNode v2Fill = doc.get("fill_value");
    JsonNode fill = fill(v2Fill, dtype, serializer.name());
    return new ArrayMetadata(
        shape,
        dataType,
        NamedConfig.of("regular", grid),
        NamedConfig.of("v2", F.objectNode().put("separator", sep)),
        fill,
        codecs,
        attributes,
        null,
        null,
        fill.equals(v2Fill) ? null : Map.of(FILL_EXTENSION, fillExtension(v2Fill)),
        2);
  }

  /** The list type of a {@code vlen-array} codec: an Arrow list of its {@code dtype}'s elements. */
  private static NamedConfig vlenArrayType(NamedConfig codec) {
    JsonNode dtype = codec.config().get("dtype");
    V2DataTypes.Parsed element = V2DataTypes.parse(dtype, "/filters/vlen-array/dtype");
    if (element.kind() != V2DataTypes.Kind.NUMBER || element.dataType().name().startsWith("numpy.")
        || element.dataType().name().startsWith("complex")) {
      throw new UnsupportedExtensionException("/filters: vlen-array of " + Json.kind(dtype) + " is not supported");
    }
    String name = element.dataType().name();
    ObjectNode type;
    if (name.equals("bool")) {
      type = F.objectNode().put("name", "bool");
    } else if (name.startsWith("float")) {
      int bits = Integer.parseInt(name.substring(5));
      type = F.objectNode().put("name", "floatingpoint").put("precision", bits == 16 ? "HALF" : bits == 32 ? "SINGLE" : "DOUBLE");
    } else {
      boolean signed = name.startsWith("int");
      type = F.objectNode().put("name", "int").put("bitWidth", Integer.parseInt(name.substring(signed ? 3 : 4))).put("isSigned", signed);
    }
    ObjectNode item = F.objectNode().put("name", "item").put("nullable", false);
    item.set("type", type);
    item.putArray("children");
    ObjectNode field = F.objectNode().put("name", "").put("nullable", false);
    field.set("type", F.objectNode().put("name", "list"));
    field.putArray("children").add(item);
    ObjectNode config = F.objectNode().put("version", "0.1.0");
    config.set("field", field);
    return NamedConfig.of("arrow", config);
  }

  /**
   * The v3 fill value of a v2 one. {@code null} (zarr-python 2: undefined, uninitialised memory) is the
   * zero of the type; an object array's fill (zarr-python 2 writes {@code 0}) is the empty value.
   */
  private static JsonNode fill(JsonNode fill, V2DataTypes.Parsed dtype, String serializer) {
    return switch (dtype.kind()) {
      case OBJECT -> serializer.equals("vlen-array") ? F.nullNode()
          : fill != null && fill.isTextual() && serializer.equals("vlen-utf8") ? fill : F.textNode("");
      case BYTES -> fill == null || fill.isNull() ? F.textNode(Base64.getEncoder().encodeToString(new byte[dtype.itemSize()])) : fill;
      case TEXT -> fill == null || fill.isNull() ? F.textNode("") : fill;
      case NUMBER -> {
        String name = dtype.dataType().name();
        if (fill != null && name.equals("bool") && fill.isIntegralNumber() && (fill.asLong() == 0 || fill.asLong() == 1)) {
          yield F.booleanNode(fill.asLong() == 1); // NumPy's bool fill written as a number
        }
        if (fill != null && !fill.isNull()) {
          yield fill;
        }
        yield name.equals("bool") ? F.booleanNode(false)
            : name.startsWith("complex") ? F.arrayNode().add(0.0).add(0.0)
            : name.startsWith("float") ? F.numberNode(0.0) : F.numberNode(0);
      }
    };
  }

  // ---- v3 model to v2 ----

  /**
   * {@code metadata} to be stored as Zarr v2: format 2, chunk key encoding {@code v2} (a {@code default}
   * encoding becomes {@code v2} keeping its separator, {@code /} unless configured), and an explicit
   * object codec for {@code string} and {@code bytes}; the attribute {@link #FILL_ATTRIBUTE} of an array
   * converted from v2 gives back the fill value's v2 spelling (dimension names become
   * {@code _ARRAY_DIMENSIONS} when written, {@link #toZattrs}). What v2 cannot express is refused by
   * {@link #toZarray} (checked here).
   */
  public static ArrayMetadata asV2(ArrayMetadata metadata) {
    ArrayMetadata out = metadata.withZarrFormat(2);
    if (!out.chunkKeyEncoding().name().equals("v2")) {
      out = new ArrayMetadata(out.shape(), out.dataType(), out.chunkGrid(),
          NamedConfig.of("v2", F.objectNode().put("separator", out.chunkKeyEncoding().config().path("separator").asText("/"))),
          out.fillValue(), out.codecs(), out.attributes(),
          out.dimensionNames(), out.storageTransformers(), out.extensions(), 2);
    }
    boolean hasSerializer = out.codecs().stream().anyMatch(c -> V2Codecs.SERIALIZERS.contains(c.name()));
    String vlen = switch (out.dataType().name()) {
      case "string" -> "vlen-utf8";
      case "bytes", "binary", "variable_length_bytes" -> "vlen-bytes";
      default -> null;
    };
    if (!hasSerializer && vlen != null) {
      List<NamedConfig> codecs = new ArrayList<>();
      boolean placed = false;
      for (NamedConfig c : out.codecs()) {
        if (!placed && !c.name().equals("transpose")) {
          codecs.add(NamedConfig.of(vlen, F.objectNode()));
          placed = true;
        }
        codecs.add(c);
      }
      if (!placed) {
        codecs.add(NamedConfig.of(vlen, F.objectNode()));
      }
      out = out.withCodecs(codecs);
    }
    JsonNode v2Fill = out.attributes().get(FILL_ATTRIBUTE);
    if (v2Fill != null) { // back to the spelling the v3 array was converted from (toZarray checks it stands for the fill)
      ObjectNode attributes = out.attributes().deepCopy();
      attributes.remove(FILL_ATTRIBUTE);
      Map<String, JsonNode> extensions = new LinkedHashMap<>(out.extensions());
      extensions.put(FILL_EXTENSION, fillExtension(v2Fill));
      out = new ArrayMetadata(out.shape(), out.dataType(), out.chunkGrid(), out.chunkKeyEncoding(), out.fillValue(),
          out.codecs(), attributes, out.dimensionNames(), out.storageTransformers(), extensions, 2);
    }
    toZarray(out);
    return out;
  }

  /**
   * {@code metadata} to be stored as Zarr v3: format 3, the chunk key encoding kept ({@code v2} with its
   * separator, as zarr-python 3's {@code zarr migrate v3} does), so the chunk keys stay the same and a
   * v2 -> v3 -> v2 round trip keeps the separator. xarray's {@code _ARRAY_DIMENSIONS} attribute becomes
   * {@code dimension_names}; a fill value whose v2 spelling the v3 form changes (a numeric {@code null},
   * an object array's {@code 0}) is kept in the attribute {@link #FILL_ATTRIBUTE}, which {@link #asV2}
   * turns back into that spelling.
   */
  public static ArrayMetadata asV3(ArrayMetadata metadata) {
    if (metadata.zarrFormat() == 3) {
      return metadata;
    }
    ObjectNode attributes = metadata.attributes().deepCopy();
    Map<String, JsonNode> extensions = new LinkedHashMap<>(metadata.extensions());
    JsonNode v2Fill = extensions.remove(FILL_EXTENSION);
    if (v2Fill != null) {
      attributes.set(FILL_ATTRIBUTE, v2Fill.get("value").deepCopy());
    }
    List<String> names = metadata.dimensionNames();
    JsonNode dimensions = attributes.get(DIMENSIONS_ATTRIBUTE);
    if (names == null && isNames(dimensions, metadata.rank())) {
      names = new ArrayList<>();
      for (JsonNode n : dimensions) {
        names.add(n.textValue());
      }
      attributes.remove(DIMENSIONS_ATTRIBUTE); // v3 says it in dimension_names
    }
    return new ArrayMetadata(metadata.shape(), metadata.dataType(), metadata.chunkGrid(), metadata.chunkKeyEncoding(),
        metadata.fillValue(), metadata.codecs(), attributes, names, metadata.storageTransformers(), extensions, 3);
  }

  private static boolean isNames(JsonNode names, int rank) {
    if (names == null || !names.isArray() || names.size() != rank) {
      return false;
    }
    for (JsonNode n : names) {
      if (!n.isTextual()) {
        return false;
      }
    }
    return true;
  }

  /** The {@code fill_value} spelling a v2 array's model keeps ({@link #FILL_EXTENSION}), if any. */
  public static java.util.Optional<JsonNode> keptFill(ArrayMetadata metadata) {
    JsonNode kept = metadata.extensions().get(FILL_EXTENSION);
    return kept == null ? java.util.Optional.empty() : java.util.Optional.of(kept.get("value"));
  }

  private static ObjectNode fillExtension(JsonNode v2Fill) {
    ObjectNode out = F.objectNode().put("must_understand", false);
    out.set("value", v2Fill == null ? F.nullNode() : v2Fill.deepCopy());
    return out;
  }

  /**
   * The {@code .zarray} of {@code metadata}. What v2 cannot express (a grid other than regular, a chunk
   * key encoding other than {@code v2}, storage transformers, a transpose other than F order, sharding or
   * any codec that is neither a numcodecs filter nor a compressor, a data type without a NumPy dtype)
   * is an {@link UnsupportedExtensionException} naming it.
   */
  public static ObjectNode toZarray(ArrayMetadata metadata) {
    ObjectNode out = F.objectNode();
    out.put("zarr_format", 2);
    ArrayNode shape = out.putArray("shape");
    for (long s : metadata.shape()) {
      shape.add(s);
    }
    if (!metadata.chunkGrid().name().equals("regular")) {
      throw new UnsupportedExtensionException("/chunk_grid: Zarr v2 has regular grids only, not " + metadata.chunkGrid().name());
    }
    out.set("chunks", metadata.chunkGrid().config().path("chunk_shape").deepCopy());
    if (!metadata.chunkKeyEncoding().name().equals("v2")) {
      throw new UnsupportedExtensionException("/chunk_key_encoding: Zarr v2 needs the v2 encoding, not " + metadata.chunkKeyEncoding().name());
    }
    if (metadata.storageTransformers() != null && !metadata.storageTransformers().isEmpty()) {
      throw new UnsupportedExtensionException("/storage_transformers: Zarr v2 has none");
    }
    List<NamedConfig> codecs = metadata.codecs();
    int serializerAt = -1;
    for (int i = 0; i < codecs.size(); i++) {
      if (V2Codecs.SERIALIZERS.contains(codecs.get(i).name())) {
        serializerAt = i;
        break;
      }
    }
    if (serializerAt < 0) {
      throw new UnsupportedExtensionException("/codecs: Zarr v2 needs bytes or an object codec (vlen-utf8, vlen-bytes,"
          + " vlen-array) as the array->bytes codec; "
          + codecs.stream().map(NamedConfig::name).filter(n -> n.startsWith("sharding")).findFirst()
              .map(n -> n + " cannot be stored in Zarr v2").orElse("found none"));
    }
    NamedConfig serializer = codecs.get(serializerAt);
    String order = "C";
    ArrayNode filters = F.arrayNode();
    for (int i = 0; i < serializerAt; i++) {
      NamedConfig c = codecs.get(i);
      if (i == 0 && c.name().equals("transpose")) {
        order = transposeOrder(c, metadata.rank());
        continue;
      }
      filters.add(V2Codecs.toV2(c, "/codecs/" + i));
    }
    boolean object = !serializer.name().equals("bytes");
    if (object) {
      filters.add(V2Codecs.toV2(serializer, "/codecs/" + serializerAt));
    }
    for (int i = serializerAt + 1; i < codecs.size() - 1; i++) {
      filters.add(V2Codecs.toV2(codecs.get(i), "/codecs/" + i));
    }
    String endian = object ? null : serializer.config().path("endian").asText(null);
    JsonNode dtype = serializer.name().equals("vlen-array") ? F.textNode("|O")
        : V2DataTypes.toV2(metadata.dataType(), endian, "/data_type");
    if (object != dtype.asText().equals("|O")) {
      throw new UnsupportedExtensionException("/codecs/" + serializerAt + ": " + serializer.name()
          + " does not serialize data type " + metadata.dataType().name() + " in Zarr v2");
    }
    out.set("dtype", dtype);
    out.set("compressor", serializerAt < codecs.size() - 1
        ? V2Codecs.toV2(codecs.get(codecs.size() - 1), "/codecs/" + (codecs.size() - 1)) : F.nullNode());
    JsonNode fill = metadata.fillValue();
    JsonNode v2Fill = metadata.extensions().get(FILL_EXTENSION);
    if (v2Fill != null && fill != null && fill.equals(fill(v2Fill.get("value"), V2DataTypes.parse(dtype, "/data_type"), serializer.name()))) {
      fill = v2Fill.get("value"); // the spelling it was read in, which stands for the same fill
    }
    out.set("fill_value", fill == null ? F.nullNode() : fill.deepCopy());
    out.put("order", order);
    out.set("filters", filters.isEmpty() ? F.nullNode() : filters);
    out.put("dimension_separator", metadata.chunkKeyEncoding().config().path("separator").asText("."));
    return out;
  }

  private static String transposeOrder(NamedConfig transpose, int rank) {
    JsonNode order = transpose.config().get("order");
    boolean identity = true;
    boolean reversed = true;
    if (order == null || !order.isArray() || order.size() != rank) {
      throw new UnsupportedExtensionException("/codecs/0: a transpose Zarr v2 cannot express");
    }
    for (int i = 0; i < rank; i++) {
      identity &= order.get(i).asInt(-1) == i;
      reversed &= order.get(i).asInt(-1) == rank - 1 - i;
    }
    if (reversed && rank > 0) {
      return "F";
    }
    if (identity) {
      return "C";
    }
    throw new UnsupportedExtensionException("/codecs/0: transpose " + Json.compact(order)
        + " is neither C nor F order, which is all Zarr v2 can express");
  }

  /** xarray's attribute of a v2 array's dimension names ({@code dimension_names} in v3). */
  public static final String DIMENSIONS_ATTRIBUTE = "_ARRAY_DIMENSIONS";

  /** The {@code .zattrs} of the attributes; with dimension names as xarray's {@code _ARRAY_DIMENSIONS}. */
  public static ObjectNode toZattrs(ArrayMetadata metadata) {
    ObjectNode out = metadata.attributes().deepCopy();
    if (metadata.dimensionNames() != null && !out.has(DIMENSIONS_ATTRIBUTE)
        && metadata.dimensionNames().stream().allMatch(n -> n != null)) {
      ArrayNode names = out.putArray(DIMENSIONS_ATTRIBUTE);
      metadata.dimensionNames().forEach(names::add);
    }
    return out;
  }

  /** The {@code .zgroup} document. */
  public static ObjectNode zgroup() {
    return F.objectNode().put("zarr_format", 2);
  }
}
