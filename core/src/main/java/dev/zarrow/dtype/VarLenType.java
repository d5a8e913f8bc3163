package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.VlenBuffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The variable-length data types and their Arrow form: {@code string} -> Utf8 ({@code VarCharVector}),
 * {@code bytes} (also read as {@code binary}, ZEP7's name, and {@code variable_length_bytes},
 * zarr-python's) -> Binary ({@code VarBinaryVector}), {@code large_string} -> LargeUtf8 and
 * {@code large_binary} -> LargeBinary (int64 offsets). Elements are never null: nullable data is the
 * {@code arrow} data type's job.
 *
 * <p>The data type does not decide the chunk layout; the codec list does ({@code vlen-utf8},
 * {@code vlen-bytes}, {@code zarrs.vlen}, or ZEP7's offsets+data when the list has no array->bytes
 * codec, see {@link #implicitSerializer()}). Nor does it assemble vectors: their offsets and data are
 * {@link VlenBuffers}' job, which the layouts share.
 *
 * <p>Fill values (zarr-extensions data-types/string and bytes): strings are JSON strings; bytes are read
 * as base64 strings or arrays of integers 0..255 and written as base64.
 */
public final class VarLenType implements DataType {

  /** The four variable-length types. */
  public enum Kind { STRING, BYTES, LARGE_STRING, LARGE_BINARY }

  public static final VarLenType STRING = new VarLenType(Kind.STRING, "string", ArrowType.Utf8.INSTANCE);
  public static final VarLenType BYTES = new VarLenType(Kind.BYTES, "bytes", ArrowType.Binary.INSTANCE);
  public static final VarLenType LARGE_STRING =
      new VarLenType(Kind.LARGE_STRING, "large_string", ArrowType.LargeUtf8.INSTANCE);
  public static final VarLenType LARGE_BINARY =
      new VarLenType(Kind.LARGE_BINARY, "large_binary", ArrowType.LargeBinary.INSTANCE);

  public static final List<VarLenType> ALL = List.of(STRING, BYTES, LARGE_STRING, LARGE_BINARY);

  private final Kind kind;
  private final String name;
  private final ArrowType arrowType;

  private VarLenType(Kind kind, String name, ArrowType arrowType) {
    this.kind = kind;
    this.name = name;
    this.arrowType = arrowType;
  }

  /** The type with the registered name or alias {@code name}, or empty. */
  public static Optional<VarLenType> named(String name) {
    return switch (name) {
      case "string" -> Optional.of(STRING);
      case "bytes", "binary", "variable_length_bytes" -> Optional.of(BYTES);
      case "large_string" -> Optional.of(LARGE_STRING);
      case "large_binary" -> Optional.of(LARGE_BINARY);
      default -> Optional.empty();
    };
  }

  public Kind kind() {
    return kind;
  }

  /** True for the UTF-8 types, whose data is validated on read. */
  public boolean isText() {
    return kind == Kind.STRING || kind == Kind.LARGE_STRING;
  }

  /** True for the types with int64 offsets. */
  public boolean isLarge() {
    return kind == Kind.LARGE_STRING || kind == Kind.LARGE_BINARY;
  }

  /** Bytes per offset in Arrow (and ZEP7): 4, or 8 for the large types. */
  public int offsetWidth() {
    return isLarge() ? 8 : 4;
  }

  /** The most data bytes one chunk (one vector) of this type holds. */
  public long maxDataBytes() {
    return isLarge() ? Long.MAX_VALUE : Integer.MAX_VALUE;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.plain(name);
  }

  @Override
  public Field field(String fieldName) {
    return new Field(fieldName, FieldType.notNullable(arrowType), null);
  }

  /**
   * The registered name of the ZEP7 layout's codec: (n+1) offsets, zero padding to a multiple of 64
   * bytes, then the data. ZEP7 gives the layout no name in a codec list (the list simply has no
   * array->bytes codec); this name, in zarrow's namespace, is how the pipeline finds its codec.
   */
  public static final String ZEP7_CODEC = "zarrow.zep7";

  /** ZEP7: a codec list without an array->bytes codec means {@link #ZEP7_CODEC}. */
  @Override
  public Optional<NamedConfig> implicitSerializer() {
    return Optional.of(NamedConfig.plain(ZEP7_CODEC));
  }

  /**
   * {@code vlen-utf8} for {@code string} and {@code vlen-bytes} for {@code bytes} (what zarr-python,
   * zarrs, zarrita and GDAL read); none, i.e. ZEP7, for the large types.
   */
  @Override
  public Optional<NamedConfig> defaultSerializer() {
    return switch (kind) {
      case STRING -> Optional.of(NamedConfig.of("vlen-utf8", JsonNodeFactory.instance.objectNode()));
      case BYTES -> Optional.of(NamedConfig.of("vlen-bytes", JsonNodeFactory.instance.objectNode()));
      default -> Optional.empty();
    };
  }

  // ---- fill values ----

  @Override
  public FillValue defaultFill() {
    return FillValue.of(new byte[0]);
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (isText()) {
      if (!json.isTextual()) {
        throw bad(json, "a string");
      }
      try {
        ByteBuffer utf8 = StandardCharsets.UTF_8.newEncoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .encode(CharBuffer.wrap(json.textValue()));
        byte[] out = new byte[utf8.remaining()];
        utf8.get(out);
        return FillValue.of(out);
      } catch (CharacterCodingException e) {
        throw bad(json, "a string of Unicode characters (it holds an unpaired surrogate)");
      }
    }
    if (json.isTextual()) {
      try {
        return FillValue.of(Base64.getDecoder().decode(json.textValue()));
      } catch (IllegalArgumentException e) {
        throw bad(json, "base64 text or an array of integers 0..255 (" + e.getMessage() + ")");
      }
    }
    if (json.isArray()) {
      byte[] out = new byte[json.size()];
      for (int i = 0; i < out.length; i++) {
        JsonNode b = json.get(i);
        if (!b.isIntegralNumber() || b.asLong() < 0 || b.asLong() > 255) {
          throw bad(json, "base64 text or an array of integers 0..255");
        }
        out[i] = (byte) b.asInt();
      }
      return FillValue.of(out);
    }
    throw bad(json, "base64 text or an array of integers 0..255");
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    if (fill.isNull()) {
      throw new IllegalArgumentException("data type " + name + " has no null fill value");
    }
    JsonNodeFactory f = JsonNodeFactory.instance;
    return isText()
        ? f.textNode(new String(fill.raw(), StandardCharsets.UTF_8))
        : f.textNode(Base64.getEncoder().encodeToString(fill.raw()));
  }

  private MetadataException bad(JsonNode json, String expected) {
    return new MetadataException("/fill_value: data type " + name + " needs " + expected + ", got " + Json.kind(json));
  }

  // ---- memory (the buffers themselves: VlenBuffers) ----

  @Override
  public FieldVector filled(BufferAllocator allocator, int count, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null) {
      throw new IllegalArgumentException("data type " + name + " has no null fill value");
    }
    long dataLength = (long) count * pattern.length;
    if (dataLength > maxDataBytes()) {
      throw tooLarge(dataLength);
    }
    int w = offsetWidth();
    try (ArrowBuf offsets = allocator.buffer((long) (count + 1) * w);
        ArrowBuf data = dataLength == 0 ? allocator.getEmpty() : allocator.buffer(dataLength)) {
      VlenBuffers.putEvenOffsets(offsets.memoryAddress(), count, pattern.length, w);
      Buffers.fill(data, 0, count, pattern);
      return VlenBuffers.fromBuiltBuffers(field(""), offsets, data, count, allocator);
    }
  }

  @Override
  public boolean isAllFill(FieldVector vector, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null || Buffers.hasNulls(vector) || !vector.getField().getType().equals(arrowType)) {
      return false;
    }
    int count = vector.getValueCount();
    if (count == 0) {
      return true;
    }
    VlenBuffers.Parts parts = VlenBuffers.parts(vector);
    long first = parts.first();
    int len = pattern.length;
    if (parts.last() - first != (long) count * len) {
      return false;
    }
    if (len == 0) {
      return true; // no data at all: every element is empty
    }
    for (int i = 1; i < count; i++) {
      if (parts.offset(i) - first != (long) i * len) {
        return false;
      }
    }
    return Buffers.allEqual(parts.data(), first, count, pattern);
  }

  /** The refusal of a chunk whose data exceeds what this type's offsets address. */
  public CodecException tooLarge(long dataLength) {
    return new CodecException("data type " + name + ": a chunk of " + dataLength + " data bytes exceeds the 2 GiB that int32 "
        + "offsets address; use " + (isText() ? "large_string" : "large_binary") + " (int64 offsets) or smaller chunks");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VarLenType t && t.kind == kind;
  }

  @Override
  public int hashCode() {
    return kind.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }

  /** The factory of the four types (and the aliases {@code binary} and {@code variable_length_bytes}). */
  public static DataTypeFactory factory() {
    return new DataTypeFactory() {
      @Override
      public List<String> names() {
        return List.of("string", "bytes", "binary", "variable_length_bytes", "large_string", "large_binary");
      }

      @Override
      public DataType create(NamedConfig metadata) {
        VarLenType type = named(metadata.name())
            .orElseThrow(() -> new MetadataException("/data_type: unknown variable-length type " + metadata.name()));
        if (!metadata.config().isEmpty()) {
          throw new MetadataException("/data_type/configuration: data type " + metadata.name() + " takes no options");
        }
        return type;
      }
    };
  }
}
