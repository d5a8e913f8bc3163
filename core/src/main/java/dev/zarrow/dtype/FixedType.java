package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The core fixed-size data types of Zarr v3 and their Arrow form: {@code bool} -> Bool,
 * {@code int8..int64} -> Int, {@code uint8..uint64} -> UInt, {@code float16/32/64} -> FloatingPoint,
 * {@code complex64/128} -> FixedSizeList&lt;float32|float64&gt;[2], {@code r<N>} -> FixedSizeBinary(N/8).
 */
public final class FixedType implements FixedWidthType {

  /** The family of a core type. */
  public enum Kind { BOOL, INT, UINT, FLOAT, COMPLEX, RAW }

  public static final FixedType BOOL = new FixedType("bool", Kind.BOOL, 1);
  public static final FixedType INT8 = new FixedType("int8", Kind.INT, 1);
  public static final FixedType INT16 = new FixedType("int16", Kind.INT, 2);
  public static final FixedType INT32 = new FixedType("int32", Kind.INT, 4);
  public static final FixedType INT64 = new FixedType("int64", Kind.INT, 8);
  public static final FixedType UINT8 = new FixedType("uint8", Kind.UINT, 1);
  public static final FixedType UINT16 = new FixedType("uint16", Kind.UINT, 2);
  public static final FixedType UINT32 = new FixedType("uint32", Kind.UINT, 4);
  public static final FixedType UINT64 = new FixedType("uint64", Kind.UINT, 8);
  public static final FixedType FLOAT16 = new FixedType("float16", Kind.FLOAT, 2);
  public static final FixedType FLOAT32 = new FixedType("float32", Kind.FLOAT, 4);
  public static final FixedType FLOAT64 = new FixedType("float64", Kind.FLOAT, 8);
  public static final FixedType COMPLEX64 = new FixedType("complex64", Kind.COMPLEX, 8);
  public static final FixedType COMPLEX128 = new FixedType("complex128", Kind.COMPLEX, 16);

  /** Every named core type (raw bits {@code r<N>} are made on demand by {@link #raw}). */
  public static final List<FixedType> CORE =
      List.of(BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FLOAT16, FLOAT32, FLOAT64,
          COMPLEX64, COMPLEX128);

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private final String name;
  private final Kind kind;
  private final int width;

  private FixedType(String name, Kind kind, int width) {
    this.name = name;
    this.kind = kind;
    this.width = width;
  }

  /** The raw-bits type {@code r<bits>}; bits must be a positive multiple of 8. */
  public static FixedType raw(int bits) {
    if (bits <= 0 || bits % 8 != 0 || bits > (1 << 20)) {
      throw new MetadataException("raw bits data type r" + bits + ": the size must be a positive multiple of 8");
    }
    return new FixedType("r" + bits, Kind.RAW, bits / 8);
  }

  /** The core type named {@code name} (including {@code r<N>}), or empty. */
  public static Optional<FixedType> named(String name) {
    for (FixedType t : CORE) {
      if (t.name.equals(name)) {
        return Optional.of(t);
      }
    }
    if (name.matches("r[1-9][0-9]{0,7}")) {
      return Optional.of(raw(Integer.parseInt(name.substring(1))));
    }
    return Optional.empty();
  }

  public Kind kind() {
    return kind;
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
  public int byteWidth() {
    return width;
  }

  @Override
  public int swapUnit() {
    return switch (kind) {
      case BOOL, RAW -> 1;
      case COMPLEX -> width / 2;
      default -> width;
    };
  }

  @Override
  public boolean bytesAreArrowData() {
    return kind != Kind.BOOL;
  }

  @Override
  public Field field(String fieldName) {
    FieldType nonNull = FieldType.notNullable(arrowType());
    if (kind == Kind.COMPLEX) {
      Field part = new Field("item", FieldType.notNullable(floatType(width / 2)), null);
      return new Field(fieldName, nonNull, List.of(part));
    }
    return new Field(fieldName, nonNull, null);
  }

  private ArrowType arrowType() {
    return switch (kind) {
      case BOOL -> ArrowType.Bool.INSTANCE;
      case INT -> new ArrowType.Int(width * 8, true);
      case UINT -> new ArrowType.Int(width * 8, false);
      case FLOAT -> floatType(width);
      case COMPLEX -> new ArrowType.FixedSizeList(2);
      case RAW -> new ArrowType.FixedSizeBinary(width);
    };
  }

  private static ArrowType floatType(int bytes) {
    return new ArrowType.FloatingPoint(
        switch (bytes) {
          case 2 -> FloatingPointPrecision.HALF;
          case 4 -> FloatingPointPrecision.SINGLE;
          default -> FloatingPointPrecision.DOUBLE;
        });
  }

  @Override
  public Optional<NamedConfig> defaultSerializer() {
    return Optional.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little")));
  }

  // ---- memory ----

  @Override
  public FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator) {
    FixedChecks.holds(name, data, count, width);
    FieldVector vector = field("").createVector(allocator);
    try {
      switch (kind) {
        case BOOL -> {
          BitVector bits = (BitVector) vector;
          bits.allocateNew(count); // zeroed
          Buffers.packBooleans(data.memoryAddress(), count, bits.getDataBufferAddress());
          bits.getValidityBuffer().setOne(0, (count + 7) / 8);
          bits.setValueCount(count);
        }
        case COMPLEX -> {
          FixedSizeListVector list = (FixedSizeListVector) vector;
          list.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty()));
          ((FieldVector) list.getDataVector())
              .loadFieldBuffers(new ArrowFieldNode(2L * count, 0), List.of(allocator.getEmpty(), data));
        }
        default -> {
          try (ArrowBuf valid = Buffers.allValid(count, allocator)) {
            vector.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(valid, data));
          }
        }
      }
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    checkVector(vector);
    int count = vector.getValueCount();
    if (kind == Kind.BOOL) {
      BitVector bits = (BitVector) vector;
      ByteBuffer out = ByteBuffer.allocateDirect(count);
      if (count > 0) {
        Buffers.unpackBooleans(bits.getDataBufferAddress(), count, MemoryUtil.getByteBufferAddress(out));
      }
      return out;
    }
    ArrowBuf data =
        kind == Kind.COMPLEX
            ? ((FixedSizeListVector) vector).getDataVector().getDataBuffer()
            : vector.getDataBuffer();
    return Buffers.readOnlyView(data, 0, (long) count * width);
  }

  private void checkVector(FieldVector vector) {
    FixedChecks.arrowType(name, arrowType(), vector);
    if (Buffers.hasNulls(vector)) {
      throw new IllegalArgumentException(
          "data type " + name + " cannot store nulls (" + vector.getNullCount()
              + " found); use the arrow data type for nullable data");
    }
    if (kind == Kind.COMPLEX) {
      FixedSizeListVector list = (FixedSizeListVector) vector;
      ArrowType parts = list.getDataVector().getField().getType();
      if (!parts.equals(floatType(width / 2))) {
        throw new IllegalArgumentException("data type " + name + " needs parts of Arrow " + floatType(width / 2) + ", got " + parts);
      }
      if (Buffers.hasNulls(list.getDataVector())) {
        throw new IllegalArgumentException("data type " + name + " cannot store null parts");
      }
    }
  }

  @Override
  public FieldVector filled(BufferAllocator allocator, int count, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null || pattern.length != width) {
      throw new IllegalArgumentException("data type " + name + " needs a fill value of " + width + " bytes, got " + fill);
    }
    try (ArrowBuf data = allocator.buffer((long) count * width)) {
      Buffers.fill(data, 0, count, pattern);
      return fromBytes(data, count, allocator);
    }
  }

  @Override
  public boolean isAllFill(FieldVector vector, FillValue fill) {
    byte[] pattern = fill.raw();
    if (pattern == null || Buffers.hasNulls(vector)) {
      return false;
    }
    int count = vector.getValueCount();
    return switch (kind) {
      case BOOL -> {
        BitVector bits = (BitVector) vector;
        int want = pattern[0] != 0 ? 1 : 0;
        for (int i = 0; i < count; i++) {
          if (bits.get(i) != want) {
            yield false;
          }
        }
        yield true;
      }
      case COMPLEX -> Buffers.allEqual(((FixedSizeListVector) vector).getDataVector().getDataBuffer(), 0, count, pattern);
      default -> Buffers.allEqual(vector.getDataBuffer(), 0, count, pattern);
    };
  }

  // ---- fill values ----

  @Override
  public FillValue defaultFill() {
    return FillValue.of(new byte[width]);
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    ByteBuffer out = ByteBuffer.allocate(width).order(ByteOrder.LITTLE_ENDIAN);
    switch (kind) {
      case BOOL -> {
        if (!json.isBoolean()) {
          throw bad(json, "true or false");
        }
        out.put((byte) (json.booleanValue() ? 1 : 0));
      }
      case INT, UINT -> putInteger(out, integer(json));
      case FLOAT -> putFloat(out, json, width);
      case COMPLEX -> {
        if (!json.isArray() || json.size() != 2) {
          throw bad(json, "[real, imaginary]");
        }
        putFloat(out, json.get(0), width / 2);
        putFloat(out, json.get(1), width / 2);
      }
      case RAW -> {
        if (!json.isArray() || json.size() != width) {
          throw bad(json, "an array of " + width + " byte values");
        }
        for (JsonNode b : json) {
          if (!b.isIntegralNumber() || b.asLong() < 0 || b.asLong() > 255) {
            throw bad(json, "an array of " + width + " integers 0..255");
          }
          out.put((byte) b.asInt());
        }
      }
    }
    return FillValue.of(out.array());
  }

  private BigInteger integer(JsonNode json) {
    BigInteger value;
    if (json.isIntegralNumber()) {
      value = json.bigIntegerValue();
    } else if (json.isFloatingPointNumber()
        && Double.isFinite(json.doubleValue()) // 1e400 reads as infinity, which has no decimal value
        && json.decimalValue().stripTrailingZeros().scale() <= 0) {
      value = json.decimalValue().toBigIntegerExact(); // 1.0 is 1: some writers print integers that way
    } else {
      throw bad(json, "an integer");
    }
    BigInteger min = kind == Kind.INT ? BigInteger.ONE.shiftLeft(width * 8 - 1).negate() : BigInteger.ZERO;
    BigInteger max =
        kind == Kind.INT
            ? BigInteger.ONE.shiftLeft(width * 8 - 1).subtract(BigInteger.ONE)
            : BigInteger.ONE.shiftLeft(width * 8).subtract(BigInteger.ONE);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw bad(json, "an integer in [" + min + ", " + max + "]");
    }
    return value;
  }

  private static void putInteger(ByteBuffer out, BigInteger value) {
    long bits = value.longValue(); // two's complement low 64 bits, also right for uint64
    for (int i = 0; i < out.capacity(); i++) {
      out.put((byte) (bits >>> (8 * i)));
    }
  }

  private void putFloat(ByteBuffer out, JsonNode json, int bytes) {
    if (json.isTextual() && json.textValue().startsWith("0x")) {
      String hex = json.textValue().substring(2);
      if (hex.length() != bytes * 2 || !hex.matches("[0-9a-fA-F]+")) {
        throw bad(json, "a hex string of " + bytes + " bytes");
      }
      long bits = Long.parseUnsignedLong(hex, 16);
      for (int i = 0; i < bytes; i++) {
        out.put((byte) (bits >>> (8 * i)));
      }
      return;
    }
    double value;
    if (json.isNumber()) {
      value = json.doubleValue();
    } else if (json.isTextual()) {
      value =
          switch (json.textValue()) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> throw bad(json, "a number, \"NaN\", \"Infinity\", \"-Infinity\" or a hex string");
          };
    } else {
      throw bad(json, "a number, \"NaN\", \"Infinity\", \"-Infinity\" or a hex string");
    }
    switch (bytes) {
      case 2 -> out.putShort(Float16.toFloat16((float) value));
      case 4 -> out.putFloat((float) value);
      default -> out.putDouble(value);
    }
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (fill.isNull()) {
      throw new IllegalArgumentException("data type " + name + " has no null fill value");
    }
    ByteBuffer in = ByteBuffer.wrap(fill.raw()).order(ByteOrder.LITTLE_ENDIAN);
    return switch (kind) {
      case BOOL -> f.booleanNode(in.get(0) != 0);
      case INT -> f.numberNode(signed(in));
      case UINT -> {
        long bits = signed(in);
        yield width == 8 && bits < 0 ? f.numberNode(BigInteger.valueOf(bits).add(TWO_64)) : f.numberNode(unsigned(in));
      }
      case FLOAT -> floatJson(in, 0, width);
      case COMPLEX -> {
        ArrayNode pair = f.arrayNode();
        pair.add(floatJson(in, 0, width / 2));
        pair.add(floatJson(in, width / 2, width / 2));
        yield pair;
      }
      case RAW -> {
        ArrayNode bytes = f.arrayNode();
        for (byte b : fill.raw()) {
          bytes.add(b & 0xff);
        }
        yield bytes;
      }
    };
  }

  private long signed(ByteBuffer in) {
    return switch (width) {
      case 1 -> in.get(0);
      case 2 -> in.getShort(0);
      case 4 -> in.getInt(0);
      default -> in.getLong(0);
    };
  }

  private long unsigned(ByteBuffer in) {
    return switch (width) {
      case 1 -> in.get(0) & 0xffL;
      case 2 -> in.getShort(0) & 0xffffL;
      case 4 -> in.getInt(0) & 0xffffffffL;
      default -> in.getLong(0);
    };
  }

  /** NaN with the canonical payload is "NaN"; any other NaN keeps its bits as a hex string. */
  private static JsonNode floatJson(ByteBuffer in, int offset, int bytes) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    double value;
    long bits;
    long canonicalNan;
    switch (bytes) {
      case 2 -> {
        short raw = in.getShort(offset);
        bits = raw & 0xffffL;
        value = Float16.toFloat(raw);
        canonicalNan = 0x7e00L;
      }
      case 4 -> {
        bits = in.getInt(offset) & 0xffffffffL;
        value = Float.intBitsToFloat((int) bits);
        canonicalNan = 0x7fc00000L;
      }
      default -> {
        bits = in.getLong(offset);
        value = Double.longBitsToDouble(bits);
        canonicalNan = 0x7ff8000000000000L;
      }
    }
    if (Double.isNaN(value)) {
      return bits == canonicalNan ? f.textNode("NaN") : f.textNode(String.format("0x%0" + (bytes * 2) + "x", bits));
    }
    if (Double.isInfinite(value)) {
      return f.textNode(value > 0 ? "Infinity" : "-Infinity");
    }
    if (bytes == 4) {
      return f.numberNode(Float.intBitsToFloat((int) bits)); // prints the shortest float text
    }
    return f.numberNode(value);
  }

  private MetadataException bad(JsonNode json, String expected) {
    return new MetadataException("/fill_value: data type " + name + " needs " + expected + ", got " + Json.kind(json));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FixedType t && t.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }

  /** The factory of every core type, registered by the core plugin. */
  public static DataTypeFactory factory() {
    return new DataTypeFactory() {
      @Override
      public List<String> names() {
        List<String> names = new ArrayList<>();
        CORE.forEach(t -> names.add(t.name));
        names.add("r*");
        return names;
      }

      @Override
      public DataType create(NamedConfig metadata) {
        return named(metadata.name())
            .orElseThrow(() -> new MetadataException("/data_type: unknown core type " + metadata.name()));
      }
    };
  }
}
