package dev.zarrow.dtype;

import dev.zarrow.vector.ValueEquals;
import dev.zarrow.vector.Fields;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Gather;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The {@code arrow} data type: elements are values of one Arrow field, however nested.
 *
 * <pre>
 * {"name": "arrow", "configuration": {"version": "0.1.0", "field": F}}
 * </pre>
 *
 * <p>{@code F} is an Arrow field in the JSON-integration spelling ({@link FieldJson}). The
 * configuration is kept exactly as read, so {@code zarr.json} round-trips text for text.
 *
 * <p><b>Stored and memory fields.</b> {@link #storedField()} is {@code F} as written: a
 * dictionary-encoded level has its value type and a {@code dictionary} entry. A chunk in memory is
 * one vector, which cannot carry a dictionary, so chunks hold the <i>decoded</i> values: {@link
 * #memoryField()} (and {@link #field}) is {@code F} with every dictionary encoding dropped (see
 * {@link Dictionaries}). The {@code arrow} codec dictionary-encodes each chunk when it writes it
 * (the dictionary of a chunk is its distinct values) and decodes it when it reads it, so stored
 * chunks are dictionary-encoded as {@code F} says.
 *
 * <p><b>Fill values.</b> {@code null} is the blank element ({@link Gather.Run#blank}): null when the
 * field is nullable, otherwise the zero value of its type (0, false, "", empty list, a struct of
 * blank children); a union, which has no validity bitmap, is its first member's blank element.
 * Primitive fields also take a scalar: integers (also for date, time, timestamp and duration, in
 * their stored unit), floats (numbers, {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}, hex
 * raw bits), booleans, a JSON string for utf8 types and base64 for binary types. New arrays default
 * to {@code null}, or to zero/empty for non-nullable primitive fields.
 */
public final class ArrowDataType implements DataType {
  public static final String NAME = "arrow";
  public static final String VERSION = "0.1.0";

  private static final String CONFIG = "/data_type/configuration";

  private final ObjectNode configuration;
  private final Field stored;
  private final Field memory;

  private ArrowDataType(ObjectNode configuration, Field stored) {
    this.configuration = configuration;
    this.stored = stored;
    this.memory = Dictionaries.decodedField(stored);
  }

  /**
   * The data type of vectors of {@code field}, in the stored form: a dictionary-encoded level has
   * its value type and {@link Field#getDictionary()} set (as in IPC schemas and {@link
   * FieldJson}). The configuration is {@code FieldJson.write(field)}, so an extension type is kept
   * as its storage type plus its {@code ARROW:extension:*} metadata. Fields that Arrow Java or the
   * format cannot carry are refused.
   */
  public static ArrowDataType of(Field field) {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.put("version", VERSION);
    config.set("field", FieldJson.write(field));
    return fromConfiguration(config);
  }

  /** The data type that {@code metadata} (a {@code data_type} value named {@code arrow}) describes. */
  public static ArrowDataType fromMetadata(NamedConfig metadata) {
    if (metadata.configuration() == null) {
      throw new MetadataException(CONFIG + ": missing (the arrow data type needs a version and a field)");
    }
    return fromConfiguration(metadata.configuration().deepCopy());
  }

  private static ArrowDataType fromConfiguration(ObjectNode config) {
    for (Iterator<String> it = config.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("version") && !key.equals("field")) {
        throw new MetadataException(CONFIG + "/" + key + ": unknown key of the arrow data type (known: version, field)");
      }
    }
    JsonNode version = config.get("version");
    if (version == null || version.isNull()) {
      throw new MetadataException(CONFIG + "/version: missing");
    }
    if (!version.isTextual() || !version.textValue().equals(VERSION)) {
      throw new UnsupportedExtensionException(CONFIG + "/version: arrow data type version "
          + Json.compact(version) + " is not supported (supported: \"" + VERSION + "\")");
    }
    JsonNode fieldJson = config.get("field");
    if (fieldJson == null || fieldJson.isNull()) {
      throw new MetadataException(CONFIG + "/field: missing");
    }
    Field field = FieldJson.parse(fieldJson, CONFIG + "/field");
    check(field, CONFIG + "/field");
    try {
      Dictionaries.valueFields(field);
    } catch (ZarrException e) {
      throw new MetadataException(CONFIG + "/field" + e.getMessage());
    }
    return new ArrowDataType(config, field);
  }

  /** Refuses what Arrow Java would mishandle. */
  private static void check(Field field, String path) {
    if (field.getType() instanceof ArrowType.Union union && union.getTypeIds() == null) {
      // Arrow Java then numbers members by its own type ordinals, other implementations by position.
      throw new MetadataException(path + "/type/typeIds: a union needs explicit typeIds");
    }
    for (int i = 0; i < field.getChildren().size(); i++) {
      check(field.getChildren().get(i), path + "/children/" + i);
    }
  }

  /** The field exactly as configured: the stored (IPC) form, dictionary encodings included. */
  public Field storedField() {
    return stored;
  }

  /** {@link #storedField()} renamed to {@code name}. */
  public Field storedField(String name) {
    return rename(stored, name);
  }

  /** The field of chunk vectors: {@link #storedField()} with every dictionary encoding decoded. */
  public Field memoryField() {
    return memory;
  }

  /** The field JSON of the configuration, as read (a copy). */
  public ObjectNode fieldJson() {
    return (ObjectNode) configuration.get("field").deepCopy();
  }

  /** True when some level of the field is dictionary-encoded on disk. */
  public boolean hasDictionaries() {
    return Dictionaries.isEncoded(stored);
  }

  private static Field rename(Field field, String name) {
    return name.equals(field.getName()) ? field : new Field(name, field.getFieldType(), field.getChildren());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, configuration.deepCopy());
  }

  /** The memory field renamed to {@code name} (only the top level; children keep their names). */
  @Override
  public Field field(String name) {
    return rename(memory, name);
  }

  @Override
  public Optional<NamedConfig> defaultSerializer() {
    return Optional.of(NamedConfig.of(NAME, null));
  }

  // ---- fill values ----

  private enum Scalar { FIXED, BOOL, UTF8, BINARY }

  /** How a scalar fill of the memory type is held, or null when only {@code null} fills it. */
  private Scalar scalar() {
    ArrowType t = memory.getType();
    return switch (t.getTypeID()) {
      case Int, FloatingPoint, Date, Time, Timestamp, Duration, FixedSizeBinary -> Scalar.FIXED;
      case Bool -> Scalar.BOOL;
      case Utf8, LargeUtf8, Utf8View -> Scalar.UTF8;
      case Binary, LargeBinary, BinaryView -> Scalar.BINARY;
      default -> null;
    };
  }

  /** The core type whose fill value spelling a fixed-width memory type shares. */
  private FixedType numeric() {
    ArrowType t = memory.getType();
    return switch (t.getTypeID()) {
      case Int -> {
        ArrowType.Int i = (ArrowType.Int) t;
        yield FixedType.named((i.getIsSigned() ? "int" : "uint") + i.getBitWidth()).orElseThrow();
      }
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) t).getPrecision()) {
        case HALF -> FixedType.FLOAT16;
        case SINGLE -> FixedType.FLOAT32;
        case DOUBLE -> FixedType.FLOAT64;
      };
      case Date -> ((ArrowType.Date) t).getUnit() == DateUnit.DAY ? FixedType.INT32 : FixedType.INT64;
      case Time -> ((ArrowType.Time) t).getBitWidth() == 32 ? FixedType.INT32 : FixedType.INT64;
      case Timestamp, Duration -> FixedType.INT64;
      default -> null; // fixed-size binary
    };
  }

  private int fixedWidth() {
    FixedType numeric = numeric();
    return numeric != null ? numeric.byteWidth() : ((ArrowType.FixedSizeBinary) memory.getType()).getByteWidth();
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (json == null || json.isNull()) {
      return FillValue.NULL;
    }
    Scalar scalar = scalar();
    if (scalar == null) {
      throw new MetadataException("/fill_value: an arrow field of type " + memory.getType()
          + " takes only null as its fill value, got " + Json.kind(json));
    }
    return switch (scalar) {
      case BOOL -> FixedType.BOOL.parseFill(json);
      case UTF8 -> {
        if (!json.isTextual()) {
          throw new MetadataException("/fill_value: an arrow " + memory.getType() + " field needs a string, got " + Json.kind(json));
        }
        yield FillValue.of(json.textValue().getBytes(StandardCharsets.UTF_8));
      }
      case BINARY -> FillValue.of(base64(json, -1));
      case FIXED -> {
        FixedType numeric = numeric();
        yield numeric != null ? numeric.parseFill(json) : FillValue.of(base64(json, fixedWidth()));
      }
    };
  }

  private byte[] base64(JsonNode json, int length) {
    byte[] bytes;
    try {
      bytes = json.isTextual() ? Base64.getDecoder().decode(json.textValue()) : null;
    } catch (IllegalArgumentException e) {
      bytes = null;
    }
    if (bytes == null) {
      throw new MetadataException("/fill_value: an arrow " + memory.getType() + " field needs base64 bytes, got " + Json.kind(json));
    }
    if (length >= 0 && bytes.length != length) {
      throw new MetadataException("/fill_value: an arrow " + memory.getType() + " field needs " + length
          + " bytes, got " + bytes.length);
    }
    return bytes;
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    if (fill.isNull()) {
      return JsonNodeFactory.instance.nullNode();
    }
    Scalar scalar = scalar();
    if (scalar == null) {
      throw new IllegalArgumentException("an arrow field of type " + memory.getType() + " has no fill value but null");
    }
    return switch (scalar) {
      case BOOL -> FixedType.BOOL.fillToJson(fill);
      case UTF8 -> JsonNodeFactory.instance.textNode(new String(fill.bytes(), StandardCharsets.UTF_8));
      case BINARY -> JsonNodeFactory.instance.textNode(Base64.getEncoder().encodeToString(fill.bytes()));
      case FIXED -> numeric() != null ? numeric().fillToJson(fill)
          : JsonNodeFactory.instance.textNode(Base64.getEncoder().encodeToString(fill.bytes()));
    };
  }

  @Override
  public FillValue defaultFill() {
    Scalar scalar = scalar();
    if (memory.isNullable() || scalar == null) {
      return FillValue.NULL;
    }
    return switch (scalar) {
      case FIXED -> FillValue.of(new byte[fixedWidth()]);
      case BOOL -> FillValue.of(new byte[1]);
      case UTF8, BINARY -> FillValue.of(new byte[0]);
    };
  }

  private byte[] scalarBytes(FillValue fill) {
    Scalar scalar = scalar();
    if (scalar == null) {
      throw new IllegalArgumentException("an arrow field of type " + memory.getType() + " has no fill value but null, got " + fill);
    }
    byte[] bytes = fill.bytes();
    int expected = scalar == Scalar.FIXED ? fixedWidth() : scalar == Scalar.BOOL ? 1 : -1;
    if (expected >= 0 && bytes.length != expected) {
      throw new IllegalArgumentException("an arrow " + memory.getType() + " fill value has " + expected + " bytes, got " + fill);
    }
    return bytes;
  }

  @Override
  public FieldVector filled(BufferAllocator allocator, int count, FillValue fill) {
    if (fill.isNull()) {
      return Gather.blank(memory, count, allocator);
    }
    byte[] value = scalarBytes(fill);
    FieldVector out = Fields.createVector(memory, allocator);
    try {
      if (out instanceof BaseVariableWidthViewVector views) {
        views.allocateNew();
        for (int i = 0; i < count; i++) {
          views.setSafe(i, value);
        }
        views.setValueCount(count);
        return out;
      }
      ArrowBuf valid = allocator.buffer(BitVectorHelper.getValidityBufferSize(count));
      valid.setZero(0, valid.capacity());
      dev.zarrow.vector.Regions.setBits(valid, 0, count);
      List<ArrowBuf> buffers;
      if (out instanceof BitVector) {
        ArrowBuf bits = allocator.buffer(BitVectorHelper.getValidityBufferSize(count));
        bits.setZero(0, bits.capacity());
        if (value[0] != 0) {
          dev.zarrow.vector.Regions.setBits(bits, 0, count);
        }
        buffers = List.of(valid, bits);
      } else if (out instanceof BaseFixedWidthVector) {
        ArrowBuf data = allocator.buffer((long) count * value.length);
        Buffers.fill(data, 0, count, value);
        buffers = List.of(valid, data);
      } else {
        boolean large = out instanceof BaseLargeVariableWidthVector;
        long total = (long) count * value.length;
        if (!large && total > Integer.MAX_VALUE) {
          valid.close();
          throw new CodecException(count + " copies of a " + value.length + "-byte fill value exceed one "
              + memory.getType() + " vector");
        }
        ArrowBuf offsets = allocator.buffer((long) (count + 1) * (large ? 8 : 4));
        for (int i = 0; i <= count; i++) {
          if (large) {
            offsets.setLong((long) i * 8, (long) i * value.length);
          } else {
            offsets.setInt((long) i * 4, i * value.length);
          }
        }
        ArrowBuf data = allocator.buffer(total);
        Buffers.fill(data, 0, count, value);
        buffers = List.of(valid, offsets, data);
      }
      try {
        out.loadFieldBuffers(new ArrowFieldNode(count, 0), buffers);
      } finally {
        buffers.forEach(ArrowBuf::close);
      }
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public boolean isAllFill(FieldVector vector, FillValue fill) {
    int count = vector.getValueCount();
    if (fill.isNull()) {
      // A union's own null count is 0 (its members hold the nulls); every value of the null type is null.
      if (memory.isNullable() && !(memory.getType() instanceof ArrowType.Union) || memory.getType() instanceof ArrowType.Null) {
        return vector.getNullCount() == count;
      }
      try (BufferAllocator temp = Buffers.temporaryAllocator(Buffers.allocatorOf(vector, "isAllFill"), "arrow isAllFill");
          FieldVector blank = Gather.blank(memory, 1, temp)) {
        ValueEquals equal = new ValueEquals(vector, blank, (a, b) -> true);
        Range one = new Range(0, 0, 1);
        for (int i = 0; i < count; i++) {
          if (!equal.rangeEquals(one.setLeftStart(i))) {
            return false;
          }
        }
        return true;
      }
    }
    byte[] value = scalarBytes(fill);
    if (Buffers.hasNulls(vector)) {
      return false;
    }
    if (vector instanceof BitVector bits) {
      int want = value[0] != 0 ? 1 : 0;
      for (int i = 0; i < count; i++) {
        if (bits.get(i) != want) {
          return false;
        }
      }
      return true;
    }
    if (vector instanceof BaseFixedWidthVector) {
      return Buffers.allEqual(vector.getDataBuffer(), 0, count, value);
    }
    if (vector instanceof BaseVariableWidthVector v) {
      for (int i = 0; i < count; i++) {
        if (v.getValueLength(i) != value.length || !Arrays.equals(v.get(i), value)) {
          return false;
        }
      }
      return true;
    }
    if (vector instanceof BaseLargeVariableWidthVector v) {
      for (int i = 0; i < count; i++) {
        if (v.getValueLength(i) != value.length || !Arrays.equals(v.get(i), value)) {
          return false;
        }
      }
      return true;
    }
    if (vector instanceof BaseVariableWidthViewVector v) {
      for (int i = 0; i < count; i++) {
        if (v.getValueLength(i) != value.length || !Arrays.equals(v.get(i), value)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrowDataType t && t.configuration.equals(configuration);
  }

  @Override
  public int hashCode() {
    return configuration.hashCode();
  }

  @Override
  public String toString() {
    return "arrow<" + Json.compact(configuration.get("field")) + ">";
  }

  /** The factory of the {@code arrow} data type. */
  public static DataTypeFactory factory() {
    return new DataTypeFactory() {
      @Override
      public List<String> names() {
        return List.of(NAME);
      }

      @Override
      public DataType create(NamedConfig metadata) {
        return fromMetadata(metadata);
      }
    };
  }
}
