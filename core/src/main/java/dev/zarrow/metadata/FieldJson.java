package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.ArrowType.ArrowTypeVisitor;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow fields and schemas in the Arrow JSON-integration spelling, as the {@code arrow} Zarr data
 * type stores them, mapped to Arrow Java's {@link Field} and {@link Schema}.
 *
 * <p>The canonical output is the spelling of Arrow's own integration files (the C++ generator's
 * "gold" files), key for key and in their order:
 *
 * <pre>
 * field      = {"name": string, "type": type, "nullable": bool, "children": [field...],
 *               ["dictionary": {"id": int, "indexType": int-type, "isOrdered": bool},]
 *               ["metadata": [{"key": string, "value": string}...]]}
 * schema     = {"fields": [field...], ["metadata": [...]]}
 * type       = {"name": "null" | "bool" | "utf8" | "largeutf8" | "utf8view" | "binary"
 *                       | "largebinary" | "binaryview" | "list" | "largelist" | "listview"
 *                       | "largelistview" | "struct" | "runendencoded"}
 *            | {"name": "int", "isSigned": bool, "bitWidth": 8 | 16 | 32 | 64}
 *            | {"name": "floatingpoint", "precision": "HALF" | "SINGLE" | "DOUBLE"}
 *            | {"name": "fixedsizebinary", "byteWidth": int}
 *            | {"name": "decimal", "precision": int, "scale": int, "bitWidth": 128 | 256}
 *            | {"name": "date", "unit": "DAY" | "MILLISECOND"}
 *            | {"name": "time", "unit": "SECOND" | "MILLISECOND", "bitWidth": 32}
 *            | {"name": "time", "unit": "MICROSECOND" | "NANOSECOND", "bitWidth": 64}
 *            | {"name": "timestamp", "unit": time-unit, ["timezone": string]}
 *            | {"name": "duration", "unit": time-unit}
 *            | {"name": "interval", "unit": "YEAR_MONTH" | "DAY_TIME" | "MONTH_DAY_NANO"}
 *            | {"name": "fixedsizelist", "listSize": int}
 *            | {"name": "map", "keysSorted": bool}
 *            | {"name": "union", "mode": "SPARSE" | "DENSE", ["typeIds": [0..127...]]}
 * </pre>
 *
 * <p>Reading accepts that grammar in any key order, plus what Arrow Java's own {@code
 * JsonFileWriter} writes: enum values in any case ({@code "Sparse"}), an explicit {@code null} for
 * an absent optional key, and these defaults of the Arrow format: {@code children} absent means
 * none, decimal {@code bitWidth} absent means 128, dictionary {@code indexType} absent means a
 * signed 32-bit int and {@code isOrdered} absent means false. Anything else is refused rather
 * than dropped: unknown keys, duplicate metadata keys (Arrow Java keeps metadata in a map),
 * children that do not fit the type, fields nested deeper than {@link #MAX_DEPTH}. So {@code
 * write(parse(x))} equals {@code x} text for text whenever {@code x} is canonical, and otherwise
 * differs only by those normalisations (and by dropping an empty {@code "metadata": []}).
 *
 * <p>Extension types stay what the integration format makes them: a storage-typed field whose
 * metadata holds {@code ARROW:extension:name} and {@code ARROW:extension:metadata}. {@link
 * #parse} never builds an {@code ExtensionType}; {@link #write} writes one as its storage type
 * (its metadata already carries those keys).
 *
 * <p>A dictionary-encoded field is in the integration (and IPC message) form: its type is the
 * value type and {@code getDictionary()} holds the id, index type and ordering. Arrow Java's
 * vectors use the memory form instead (type = index type, no children); {@code
 * DictionaryUtility.toMemoryFormat} converts.
 *
 * <p>Metadata keeps its order through {@link Field#getMetadata()} and {@link
 * Schema#getCustomMetadata()} (see {@link OrderedMetadata}; Arrow Java alone would reorder it).
 *
 * <p>Errors: malformed JSON gives a {@link MetadataException} whose message starts with the JSON
 * pointer of the offending value (for example {@code /children/1/type/bitWidth}); a type that
 * Arrow Java cannot carry gives an {@link UnsupportedExtensionException} naming it and the
 * supported ones. No other exception escapes for any JSON input.
 */
public final class FieldJson {
  /** The deepest nesting of fields read or written, the bound Arrow C++ puts on IPC schemas. */
  public static final int MAX_DEPTH = 64;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SUPPORTED =
      "null, bool, int, floatingpoint, utf8, largeutf8, utf8view, binary, largebinary,"
          + " binaryview, fixedsizebinary, decimal (bitWidth 128, 256), date, time, timestamp,"
          + " duration, interval, list, largelist, listview, largelistview, fixedsizelist, struct,"
          + " map, union, runendencoded";
  private static final String[] FIELD_KEYS = {
    "name", "type", "nullable", "children", "dictionary", "metadata"
  };
  private static final TypeWriter TYPE_WRITER = new TypeWriter();

  private FieldJson() {}

  /** Reads an integration-format field. */
  public static Field parse(JsonNode node) {
    return parse(node, "");
  }

  /**
   * Reads an integration-format field found at {@code pointer} of a larger document (for example
   * {@code /data_type/configuration/field}), so that error messages point into that document.
   */
  public static Field parse(JsonNode node, String pointer) {
    return parseField(node, Objects.requireNonNull(pointer, "pointer"), 1);
  }

  /** Reads an integration-format schema object ({@code fields} and {@code metadata}). */
  public static Schema parseSchema(JsonNode node) {
    return parseSchema(node, "");
  }

  /** Reads an integration-format schema found at {@code pointer} of a larger document. */
  public static Schema parseSchema(JsonNode node, String pointer) {
    Objects.requireNonNull(pointer, "pointer");
    ObjectNode object = object(node, pointer);
    onlyKeys(object, pointer, "fields", "metadata");
    String fieldsPath = pointer + "/fields";
    ArrayNode array = array(required(object, "fields", pointer), fieldsPath);
    List<Field> fields = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      fields.add(parseField(array.get(i), fieldsPath + "/" + i, 1));
    }
    Map<String, String> metadata =
        parseMetadata(optional(object, "metadata"), pointer + "/metadata");
    return OrderedMetadata.schema(fields, metadata);
  }

  /**
   * Writes {@code field} in the canonical integration spelling.
   *
   * @throws MetadataException if the field cannot be read back (a null name or metadata entry,
   *     children that do not fit the type, nesting deeper than {@link #MAX_DEPTH})
   * @throws UnsupportedExtensionException for a decimal of bit width 32 or 64
   */
  public static ObjectNode write(Field field) {
    ObjectNode node = writeField(Objects.requireNonNull(field, "field"), 1);
    // What is written must read back, so the output goes through the same checks as input.
    parse(node);
    return node;
  }

  /** Writes {@code schema} in the canonical integration spelling; throws as {@link #write}. */
  public static ObjectNode writeSchema(Schema schema) {
    Objects.requireNonNull(schema, "schema");
    ObjectNode node = NODES.objectNode();
    ArrayNode fields = node.putArray("fields");
    for (Field field : schema.getFields()) {
      fields.add(writeField(field, 1));
    }
    if (!schema.getCustomMetadata().isEmpty()) {
      node.set("metadata", writeMetadata(schema.getCustomMetadata()));
    }
    parseSchema(node);
    return node;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  private static Field parseField(JsonNode node, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw error(path, "fields nest deeper than " + MAX_DEPTH + " levels");
    }
    ObjectNode object = object(node, path);
    onlyKeys(object, path, FIELD_KEYS);
    String name = string(required(object, "name", path), path + "/name");
    ArrowType type = parseType(required(object, "type", path), path + "/type");
    boolean nullable = bool(required(object, "nullable", path), path + "/nullable");
    List<Field> children = parseChildren(optional(object, "children"), path, depth);
    DictionaryEncoding dictionary =
        parseDictionary(optional(object, "dictionary"), path + "/dictionary");
    Map<String, String> metadata =
        parseMetadata(optional(object, "metadata"), path + "/metadata");
    checkChildren(type, children, path);
    return new Field(
        name, OrderedMetadata.fieldType(nullable, type, dictionary, metadata), children);
  }

  private static List<Field> parseChildren(JsonNode node, String fieldPath, int depth) {
    if (node == null) {
      return List.of();
    }
    String path = fieldPath + "/children";
    ArrayNode array = array(node, path);
    List<Field> children = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      children.add(parseField(array.get(i), path + "/" + i, depth + 1));
    }
    return children;
  }

  private static ArrowType parseType(JsonNode node, String path) {
    ObjectNode object = object(node, path);
    String name = string(required(object, "name", path), path + "/name");
    switch (name) {
      case "null":
        onlyKeys(object, path, "name");
        return ArrowType.Null.INSTANCE;
      case "bool":
        onlyKeys(object, path, "name");
        return ArrowType.Bool.INSTANCE;
      case "utf8":
        onlyKeys(object, path, "name");
        return ArrowType.Utf8.INSTANCE;
      case "largeutf8":
        onlyKeys(object, path, "name");
        return ArrowType.LargeUtf8.INSTANCE;
      case "utf8view":
        onlyKeys(object, path, "name");
        return ArrowType.Utf8View.INSTANCE;
      case "binary":
        onlyKeys(object, path, "name");
        return ArrowType.Binary.INSTANCE;
      case "largebinary":
        onlyKeys(object, path, "name");
        return ArrowType.LargeBinary.INSTANCE;
      case "binaryview":
        onlyKeys(object, path, "name");
        return ArrowType.BinaryView.INSTANCE;
      case "list":
        onlyKeys(object, path, "name");
        return ArrowType.List.INSTANCE;
      case "largelist":
        onlyKeys(object, path, "name");
        return ArrowType.LargeList.INSTANCE;
      case "listview":
        onlyKeys(object, path, "name");
        return ArrowType.ListView.INSTANCE;
      case "largelistview":
        onlyKeys(object, path, "name");
        return ArrowType.LargeListView.INSTANCE;
      case "struct":
        onlyKeys(object, path, "name");
        return ArrowType.Struct.INSTANCE;
      case "runendencoded":
        onlyKeys(object, path, "name");
        return ArrowType.RunEndEncoded.INSTANCE;
      case "int":
        onlyKeys(object, path, "name", "isSigned", "bitWidth");
        return new ArrowType.Int(
            oneOf(object, "bitWidth", path, 8, 16, 32, 64),
            bool(required(object, "isSigned", path), path + "/isSigned"));
      case "floatingpoint":
        onlyKeys(object, path, "name", "precision");
        return new ArrowType.FloatingPoint(
            enumValue(object, "precision", path, FloatingPointPrecision.class));
      case "fixedsizebinary":
        onlyKeys(object, path, "name", "byteWidth");
        return new ArrowType.FixedSizeBinary(
            (int) integer(required(object, "byteWidth", path), path + "/byteWidth", 0,
                Integer.MAX_VALUE));
      case "decimal":
        onlyKeys(object, path, "name", "precision", "scale", "bitWidth");
        return parseDecimal(object, path);
      case "date":
        onlyKeys(object, path, "name", "unit");
        return new ArrowType.Date(enumValue(object, "unit", path, DateUnit.class));
      case "time":
        onlyKeys(object, path, "name", "unit", "bitWidth");
        return parseTime(object, path);
      case "timestamp":
        onlyKeys(object, path, "name", "unit", "timezone");
        JsonNode timezone = optional(object, "timezone");
        return new ArrowType.Timestamp(
            enumValue(object, "unit", path, TimeUnit.class),
            timezone == null ? null : string(timezone, path + "/timezone"));
      case "duration":
        onlyKeys(object, path, "name", "unit");
        return new ArrowType.Duration(enumValue(object, "unit", path, TimeUnit.class));
      case "interval":
        onlyKeys(object, path, "name", "unit");
        return new ArrowType.Interval(enumValue(object, "unit", path, IntervalUnit.class));
      case "fixedsizelist":
        onlyKeys(object, path, "name", "listSize");
        return new ArrowType.FixedSizeList(
            (int) integer(required(object, "listSize", path), path + "/listSize", 0,
                Integer.MAX_VALUE));
      case "map":
        onlyKeys(object, path, "name", "keysSorted");
        return new ArrowType.Map(bool(required(object, "keysSorted", path), path + "/keysSorted"));
      case "union":
        onlyKeys(object, path, "name", "mode", "typeIds");
        return new ArrowType.Union(
            enumValue(object, "mode", path, UnionMode.class),
            parseTypeIds(optional(object, "typeIds"), path + "/typeIds"));
      default:
        throw new UnsupportedExtensionException(
            path + "/name: Arrow type '" + name + "' is not supported; supported: "
                + SUPPORTED);
    }
  }

  private static ArrowType parseDecimal(ObjectNode object, String path) {
    JsonNode bitWidthNode = optional(object, "bitWidth");
    int bitWidth =
        bitWidthNode == null ? 128 : oneOf(object, "bitWidth", path, 32, 64, 128, 256);
    if (bitWidth == 32 || bitWidth == 64) {
      // Arrow Java 18 has no vector for them and its IPC reader refuses them.
      throw new UnsupportedExtensionException(
          path + "/bitWidth: decimal" + bitWidth
              + " is not supported by Arrow Java; supported decimal bit widths: 128, 256");
    }
    int maxPrecision = bitWidth == 128 ? 38 : 76;
    int precision =
        (int) integer(required(object, "precision", path), path + "/precision", 1, maxPrecision);
    int scale =
        (int) integer(required(object, "scale", path), path + "/scale", Integer.MIN_VALUE,
            Integer.MAX_VALUE);
    return new ArrowType.Decimal(precision, scale, bitWidth);
  }

  private static ArrowType parseTime(ObjectNode object, String path) {
    TimeUnit unit = enumValue(object, "unit", path, TimeUnit.class);
    int expected = unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64;
    int bitWidth = oneOf(object, "bitWidth", path, 32, 64);
    if (bitWidth != expected) {
      throw error(
          path + "/bitWidth",
          "time in " + unit + " has bitWidth " + expected + ", got " + bitWidth);
    }
    return new ArrowType.Time(unit, bitWidth);
  }

  private static int[] parseTypeIds(JsonNode node, String path) {
    if (node == null) {
      return null;
    }
    ArrayNode array = array(node, path);
    int[] typeIds = new int[array.size()];
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < typeIds.length; i++) {
      String itemPath = path + "/" + i;
      typeIds[i] = (int) integer(array.get(i), itemPath, 0, 127);
      if (!seen.add(typeIds[i])) {
        throw error(itemPath, "type id " + typeIds[i] + " appears twice");
      }
    }
    return typeIds;
  }

  private static DictionaryEncoding parseDictionary(JsonNode node, String path) {
    if (node == null) {
      return null;
    }
    ObjectNode object = object(node, path);
    onlyKeys(object, path, "id", "indexType", "isOrdered");
    long id = integer(required(object, "id", path), path + "/id", Long.MIN_VALUE, Long.MAX_VALUE);
    JsonNode indexTypeNode = optional(object, "indexType");
    ArrowType.Int indexType = null;
    if (indexTypeNode != null) {
      ArrowType parsed = parseType(indexTypeNode, path + "/indexType");
      if (!(parsed instanceof ArrowType.Int)) {
        throw error(path + "/indexType", "dictionary indices must be of type int, got " + parsed);
      }
      indexType = (ArrowType.Int) parsed;
    }
    JsonNode ordered = optional(object, "isOrdered");
    // A null indexType makes Arrow Java use a signed 32-bit int, the Arrow format's default.
    return new DictionaryEncoding(
        id, ordered != null && bool(ordered, path + "/isOrdered"), indexType);
  }

  private static Map<String, String> parseMetadata(JsonNode node, String path) {
    if (node == null) {
      return Map.of();
    }
    ArrayNode array = array(node, path);
    Map<String, String> metadata = new LinkedHashMap<>();
    for (int i = 0; i < array.size(); i++) {
      String itemPath = path + "/" + i;
      ObjectNode entry = object(array.get(i), itemPath);
      onlyKeys(entry, itemPath, "key", "value");
      String key = string(required(entry, "key", itemPath), itemPath + "/key");
      String value = string(required(entry, "value", itemPath), itemPath + "/value");
      if (metadata.putIfAbsent(key, value) != null) {
        throw error(
            itemPath + "/key",
            "metadata key '" + key + "' appears twice; Arrow Java keeps one value per key");
      }
    }
    return metadata;
  }

  /** Refuses children that Arrow Java could not build vectors for. */
  private static void checkChildren(ArrowType type, List<Field> children, String path) {
    String childrenPath = path + "/children";
    switch (type.getTypeID()) {
      case Struct:
        return;
      case List:
      case LargeList:
      case FixedSizeList:
      case ListView:
      case LargeListView:
        childCount(type, children, 1, childrenPath);
        return;
      case Map:
        childCount(type, children, 1, childrenPath);
        Field entries = children.get(0);
        if (!(entries.getType() instanceof ArrowType.Struct) || entries.getChildren().size() != 2) {
          throw error(childrenPath + "/0", "map entries must be a struct of a key and a value");
        }
        return;
      case Union:
        int[] typeIds = ((ArrowType.Union) type).getTypeIds();
        if (typeIds != null) {
          childCount(type, children, typeIds.length, childrenPath);
        } else if (children.size() > 128) {
          throw error(childrenPath, "a union has at most 128 members, got " + children.size());
        }
        return;
      case RunEndEncoded:
        childCount(type, children, 2, childrenPath);
        Field runEnds = children.get(0);
        if (!(runEnds.getType() instanceof ArrowType.Int)
            || !((ArrowType.Int) runEnds.getType()).getIsSigned()
            || ((ArrowType.Int) runEnds.getType()).getBitWidth() == 8
            || runEnds.isNullable()) {
          throw error(
              childrenPath + "/0", "run ends must be a non-nullable int16, int32 or int64");
        }
        return;
      default:
        childCount(type, children, 0, childrenPath);
    }
  }

  private static void childCount(ArrowType type, List<Field> children, int expected, String path) {
    if (children.size() != expected) {
      throw error(
          path, type + " takes " + expected + " child field(s), got " + children.size());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  private static ObjectNode writeField(Field field, int depth) {
    if (depth > MAX_DEPTH) {
      throw new MetadataException(
          "field '" + field.getName() + "' nests deeper than " + MAX_DEPTH + " levels");
    }
    ObjectNode node = NODES.objectNode();
    node.put("name", field.getName());
    node.set("type", field.getType().accept(TYPE_WRITER));
    node.put("nullable", field.isNullable());
    ArrayNode children = node.putArray("children");
    for (Field child : field.getChildren()) {
      children.add(writeField(child, depth + 1));
    }
    DictionaryEncoding dictionary = field.getDictionary();
    if (dictionary != null) {
      ObjectNode encoding = node.putObject("dictionary");
      long id = dictionary.getId();
      // The node kind Jackson's parser gives this number, so written and read trees are equal.
      if (id == (int) id) {
        encoding.put("id", (int) id);
      } else {
        encoding.put("id", id);
      }
      encoding.set("indexType", dictionary.getIndexType().accept(TYPE_WRITER));
      encoding.put("isOrdered", dictionary.isOrdered());
    }
    if (!field.getMetadata().isEmpty()) {
      node.set("metadata", writeMetadata(field.getMetadata()));
    }
    return node;
  }

  private static ArrayNode writeMetadata(Map<String, String> metadata) {
    ArrayNode array = NODES.arrayNode();
    for (Map.Entry<String, String> entry : metadata.entrySet()) {
      array.addObject().put("key", entry.getKey()).put("value", entry.getValue());
    }
    return array;
  }

  /** The integration spelling of each type; an extension type is written as its storage. */
  private static final class TypeWriter implements ArrowTypeVisitor<ObjectNode> {
    private static ObjectNode named(String name) {
      return NODES.objectNode().put("name", name);
    }

    /** Upper case as in the integration files (Arrow Java spells union modes "Sparse"). */
    private static String spell(Enum<?> value) {
      return value == null ? null : value.name().toUpperCase(Locale.ROOT);
    }

    @Override
    public ObjectNode visit(ArrowType.Null type) {
      return named("null");
    }

    @Override
    public ObjectNode visit(ArrowType.Struct type) {
      return named("struct");
    }

    @Override
    public ObjectNode visit(ArrowType.List type) {
      return named("list");
    }

    @Override
    public ObjectNode visit(ArrowType.LargeList type) {
      return named("largelist");
    }

    @Override
    public ObjectNode visit(ArrowType.FixedSizeList type) {
      return named("fixedsizelist").put("listSize", type.getListSize());
    }

    @Override
    public ObjectNode visit(ArrowType.Union type) {
      ObjectNode node = named("union").put("mode", spell(type.getMode()));
      if (type.getTypeIds() != null) {
        ArrayNode typeIds = node.putArray("typeIds");
        for (int typeId : type.getTypeIds()) {
          typeIds.add(typeId);
        }
      }
      return node;
    }

    @Override
    public ObjectNode visit(ArrowType.Map type) {
      return named("map").put("keysSorted", type.getKeysSorted());
    }

    @Override
    public ObjectNode visit(ArrowType.Int type) {
      return named("int").put("isSigned", type.getIsSigned()).put("bitWidth", type.getBitWidth());
    }

    @Override
    public ObjectNode visit(ArrowType.FloatingPoint type) {
      return named("floatingpoint").put("precision", spell(type.getPrecision()));
    }

    @Override
    public ObjectNode visit(ArrowType.Utf8 type) {
      return named("utf8");
    }

    @Override
    public ObjectNode visit(ArrowType.Utf8View type) {
      return named("utf8view");
    }

    @Override
    public ObjectNode visit(ArrowType.LargeUtf8 type) {
      return named("largeutf8");
    }

    @Override
    public ObjectNode visit(ArrowType.Binary type) {
      return named("binary");
    }

    @Override
    public ObjectNode visit(ArrowType.BinaryView type) {
      return named("binaryview");
    }

    @Override
    public ObjectNode visit(ArrowType.LargeBinary type) {
      return named("largebinary");
    }

    @Override
    public ObjectNode visit(ArrowType.FixedSizeBinary type) {
      return named("fixedsizebinary").put("byteWidth", type.getByteWidth());
    }

    @Override
    public ObjectNode visit(ArrowType.Bool type) {
      return named("bool");
    }

    @Override
    public ObjectNode visit(ArrowType.Decimal type) {
      return named("decimal")
          .put("precision", type.getPrecision())
          .put("scale", type.getScale())
          .put("bitWidth", type.getBitWidth());
    }

    @Override
    public ObjectNode visit(ArrowType.Date type) {
      return named("date").put("unit", spell(type.getUnit()));
    }

    @Override
    public ObjectNode visit(ArrowType.Time type) {
      return named("time").put("unit", spell(type.getUnit())).put("bitWidth", type.getBitWidth());
    }

    @Override
    public ObjectNode visit(ArrowType.Timestamp type) {
      ObjectNode node = named("timestamp").put("unit", spell(type.getUnit()));
      if (type.getTimezone() != null) {
        node.put("timezone", type.getTimezone());
      }
      return node;
    }

    @Override
    public ObjectNode visit(ArrowType.Interval type) {
      return named("interval").put("unit", spell(type.getUnit()));
    }

    @Override
    public ObjectNode visit(ArrowType.Duration type) {
      return named("duration").put("unit", spell(type.getUnit()));
    }

    @Override
    public ObjectNode visit(ArrowType.ListView type) {
      return named("listview");
    }

    @Override
    public ObjectNode visit(ArrowType.LargeListView type) {
      return named("largelistview");
    }

    @Override
    public ObjectNode visit(ArrowType.RunEndEncoded type) {
      return named("runendencoded");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Node access: every check names the JSON pointer of the value it refuses.

  private static MetadataException error(String path, String problem) {
    return new MetadataException((path.isEmpty() ? "(root)" : path) + ": " + problem);
  }

  private static ObjectNode object(JsonNode node, String path) {
    if (node == null || !node.isObject()) {
      throw error(path, "expected an object, got " + describe(node));
    }
    return (ObjectNode) node;
  }

  private static ArrayNode array(JsonNode node, String path) {
    if (!node.isArray()) {
      throw error(path, "expected an array, got " + describe(node));
    }
    return (ArrayNode) node;
  }

  private static String string(JsonNode node, String path) {
    if (!node.isTextual()) {
      throw error(path, "expected a string, got " + describe(node));
    }
    return node.textValue();
  }

  private static boolean bool(JsonNode node, String path) {
    if (!node.isBoolean()) {
      throw error(path, "expected true or false, got " + describe(node));
    }
    return node.booleanValue();
  }

  private static long integer(JsonNode node, String path, long min, long max) {
    if (!node.isIntegralNumber()) {
      throw error(path, "expected an integer, got " + describe(node));
    }
    if (!node.canConvertToLong() || node.longValue() < min || node.longValue() > max) {
      throw error(
          path, "expected an integer from " + min + " to " + max + ", got " + describe(node));
    }
    return node.longValue();
  }

  private static int oneOf(ObjectNode object, String key, String path, int... allowed) {
    String keyPath = path + "/" + key;
    long value = integer(required(object, key, path), keyPath, Long.MIN_VALUE, Long.MAX_VALUE);
    for (int candidate : allowed) {
      if (value == candidate) {
        return candidate;
      }
    }
    StringBuilder expected = new StringBuilder();
    for (int candidate : allowed) {
      expected.append(expected.length() == 0 ? "" : ", ").append(candidate);
    }
    throw error(keyPath, "expected one of " + expected + ", got " + value);
  }

  /** Enum values match in any case, as Arrow Java's JSON reader accepts them. */
  private static <E extends Enum<E>> E enumValue(
      ObjectNode object, String key, String path, Class<E> type) {
    String keyPath = path + "/" + key;
    String text = string(required(object, key, path), keyPath);
    StringBuilder expected = new StringBuilder();
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(text)) {
        return constant;
      }
      expected.append(expected.length() == 0 ? "" : ", ").append(TypeWriter.spell(constant));
    }
    throw error(keyPath, "expected one of " + expected + ", got " + describe(object.get(key)));
  }

  private static JsonNode required(ObjectNode object, String key, String path) {
    JsonNode value = object.get(key);
    if (value == null) {
      throw error(path + "/" + escape(key), "missing");
    }
    return value;
  }

  /** An optional key's value, or null when absent or JSON null. */
  private static JsonNode optional(ObjectNode object, String key) {
    JsonNode value = object.get(key);
    return value == null || value.isNull() ? null : value;
  }

  private static void onlyKeys(ObjectNode object, String path, String... allowed) {
    Iterator<String> names = object.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!List.of(allowed).contains(name)) {
        throw error(
            path + "/" + escape(name),
            "unknown key; expected only " + String.join(", ", allowed));
      }
    }
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    if (node.isObject()) {
      return "an object";
    }
    if (node.isArray()) {
      return "an array";
    }
    if (node.isTextual()) {
      String text = node.textValue();
      return "\"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
    }
    return node.isValueNode() ? node.asText() : node.getNodeType().toString();
  }
}
