package dev.zarrow.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.testing.PeerValues;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Arrow vectors in the node peers' value form (src/test/node/README.md, "Value conventions"), and
 * vectors of deterministic-but-nasty values to write. Independent of zarrow: it reads and sets vectors
 * through Arrow Java's own typed accessors.
 */
final class PeerVectors {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private PeerVectors() {}

  /** Every element of {@code v} in the peers' form. */
  static ArrayNode values(FieldVector v) {
    ArrayNode out = NODES.arrayNode(v.getValueCount());
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(value(v, i));
    }
    return out;
  }

  /** Element {@code i} of {@code v} in the peers' form; a type without one is an AssertionError. */
  static JsonNode value(FieldVector v, int i) {
    if (v.isNull(i)) {
      return NullNode.getInstance();
    }
    ArrowType type = v.getField().getType();
    return switch (type.getTypeID()) {
      case Bool -> BooleanNode.valueOf(((BitVector) v).get(i) != 0);
      case Int -> intValue(v, i);
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) type).getPrecision()) {
        case HALF -> PeerValues.ofDouble(((Float2Vector) v).getValueAsDouble(i));
        case SINGLE -> PeerValues.ofDouble(((Float4Vector) v).get(i));
        case DOUBLE -> PeerValues.ofDouble(((Float8Vector) v).get(i));
      };
      case Utf8, LargeUtf8, Utf8View -> NODES.textNode(v.getObject(i).toString());
      case Binary, LargeBinary, BinaryView, FixedSizeBinary -> PeerValues.ofBytes((byte[]) v.getObject(i));
      case FixedSizeList -> {
        FixedSizeListVector list = (FixedSizeListVector) v;
        FieldVector items = (FieldVector) list.getDataVector();
        int n = list.getListSize();
        ArrayNode out = NODES.arrayNode(n);
        for (int k = 0; k < n; k++) {
          out.add(value(items, i * n + k));
        }
        yield out;
      }
      default -> throw new AssertionError("no peer form for Arrow " + type + " (" + v.getClass().getSimpleName() + ")");
    };
  }

  private static JsonNode intValue(FieldVector v, int i) {
    if (v instanceof TinyIntVector x) {
      return PeerValues.ofInt(x.get(i));
    }
    if (v instanceof SmallIntVector x) {
      return PeerValues.ofInt(x.get(i));
    }
    if (v instanceof IntVector x) {
      return PeerValues.ofInt(x.get(i));
    }
    if (v instanceof BigIntVector x) {
      return PeerValues.ofInt64(x.get(i));
    }
    if (v instanceof UInt1Vector x) {
      return PeerValues.ofInt(Byte.toUnsignedInt(x.get(i)));
    }
    if (v instanceof UInt2Vector x) {
      return PeerValues.ofInt(x.get(i)); // a char: already unsigned
    }
    if (v instanceof UInt4Vector x) {
      return PeerValues.ofInt(Integer.toUnsignedLong(x.get(i)));
    }
    if (v instanceof UInt8Vector x) {
      return PeerValues.ofUint64(x.get(i));
    }
    throw new AssertionError("no peer form for " + v.getClass().getSimpleName());
  }

  /**
   * A vector of {@code n} values of core type {@code type} (bool, integers, float32/64): about a
   * quarter are the type's extremes and specials (min, max, 0, -1, NaN, infinities, -0.0,
   * subnormals), the rest random bit patterns (so float NaNs with payloads occur too).
   */
  static FieldVector generate(FixedType type, int n, Random random, BufferAllocator allocator) {
    FieldVector v = type.field("data").createVector(allocator);
    try {
      v.setInitialCapacity(n);
      v.allocateNew();
      for (int i = 0; i < n; i++) {
        boolean special = random.nextInt(4) == 0;
        long bits = random.nextLong();
        switch (type.name()) {
          case "bool" -> ((BitVector) v).set(i, random.nextBoolean() ? 1 : 0);
          case "int8" -> ((TinyIntVector) v).set(i, (byte) (special ? pick(random, Byte.MIN_VALUE, Byte.MAX_VALUE, 0, -1) : bits));
          case "int16" -> ((SmallIntVector) v).set(i, (short) (special ? pick(random, Short.MIN_VALUE, Short.MAX_VALUE, 0, -1) : bits));
          case "int32" -> ((IntVector) v).set(i, (int) (special ? pick(random, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1) : bits));
          case "int64" -> ((BigIntVector) v).set(i, special ? pick(random, Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1L << 53, (1L << 53) + 1) : bits);
          case "uint8" -> ((UInt1Vector) v).set(i, (int) (special ? pick(random, 0, 0xff, 0x80) : bits & 0xff));
          case "uint16" -> ((UInt2Vector) v).set(i, (int) (special ? pick(random, 0, 0xffff, 0x8000) : bits & 0xffff));
          case "uint32" -> ((UInt4Vector) v).set(i, (int) (special ? pick(random, 0, 0xffffffffL, 0x80000000L) : bits));
          case "uint64" -> ((UInt8Vector) v).set(i, special ? pick(random, 0, -1L, Long.MIN_VALUE, (1L << 53) + 1) : bits);
          case "float32" -> ((Float4Vector) v).set(i, special
              ? (float) pickDouble(random, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0,
                  Float.MAX_VALUE, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 0.1f)
              : Float.intBitsToFloat((int) bits));
          case "float64" -> ((Float8Vector) v).set(i, special
              ? pickDouble(random, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0,
                  Double.MAX_VALUE, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, 0.1)
              : Double.longBitsToDouble(bits));
          default -> throw new AssertionError("no generator for " + type);
        }
      }
      v.setValueCount(n);
      return v;
    } catch (RuntimeException | Error e) {
      v.close();
      throw e;
    }
  }

  /** A vector of {@code n} elements all equal to {@code value} (in the peers' form). */
  static FieldVector constant(FixedType type, int n, JsonNode value, BufferAllocator allocator) {
    FieldVector v = type.field("data").createVector(allocator);
    try {
      v.setInitialCapacity(n);
      v.allocateNew();
      for (int i = 0; i < n; i++) {
        switch (type.name()) {
          case "bool" -> ((BitVector) v).set(i, value.booleanValue() ? 1 : 0);
          case "int8" -> ((TinyIntVector) v).set(i, (byte) value.asLong());
          case "int16" -> ((SmallIntVector) v).set(i, (short) value.asLong());
          case "int32" -> ((IntVector) v).set(i, (int) value.asLong());
          case "int64" -> ((BigIntVector) v).set(i, Long.parseLong(value.asText()));
          case "uint8" -> ((UInt1Vector) v).set(i, (int) value.asLong());
          case "uint16" -> ((UInt2Vector) v).set(i, (int) value.asLong());
          case "uint32" -> ((UInt4Vector) v).set(i, (int) value.asLong());
          case "uint64" -> ((UInt8Vector) v).set(i, Long.parseUnsignedLong(value.asText()));
          case "float32" -> ((Float4Vector) v).set(i, (float) peerDouble(value));
          case "float64" -> ((Float8Vector) v).set(i, peerDouble(value));
          default -> throw new AssertionError("no constant for " + type);
        }
      }
      v.setValueCount(n);
      return v;
    } catch (RuntimeException | Error e) {
      v.close();
      throw e;
    }
  }

  private static double peerDouble(JsonNode value) {
    if (value.isTextual()) {
      return switch (value.textValue()) {
        case "NaN" -> Double.NaN;
        case "Infinity" -> Double.POSITIVE_INFINITY;
        case "-Infinity" -> Double.NEGATIVE_INFINITY;
        default -> throw new AssertionError("not a float in the peers' form: " + value);
      };
    }
    return value.doubleValue();
  }

  private static long pick(Random random, long... choices) {
    return choices[random.nextInt(choices.length)];
  }

  private static double pickDouble(Random random, double... choices) {
    return choices[random.nextInt(choices.length)];
  }

  /** The core types zarrita 0.7.5 reads and writes (README: no float16, complex or raw bits). */
  static final List<FixedType> ZARRITA_TYPES = List.of(
      FixedType.BOOL, FixedType.INT8, FixedType.INT16, FixedType.INT32, FixedType.INT64, FixedType.UINT8,
      FixedType.UINT16, FixedType.UINT32, FixedType.UINT64, FixedType.FLOAT32, FixedType.FLOAT64);
}
