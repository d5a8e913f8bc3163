package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NumPy type strings of Zarr v2's {@code dtype} to and from v3 data type metadata, by name only (the
 * types themselves are resolved later through the registry, as for {@code zarr.json}). The names are
 * those zarr-python 3 gives v2 types: the core types ({@code <i4} is {@code int32}),
 * {@code numpy.datetime64}/{@code numpy.timedelta64} ({@code unit}, {@code scale_factor}),
 * {@code null_terminated_bytes} ({@code |Sn}), {@code fixed_length_utf32} ({@code <Un}), {@code raw_bytes}
 * ({@code |Vn}) and {@code struct} (a list of {@code [name, dtype]}; written from {@code struct} and the
 * legacy {@code structured}, read as {@code struct}, the current name), whose sub-array fields
 * {@code [name, dtype, shape]} are fields of zarrow's {@code zarrow.subarray} type.
 */
final class V2DataTypes {
  private static final Pattern SIMPLE = Pattern.compile("([<>|=])([a-zA-Z])([0-9]{1,9})?(?:\\[([0-9]{0,9})([a-zA-Zμ]+)\\])?");
  private static final Map<String, String> CORE = Map.ofEntries(
      Map.entry("b1", "bool"), Map.entry("i1", "int8"), Map.entry("i2", "int16"), Map.entry("i4", "int32"),
      Map.entry("i8", "int64"), Map.entry("u1", "uint8"), Map.entry("u2", "uint16"), Map.entry("u4", "uint32"),
      Map.entry("u8", "uint64"), Map.entry("f2", "float16"), Map.entry("f4", "float32"), Map.entry("f8", "float64"),
      Map.entry("c8", "complex64"), Map.entry("c16", "complex128"));
  private static final java.util.Set<String> UNITS =
      java.util.Set.of("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic");

  private V2DataTypes() {}

  /** The v3 data type of a numpy sub-array field (dev.zarrow.dtype.SubarrayType). */
  private static final String SUBARRAY = "zarrow.subarray";

  /**
   * A v2 {@code dtype} read: the v3 data type (null for {@code |O}, whose type the object codec gives),
   * the byte order its {@code bytes} codec needs ({@code "little"}, {@code "big"}, or null for one-byte
   * elements), and the element size in bytes (0 for objects).
   */
  record Parsed(NamedConfig dataType, String endian, int itemSize, Kind kind) {}

  /** What the fill value of a type looks like. */
  enum Kind { NUMBER, OBJECT, BYTES, TEXT }

  static Parsed parse(JsonNode dtype, String pointer) {
    if (dtype != null && dtype.isArray()) {
      return parseStructured(dtype, pointer);
    }
    if (dtype == null || !dtype.isTextual()) {
      throw new MetadataException(pointer + ": expected a NumPy type string or a list of fields, got " + Json.kind(dtype));
    }
    String text = dtype.textValue();
    Matcher m = SIMPLE.matcher(text);
    if (!m.matches()) {
      throw new MetadataException(pointer + ": not a NumPy type string: \"" + text + "\"");
    }
    char order = m.group(1).charAt(0);
    String code = m.group(2);
    int size = m.group(3) == null ? -1 : Integer.parseInt(m.group(3));
    String endian = order == '>' ? "big" : order == '|' ? null : "little";
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (m.group(5) != null && !code.equals("M") && !code.equals("m")) {
      throw new MetadataException(pointer + ": \"" + text + "\": only datetime types take a [unit]");
    }
    switch (code) {
      case "O" -> {
        return new Parsed(null, null, 0, Kind.OBJECT);
      }
      case "M", "m" -> {
        if (size != 8 || m.group(5) == null || !UNITS.contains(m.group(5))) {
          throw new MetadataException(pointer + ": \"" + text + "\": expected " + code + "8[UNIT] with a NumPy time unit");
        }
        long scale = m.group(4) == null || m.group(4).isEmpty() ? 1 : Long.parseLong(m.group(4));
        if (scale < 1 || scale > Integer.MAX_VALUE) {
          throw new MetadataException(pointer + ": \"" + text + "\": the scale factor must be in [1, 2^31-1]");
        }
        ObjectNode config = f.objectNode().put("unit", m.group(5)).put("scale_factor", (int) scale);
        return new Parsed(NamedConfig.of(code.equals("M") ? "numpy.datetime64" : "numpy.timedelta64", config),
            needEndian(endian, text, pointer), 8, Kind.NUMBER);
      }
      case "S", "V" -> {
        if (size < 0 || (size == 0 && code.equals("V"))) {
          throw new MetadataException(pointer + ": \"" + text + "\": expected a length");
        }
        String name = code.equals("S") ? "null_terminated_bytes" : "raw_bytes";
        return new Parsed(NamedConfig.of(name, f.objectNode().put("length_bytes", size)), null, size, Kind.BYTES);
      }
      case "U" -> {
        if (size < 0 || size > Integer.MAX_VALUE / 4) {
          throw new MetadataException(pointer + ": \"" + text + "\": expected a length");
        }
        return new Parsed(NamedConfig.of("fixed_length_utf32", f.objectNode().put("length_bytes", 4 * size)),
            size == 0 ? endian : needEndian(endian, text, pointer), 4 * size, Kind.TEXT);
      }
      default -> {
        String name = CORE.get(code + (size < 0 ? "" : size));
        if (name == null) {
          throw new MetadataException(pointer + ": unknown or unsupported NumPy type \"" + text + "\"");
        }
        return new Parsed(NamedConfig.plain(name), size == 1 ? null : needEndian(endian, text, pointer), size, Kind.NUMBER);
      }
    }
  }

  private static String needEndian(String endian, String text, String pointer) {
    if (endian == null) {
      throw new MetadataException(pointer + ": \"" + text + "\": a multi-byte type needs '<' or '>'");
    }
    return endian;
  }

  private static Parsed parseStructured(JsonNode fields, String pointer) {
    if (fields.isEmpty()) {
      throw new MetadataException(pointer + ": a structured type needs at least one field");
    }
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    String endian = null;
    long size = 0;
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < fields.size(); i++) {
      JsonNode field = fields.get(i);
      String at = pointer + "/" + i;
      if (!field.isArray() || field.size() < 2 || field.size() > 3 || !field.get(0).isTextual()) {
        throw new MetadataException(at + ": expected [name, dtype] or [name, dtype, shape]");
      }
      if (!names.add(field.get(0).textValue())) {
        throw new MetadataException(at + ": field name \"" + field.get(0).textValue() + "\" is repeated");
      }
      Parsed type = parse(field.get(1), at + "/1");
      if (type.kind() == Kind.OBJECT) {
        throw new UnsupportedExtensionException(at + ": object fields are not supported");
      }
      if (field.size() == 3) {
        type = subarray(type, field.get(2), at + "/2");
      }
      if (type.endian() != null) {
        if (endian != null && !endian.equals(type.endian())) {
          throw new UnsupportedExtensionException(at + ": structured dtype " + Json.compact(fields)
              + " mixes byte orders, which has no Zarr v3 form (one bytes codec, one endian)");
        }
        endian = type.endian();
      }
      size += type.itemSize();
      if (size > Integer.MAX_VALUE) {
        throw new MetadataException(pointer + ": a record of more than 2^31-1 bytes");
      }
      out.addObject().put("name", field.get(0).textValue()).set("data_type", type.dataType().toJson());
    }
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.set("fields", out);
    return new Parsed(NamedConfig.of("struct", config), endian, (int) size, Kind.BYTES);
  }

  /**
   * A field's sub-array ({@code ["v", "<i2", [2, 3]]}): {@code zarrow.subarray} of the field's type. numpy
   * writes the shape as a list; a bare integer means one dimension, as numpy reads it. The extents are
   * checked here as far as the item size goes (at least 1, the record no larger than 2^31-1 bytes), the
   * rest when the type is resolved.
   */
  private static Parsed subarray(Parsed element, JsonNode shape, String pointer) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ArrayNode extents = shape.isIntegralNumber() ? f.arrayNode().add(shape) : shape.isArray() ? (ArrayNode) shape : null;
    if (extents == null || extents.isEmpty()) {
      throw new MetadataException(pointer + ": a field's shape is a non-empty list of extents, got " + Json.compact(shape));
    }
    long size = element.itemSize();
    for (int d = 0; d < extents.size(); d++) {
      JsonNode e = extents.get(d);
      if (!e.isIntegralNumber() || !e.canConvertToLong() || e.longValue() < 1) {
        throw new MetadataException(pointer + "/" + d + ": an extent must be a positive integer, got " + Json.compact(e));
      }
      size = e.longValue() > Integer.MAX_VALUE ? Long.MAX_VALUE : size * e.longValue();
      if (size > Integer.MAX_VALUE) {
        throw new MetadataException(pointer + ": a field of shape " + Json.compact(extents) + " is larger than 2^31-1 bytes");
      }
    }
    ObjectNode config = f.objectNode();
    config.set("data_type", element.dataType().toJson());
    config.set("shape", extents.deepCopy());
    return new Parsed(NamedConfig.of(SUBARRAY, config), element.endian(), (int) size, element.kind());
  }

  /**
   * The v2 {@code dtype} of v3 {@code dataType} stored with byte order {@code endian} (null: none given);
   * a type v2 has no spelling for is an {@link UnsupportedExtensionException}.
   */
  static JsonNode toV2(NamedConfig dataType, String endian, String pointer) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    String name = dataType.name();
    ObjectNode config = dataType.config();
    char order = "big".equals(endian) ? '>' : '<';
    switch (name) {
      case "string", "bytes", "binary", "variable_length_bytes" -> {
        return f.textNode("|O");
      }
      case "numpy.datetime64", "numpy.timedelta64" -> {
        long scale = config.path("scale_factor").asLong(1);
        return f.textNode(order + (name.endsWith("datetime64") ? "M8[" : "m8[") + (scale == 1 ? "" : String.valueOf(scale))
            + config.path("unit").asText("generic") + "]");
      }
      case "null_terminated_bytes" -> {
        return f.textNode("|S" + config.path("length_bytes").asInt());
      }
      case "raw_bytes" -> {
        return f.textNode("|V" + config.path("length_bytes").asInt());
      }
      case "fixed_length_utf32" -> {
        return f.textNode(order + "U" + config.path("length_bytes").asInt() / 4);
      }
      case "struct", "structured" -> { // fields as {"name", "data_type"} or the legacy [name, data_type]
        ArrayNode out = f.arrayNode();
        JsonNode fields = config.path("fields");
        for (int i = 0; i < fields.size(); i++) {
          JsonNode field = fields.get(i);
          boolean pair = field.isArray();
          JsonNode type = pair ? field.path(1) : field.path("data_type");
          String at = pointer + "/configuration/fields/" + i + "/data_type";
          NamedConfig fieldType = NamedConfig.parse(type, at);
          ArrayNode v2Field = out.addArray().add(pair ? field.path(0).asText() : field.path("name").asText());
          if (fieldType.name().equals(SUBARRAY)) { // [name, element dtype, shape]
            v2Field.add(toV2(NamedConfig.parse(fieldType.config().path("data_type"), at + "/configuration/data_type"), endian, pointer))
                .add(fieldType.config().path("shape").deepCopy());
          } else {
            v2Field.add(toV2(fieldType, endian, pointer));
          }
        }
        return out;
      }
      default -> {
        for (Map.Entry<String, String> e : CORE.entrySet()) {
          if (e.getValue().equals(name)) {
            String code = e.getKey();
            boolean oneByte = code.endsWith("1") && !code.endsWith("16");
            return f.textNode((oneByte ? "|" : String.valueOf(order)) + code);
          }
        }
        throw new UnsupportedExtensionException(pointer + ": data type " + name + " has no Zarr v2 dtype");
      }
    }
  }
}
