package dev.zarrow.codec.numcodecs;

import dev.zarrow.dtype.FixedType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.FieldVector;

/**
 * Numeric chunks as Java arrays and back, with numpy's casts. Each method switches on the type once and
 * runs a loop of one kind, so the element loops make no per-element calls through interfaces.
 *
 * <p>Integers travel as {@code long} (uint64 as its bits), any number as {@code double}. numpy's casts:
 * integer to narrower integer keeps the low bits; float to integer truncates toward zero (out of range
 * is undefined in numpy: C's conversion to 32 or 64 bits, then the low bits, as here); integer to float
 * and float to narrower float round to nearest.
 */
final class Lanes {
  private static final double TWO_63 = 0x1p63;

  private Lanes() {}

  private static ByteBuffer bytes(FieldVector vector, FixedType type) {
    return type.toBytes(vector).duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The values of {@code vector} as integers: integers extended by their sign, floats truncated. */
  static long[] longs(FieldVector vector, FixedType type) {
    int n = vector.getValueCount();
    long[] out = new long[n];
    ByteBuffer b = bytes(vector, type);
    int p = b.position();
    switch (type.name()) {
      case "int8" -> { for (int i = 0; i < n; i++) out[i] = b.get(p + i); }
      case "uint8" -> { for (int i = 0; i < n; i++) out[i] = b.get(p + i) & 0xffL; }
      case "int16" -> { for (int i = 0; i < n; i++) out[i] = b.getShort(p + 2 * i); }
      case "uint16" -> { for (int i = 0; i < n; i++) out[i] = b.getShort(p + 2 * i) & 0xffffL; }
      case "int32" -> { for (int i = 0; i < n; i++) out[i] = b.getInt(p + 4 * i); }
      case "uint32" -> { for (int i = 0; i < n; i++) out[i] = b.getInt(p + 4 * i) & 0xffffffffL; }
      case "int64", "uint64" -> { for (int i = 0; i < n; i++) out[i] = b.getLong(p + 8 * i); }
      default -> {
        double[] d = doubles(vector, type);
        for (int i = 0; i < n; i++) out[i] = (long) d[i];
      }
    }
    return out;
  }

  /** The values of {@code vector} as doubles (uint64 unsigned). */
  static double[] doubles(FieldVector vector, FixedType type) {
    int n = vector.getValueCount();
    double[] out = new double[n];
    ByteBuffer b = bytes(vector, type);
    int p = b.position();
    switch (type.name()) {
      case "float16" -> { for (int i = 0; i < n; i++) out[i] = Float16.toFloat(b.getShort(p + 2 * i)); }
      case "float32" -> { for (int i = 0; i < n; i++) out[i] = b.getFloat(p + 4 * i); }
      case "float64" -> { for (int i = 0; i < n; i++) out[i] = b.getDouble(p + 8 * i); }
      case "uint64" -> {
        for (int i = 0; i < n; i++) {
          long v = b.getLong(p + 8 * i);
          out[i] = v >= 0 ? (double) v : unsignedToDouble(v);
        }
      }
      default -> {
        long[] l = longs(vector, type);
        for (int i = 0; i < n; i++) out[i] = l[i];
      }
    }
    return out;
  }

  private static double unsignedToDouble(long v) {
    // Halve with the low bit kept (round to odd), convert, double: correctly rounded.
    return ((double) ((v >>> 1) | (v & 1))) * 2.0;
  }

  /**
   * A vector of {@code type} holding {@code values}, integers of {@code from}'s signedness (uint64 values
   * are bits): integer targets keep the low bits, float targets round. The caller owns the vector.
   */
  static FieldVector fromLongs(long[] values, FixedType from, FixedType type, BufferAllocator allocator) {
    if (type.kind() == FixedType.Kind.FLOAT) {
      double[] d = new double[values.length];
      if (from.name().equals("uint64")) {
        for (int i = 0; i < d.length; i++) d[i] = values[i] >= 0 ? (double) values[i] : unsignedToDouble(values[i]);
      } else if (type.name().equals("float32")) {
        // long to float directly: through double would round twice.
        float[] f = new float[values.length];
        for (int i = 0; i < f.length; i++) f[i] = values[i];
        return fromFloats(f, allocator);
      } else {
        for (int i = 0; i < d.length; i++) d[i] = values[i];
      }
      return fromDoubles(d, type, allocator);
    }
    int n = values.length;
    int w = type.byteWidth();
    ArrowBuf buf = allocator.buffer(Math.max(1, (long) n * w));
    try {
      switch (w) {
        case 1 -> { for (int i = 0; i < n; i++) buf.setByte(i, (byte) values[i]); }
        case 2 -> { for (int i = 0; i < n; i++) buf.setShort(2L * i, (short) values[i]); }
        case 4 -> { for (int i = 0; i < n; i++) buf.setInt(4L * i, (int) values[i]); }
        default -> { for (int i = 0; i < n; i++) buf.setLong(8L * i, values[i]); }
      }
      return type.fromBytes(buf, n, allocator);
    } finally {
      buf.close();
    }
  }

  /** A vector of {@code type} holding {@code values} cast as numpy casts floats. The caller owns the vector. */
  static FieldVector fromDoubles(double[] values, FixedType type, BufferAllocator allocator) {
    int n = values.length;
    int w = type.byteWidth();
    ArrowBuf buf = allocator.buffer(Math.max(1, (long) n * w));
    try {
      switch (type.name()) {
        case "float16" -> { for (int i = 0; i < n; i++) buf.setShort(2L * i, Float16.toFloat16((float) values[i])); }
        case "float32" -> { for (int i = 0; i < n; i++) buf.setFloat(4L * i, (float) values[i]); }
        case "float64" -> { for (int i = 0; i < n; i++) buf.setDouble(8L * i, values[i]); }
        case "int8", "uint8" -> { for (int i = 0; i < n; i++) buf.setByte(i, (byte) (int) values[i]); }
        case "int16", "uint16" -> { for (int i = 0; i < n; i++) buf.setShort(2L * i, (short) (int) values[i]); }
        case "int32" -> { for (int i = 0; i < n; i++) buf.setInt(4L * i, (int) values[i]); }
        case "uint32" -> { for (int i = 0; i < n; i++) buf.setInt(4L * i, (int) (long) values[i]); }
        case "int64" -> { for (int i = 0; i < n; i++) buf.setLong(8L * i, (long) values[i]); }
        default -> { // uint64
          for (int i = 0; i < n; i++) {
            double v = values[i];
            buf.setLong(8L * i, v >= TWO_63 ? ((long) (v - TWO_63)) ^ Long.MIN_VALUE : (long) v);
          }
        }
      }
      return type.fromBytes(buf, n, allocator);
    } finally {
      buf.close();
    }
  }

  private static FieldVector fromFloats(float[] values, BufferAllocator allocator) {
    ArrowBuf buf = allocator.buffer(Math.max(1, 4L * values.length));
    try {
      for (int i = 0; i < values.length; i++) buf.setFloat(4L * i, values[i]);
      return FixedType.FLOAT32.fromBytes(buf, values.length, allocator);
    } finally {
      buf.close();
    }
  }

  /**
   * {@code v} rounded to a float of {@code width} bytes (2, 4 or 8): numpy computes in the array's float
   * type, and an operation on two floats done in double then rounded once gives the same result.
   */
  static double round(double v, int width) {
    return switch (width) {
      case 4 -> (float) v;
      case 2 -> Float16.toFloat(Float16.toFloat16((float) v));
      default -> v;
    };
  }

  /** The width of the float type numpy computes in for an array of {@code type} and a Python float. */
  static int floatWidth(FixedType type) {
    return type.kind() == FixedType.Kind.FLOAT ? type.byteWidth() : 8;
  }

  /** True for the integer types. */
  static boolean isInteger(FixedType type) {
    return type.kind() == FixedType.Kind.INT || type.kind() == FixedType.Kind.UINT;
  }
}
