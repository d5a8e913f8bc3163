package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.internal.Utf8;
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
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
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
 * codec, see {@link #implicitSerializer()}).
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
      throw new CodecException("data type " + name + " has no null fill value");
    }
    JsonNodeFactory f = JsonNodeFactory.instance;
    return isText()
        ? f.textNode(new String(fill.raw(), StandardCharsets.UTF_8))
        : f.textNode(Base64.getEncoder().encodeToString(fill.raw()));
  }

  private MetadataException bad(JsonNode json, String expected) {
    return new MetadataException("/fill_value: data type " + name + " needs " + expected + ", got " + Json.kind(json));
  }

  // ---- memory ----

  /**
   * The offsets and data of a vector of this type. {@code offsets} holds {@code count + 1} native
   * (little-endian) offsets of {@link #offsetWidth()} bytes, or nothing when count is 0; element i is
   * the data bytes [offset(i), offset(i + 1)). A view: valid while the vector is open and unchanged.
   */
  public record Parts(ArrowBuf offsets, ArrowBuf data, int count, int offsetWidth) {
    /** Offset {@code i} (0 <= i <= count). */
    public long offset(int i) {
      if (count == 0) {
        return 0;
      }
      long at = offsets.memoryAddress() + (long) i * offsetWidth;
      return offsetWidth == 4 ? MemoryUtil.getInt(at) : MemoryUtil.getLong(at);
    }

    public long first() {
      return offset(0);
    }

    public long last() {
      return offset(count);
    }

    /** The bytes of all elements together: last - first. */
    public long dataLength() {
      return last() - first();
    }
  }

  /**
   * The parts of {@code vector} (borrowed) for writing. A vector of another type, or one holding nulls,
   * is a {@link CodecException}; nulls call for the {@code arrow} data type.
   */
  public Parts parts(FieldVector vector) {
    if (!vector.getField().getType().equals(arrowType)) {
      throw new CodecException(
          "data type " + name + " needs an Arrow " + arrowType + " vector, got " + vector.getField().getType());
    }
    if (vector.getNullCount() > 0) {
      throw new CodecException(
          "data type " + name + " cannot store nulls (" + vector.getNullCount() + " found); use the arrow data type "
              + "({\"name\": \"arrow\", ...}) for nullable " + (isText() ? "strings" : "binary values"));
    }
    int count = vector.getValueCount();
    ArrowBuf offsets = vector.getOffsetBuffer();
    if (count > 0 && offsets.capacity() < (long) (count + 1) * offsetWidth()) {
      throw new CodecException("a " + name + " vector of " + count + " elements has only " + offsets.capacity() + " bytes of offsets");
    }
    Parts parts = new Parts(offsets, vector.getDataBuffer(), count, offsetWidth());
    // Encoders read by address: a vector built from inconsistent buffers must not send them astray.
    String problem = count == 0 ? null : offsetsProblem(offsets.memoryAddress(), count, parts.data().capacity());
    if (problem != null) {
      throw new CodecException("a malformed " + name + " vector: " + problem);
    }
    return parts;
  }

  /**
   * A vector of {@code count} elements over {@code offsets} ({@code count + 1} little-endian offsets of
   * {@link #offsetWidth()} bytes) and {@code data}, after checking the offsets: the first is not
   * negative, none decreases, the last is within {@code dataLength} bytes of data (which must not exceed
   * {@code data}'s capacity). The vector shares both buffers (it takes its own references; the caller's
   * stay the caller's to close) and is owned by the caller. Bad offsets are a
   * {@link CorruptChunkException} naming the element.
   */
  public FieldVector fromBuffers(ArrowBuf offsets, ArrowBuf data, long dataLength, int count, BufferAllocator allocator) {
    if (offsets.capacity() < (long) (count + 1) * offsetWidth()) {
      throw new CorruptChunkException(name + ": " + offsets.capacity() + " bytes cannot hold the " + (count + 1) + " offsets of "
          + count + " elements");
    }
    checkOffsets(offsets.memoryAddress(), count, Math.min(dataLength, data.capacity()));
    return load(offsets, data, count, allocator);
  }

  /**
   * {@link #fromBuffers} for offsets the caller has just built itself from checked lengths, so that
   * they are known to start at 0 or more, never decrease and end within {@code data}: nothing is
   * checked again (a decoder that checks every length as it writes the offsets need not pay for a
   * second pass over them).
   */
  public FieldVector fromBuiltBuffers(ArrowBuf offsets, ArrowBuf data, int count, BufferAllocator allocator) {
    return load(offsets, data, count, allocator);
  }

  private FieldVector load(ArrowBuf offsets, ArrowBuf data, int count, BufferAllocator allocator) {
    FieldVector vector = field("").createVector(allocator);
    try {
      vector.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty(), offsets, data));
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** Checks {@code count + 1} offsets at {@code address} against {@code dataLength} bytes of data. */
  private void checkOffsets(long address, int count, long dataLength) {
    String problem = offsetsProblem(address, count, dataLength);
    if (problem != null) {
      throw new CorruptChunkException(name + ": " + problem);
    }
  }

  /** What is wrong with {@code count + 1} offsets at {@code address} over {@code dataLength} bytes, or null. */
  private String offsetsProblem(long address, int count, long dataLength) {
    String order = Buffers.offsetsOrderProblem(address, count, offsetWidth());
    if (order != null) {
      return order;
    }
    long last = Buffers.offsetAt(address, count, offsetWidth());
    if (last > dataLength) {
      return "the last offset (" + last + ") is past the end of the " + dataLength + " bytes of data";
    }
    return null;
  }

  /**
   * Checks that every element of {@code vector} (of this text type) is valid UTF-8; the first invalid
   * one is a {@link CorruptChunkException} naming it. ASCII data is checked eight bytes at a time.
   */
  public void checkUtf8(FieldVector vector) {
    int count = vector.getValueCount();
    if (count == 0) {
      return;
    }
    Parts parts = new Parts(vector.getOffsetBuffer(), vector.getDataBuffer(), count, offsetWidth());
    long first = parts.first();
    if (first < 0 || parts.last() < first || parts.last() > parts.data().capacity()) {
      throw new CorruptChunkException(name + ": offsets [" + first + ", " + parts.last() + "] outside the data");
    }
    long base = parts.data().memoryAddress();
    long result = Utf8.scan(base + first, parts.last() - first);
    if (result >= 0) {
      throw invalidUtf8(parts, first + result);
    }
    if (result == Utf8.VALID) {
      // The data as a whole is valid; each element is too unless one starts inside a character.
      for (int i = 1; i < count; i++) {
        long at = parts.offset(i);
        if (at < parts.last() && Utf8.isContinuationByte(base + at)) {
          throw invalidUtf8(parts, at - 1);
        }
      }
    }
  }

  private CorruptChunkException invalidUtf8(Parts parts, long position) {
    // The element holding the byte: the last one starting at or before it that is not empty.
    int lo = 0;
    int hi = parts.count() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (parts.offset(mid) <= position) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (lo > 0 && parts.offset(lo) == parts.offset(lo + 1)) {
      lo--;
    }
    return new CorruptChunkException(name + ": element " + lo + " is not valid UTF-8 (at data byte " + position
        + "); CodecOptions.withValidateUtf8(false) skips this check");
  }

  @Override
  public FieldVector filled(BufferAllocator allocator, int count, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null) {
      throw new CodecException("data type " + name + " has no null fill value");
    }
    long dataLength = (long) count * pattern.length;
    if (dataLength > maxDataBytes()) {
      throw tooLarge(dataLength);
    }
    int w = offsetWidth();
    try (ArrowBuf offsets = allocator.buffer((long) (count + 1) * w);
        ArrowBuf data = dataLength == 0 ? allocator.getEmpty() : allocator.buffer(dataLength)) {
      long address = offsets.memoryAddress();
      int len = pattern.length;
      if (len == 0) {
        offsets.setZero(0, offsets.capacity());
      } else if (w == 4) {
        for (int i = 0; i <= count; i++) {
          MemoryUtil.putInt(address + 4L * i, i * len);
        }
      } else {
        for (int i = 0; i <= count; i++) {
          MemoryUtil.putLong(address + 8L * i, (long) i * len);
        }
      }
      Buffers.fill(data, 0, count, pattern);
      return fromBuffers(offsets, data, dataLength, count, allocator);
    }
  }

  @Override
  public boolean isAllFill(FieldVector vector, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null || vector.getNullCount() > 0 || !vector.getField().getType().equals(arrowType)) {
      return false;
    }
    int count = vector.getValueCount();
    if (count == 0) {
      return true;
    }
    Parts parts = new Parts(vector.getOffsetBuffer(), vector.getDataBuffer(), count, offsetWidth());
    long first = parts.first();
    int len = pattern.length;
    if (parts.last() - first != (long) count * len) {
      return false;
    }
    if (len == 0) {
      return true; // no data at all: every element is empty
    }
    long address = parts.offsets().memoryAddress();
    if (offsetWidth() == 4) {
      for (int i = 1; i < count; i++) {
        if (MemoryUtil.getInt(address + 4L * i) - first != (long) i * len) {
          return false;
        }
      }
    } else {
      for (int i = 1; i < count; i++) {
        if (MemoryUtil.getLong(address + 8L * i) - first != (long) i * len) {
          return false;
        }
      }
    }
    return Buffers.allEqual(parts.data(), first, count, pattern);
  }

  /** The refusal of a chunk whose data exceeds what this type's offsets address. */
  public CodecException tooLarge(long dataLength) {
    return new CodecException("data type " + name + ": a chunk of " + dataLength + " data bytes exceeds the 2 GiB that int32 "
        + "offsets address; use " + (isText() ? "large_string" : "large_binary") + " (int64 offsets) or smaller chunks");
  }

  // ---- convenience ----

  /** A vector of this text type holding {@code values} as UTF-8, owned by the caller. Nulls are refused. */
  public FieldVector vector(BufferAllocator allocator, String... values) {
    if (!isText()) {
      throw new CodecException("data type " + name + " holds bytes, not strings: pass byte arrays");
    }
    byte[][] utf8 = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw new CodecException("element " + i + " is null: data type " + name + " cannot store nulls; use the arrow data type");
      }
      utf8[i] = values[i].getBytes(StandardCharsets.UTF_8);
    }
    return build(allocator, utf8);
  }

  /** A vector of this type holding {@code values} (UTF-8 for the text types, unchecked), owned by the caller. */
  public FieldVector vector(BufferAllocator allocator, byte[]... values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw new CodecException("element " + i + " is null: data type " + name + " cannot store nulls; use the arrow data type");
      }
    }
    return build(allocator, values);
  }

  private FieldVector build(BufferAllocator allocator, byte[][] values) {
    long total = 0;
    for (byte[] v : values) {
      total += v.length;
    }
    if (total > maxDataBytes()) {
      throw tooLarge(total);
    }
    int count = values.length;
    try (ArrowBuf offsets = allocator.buffer((long) (count + 1) * offsetWidth());
        ArrowBuf data = total == 0 ? allocator.getEmpty() : allocator.buffer(total)) {
      long at = 0;
      for (int i = 0; i < count; i++) {
        putOffset(offsets, i, at);
        data.setBytes(at, values[i]);
        at += values[i].length;
      }
      putOffset(offsets, count, at);
      return fromBuffers(offsets, data, total, count, allocator);
    }
  }

  private void putOffset(ArrowBuf offsets, int i, long value) {
    if (offsetWidth() == 4) {
      offsets.setInt(4L * i, (int) value);
    } else {
      offsets.setLong(8L * i, value);
    }
  }

  /** The elements of {@code vector} (of a text type) as Java strings. */
  public static String[] strings(FieldVector vector) {
    byte[][] raw = byteArrays(vector);
    String[] out = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      out[i] = raw[i] == null ? null : new String(raw[i], StandardCharsets.UTF_8);
    }
    return out;
  }

  /** The elements of a variable-length {@code vector} (borrowed) as byte arrays (null for null elements). */
  public static byte[][] byteArrays(FieldVector vector) {
    int count = vector.getValueCount();
    ArrowType type = vector.getField().getType();
    int width = type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.LargeBinary ? 8 : 4;
    Parts parts = new Parts(vector.getOffsetBuffer(), vector.getDataBuffer(), count, width);
    byte[][] out = new byte[count][];
    for (int i = 0; i < count; i++) {
      if (!vector.isNull(i)) {
        long start = parts.offset(i);
        out[i] = new byte[Math.toIntExact(parts.offset(i + 1) - start)];
        parts.data().getBytes(start, out[i]);
      }
    }
    return out;
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
