package dev.zarrow.codec.numcodecs;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.memory.Buffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.FieldVector;

/**
 * Numeric chunks streamed in blocks of {@link #BLOCK} values through a {@code double[]} or {@code long[]}
 * that stays in the CPU's cache: {@link In} reads a block of a vector's values (a bulk copy out of Arrow
 * memory, then one widening loop), the filter computes on the block, {@link Out} writes it into the
 * result's memory with numpy's casts (one narrowing loop, then a bulk copy). Each block switches on the
 * type once, so every element loop is a plain loop over primitive arrays: no per-element call, no
 * bounds-checked Arrow accessor, no chunk-sized temporary.
 *
 * <p>Integers travel as {@code long} (uint64 as its bits), any number as {@code double}. numpy's casts:
 * integer to narrower integer keeps the low bits; float to integer truncates toward zero (out of range
 * is undefined in numpy: C's conversion to 32 or 64 bits, then the low bits, as here); integer to float
 * and float to narrower float round to nearest.
 */
final class Lanes {
  /** Values per block: a block of doubles and its narrow copy fit a core's L1 and L2 caches. */
  static final int BLOCK = 2048;

  private static final double TWO_63 = 0x1p63;

  private Lanes() {}

  /** The element kinds the loops switch on, once per block. */
  private enum Kind {
    I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64;

    static Kind of(FixedType type) {
      return switch (type.name()) {
        case "int8" -> I8;
        case "uint8" -> U8;
        case "int16" -> I16;
        case "uint16" -> U16;
        case "int32" -> I32;
        case "uint32" -> U32;
        case "int64" -> I64;
        case "uint64" -> U64;
        case "float16" -> F16;
        case "float32" -> F32;
        case "float64" -> F64;
        default -> throw new IllegalArgumentException("not a numeric type: " + type.name());
      };
    }

    boolean isInteger() {
      return this != F16 && this != F32 && this != F64;
    }
  }

  /** Narrow values of one block, the side of a bulk copy to or from Arrow memory. */
  private static final class Narrow {
    private byte[] bytes;
    private short[] shorts;
    private int[] ints;
    private float[] floats;
    private long[] longs;

    byte[] bytes() {
      return bytes == null ? bytes = new byte[BLOCK] : bytes;
    }

    short[] shorts() {
      return shorts == null ? shorts = new short[BLOCK] : shorts;
    }

    int[] ints() {
      return ints == null ? ints = new int[BLOCK] : ints;
    }

    float[] floats() {
      return floats == null ? floats = new float[BLOCK] : floats;
    }

    long[] longs() {
      return longs == null ? longs = new long[BLOCK] : longs;
    }
  }

  /** Reads the values of a vector (borrowed, open while this is used) block by block. */
  static final class In {
    private final Kind kind;
    private final ByteBuffer bytes;
    private final Narrow narrow = new Narrow();

    In(FieldVector vector, FixedType type) {
      this.kind = Kind.of(type);
      this.bytes = type.toBytes(vector).slice().order(ByteOrder.nativeOrder());
    }

    /** Values {@code at..at+n} as integers: integers extended by their sign (uint64 as bits), floats truncated. */
    void longs(int at, long[] out, int n) {
      switch (kind) {
        case I8 -> { byte[] b = narrow.bytes(); bytes.get(at, b, 0, n); for (int i = 0; i < n; i++) out[i] = b[i]; }
        case U8 -> { byte[] b = narrow.bytes(); bytes.get(at, b, 0, n); for (int i = 0; i < n; i++) out[i] = b[i] & 0xffL; }
        case I16 -> { short[] s = narrow.shorts(); bytes.asShortBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = s[i]; }
        case U16 -> { short[] s = narrow.shorts(); bytes.asShortBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = s[i] & 0xffffL; }
        case I32 -> { int[] s = narrow.ints(); bytes.asIntBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = s[i]; }
        case U32 -> { int[] s = narrow.ints(); bytes.asIntBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = s[i] & 0xffffffffL; }
        case I64, U64 -> bytes.asLongBuffer().get(at, out, 0, n);
        default -> {
          double[] d = new double[n];
          doubles(at, d, n);
          for (int i = 0; i < n; i++) out[i] = (long) d[i];
        }
      }
    }

    /** Values {@code at..at+n} as doubles (uint64 unsigned). */
    void doubles(int at, double[] out, int n) {
      switch (kind) {
        case F64 -> bytes.asDoubleBuffer().get(at, out, 0, n);
        case F32 -> { float[] f = narrow.floats(); bytes.asFloatBuffer().get(at, f, 0, n); for (int i = 0; i < n; i++) out[i] = f[i]; }
        case F16 -> { short[] s = narrow.shorts(); bytes.asShortBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = Float16.toFloat(s[i]); }
        case U64 -> {
          long[] l = narrow.longs();
          bytes.asLongBuffer().get(at, l, 0, n);
          for (int i = 0; i < n; i++) out[i] = l[i] >= 0 ? (double) l[i] : unsignedToDouble(l[i]);
        }
        case I32 -> { int[] s = narrow.ints(); bytes.asIntBuffer().get(at, s, 0, n); for (int i = 0; i < n; i++) out[i] = s[i]; }
        default -> {
          long[] l = narrow.longs();
          longs(at, l, n);
          for (int i = 0; i < n; i++) out[i] = l[i];
        }
      }
    }
  }

  /**
   * Writes a new vector of a type block by block, into unzeroed memory every block overwrites; {@link
   * #finish} hands the vector over, {@link #close} frees what was not handed over.
   */
  static final class Out implements AutoCloseable {
    private final FixedType type;
    private final Kind kind;
    private final int count;
    private final BufferAllocator allocator;
    private final Narrow narrow = new Narrow();
    private ArrowBuf data;
    private final ByteBuffer bytes;

    Out(FixedType type, int count, BufferAllocator allocator) {
      this.type = type;
      this.kind = Kind.of(type);
      this.count = count;
      this.allocator = allocator;
      long size = (long) count * type.byteWidth();
      this.data = Buffers.allocateUninitialized(allocator, size);
      this.bytes = Buffers.view(data, 0, size).order(ByteOrder.nativeOrder());
    }

    /** Writes integers {@code in[0..n)} (of a type that is uint64 when {@code unsigned64}) at {@code at}. */
    void longs(int at, long[] in, int n, boolean unsigned64) {
      switch (kind) {
        case I8, U8 -> { byte[] b = narrow.bytes(); for (int i = 0; i < n; i++) b[i] = (byte) in[i]; bytes.put(at, b, 0, n); }
        case I16, U16 -> { short[] s = narrow.shorts(); for (int i = 0; i < n; i++) s[i] = (short) in[i]; bytes.asShortBuffer().put(at, s, 0, n); }
        case I32, U32 -> { int[] s = narrow.ints(); for (int i = 0; i < n; i++) s[i] = (int) in[i]; bytes.asIntBuffer().put(at, s, 0, n); }
        case I64, U64 -> bytes.asLongBuffer().put(at, in, 0, n);
        case F32 -> {
          float[] f = narrow.floats();
          if (unsigned64) {
            for (int i = 0; i < n; i++) f[i] = (float) (in[i] >= 0 ? (double) in[i] : unsignedToDouble(in[i]));
          } else {
            for (int i = 0; i < n; i++) f[i] = in[i]; // long to float directly: through double would round twice
          }
          bytes.asFloatBuffer().put(at, f, 0, n);
        }
        default -> { // F16, F64
          double[] d = new double[n];
          for (int i = 0; i < n; i++) d[i] = unsigned64 && in[i] < 0 ? unsignedToDouble(in[i]) : (double) in[i];
          doubles(at, d, n);
        }
      }
    }

    /** Writes {@code in[0..n)} at {@code at}, cast as numpy casts floats. */
    void doubles(int at, double[] in, int n) {
      switch (kind) {
        case F64 -> bytes.asDoubleBuffer().put(at, in, 0, n);
        case F32 -> { float[] f = narrow.floats(); for (int i = 0; i < n; i++) f[i] = (float) in[i]; bytes.asFloatBuffer().put(at, f, 0, n); }
        case F16 -> { short[] s = narrow.shorts(); for (int i = 0; i < n; i++) s[i] = Float16.toFloat16((float) in[i]); bytes.asShortBuffer().put(at, s, 0, n); }
        case I8, U8 -> { byte[] b = narrow.bytes(); for (int i = 0; i < n; i++) b[i] = (byte) (int) in[i]; bytes.put(at, b, 0, n); }
        case I16, U16 -> { short[] s = narrow.shorts(); for (int i = 0; i < n; i++) s[i] = (short) (int) in[i]; bytes.asShortBuffer().put(at, s, 0, n); }
        case I32 -> { int[] s = narrow.ints(); for (int i = 0; i < n; i++) s[i] = (int) in[i]; bytes.asIntBuffer().put(at, s, 0, n); }
        case U32 -> { int[] s = narrow.ints(); for (int i = 0; i < n; i++) s[i] = (int) (long) in[i]; bytes.asIntBuffer().put(at, s, 0, n); }
        case I64 -> { long[] l = narrow.longs(); for (int i = 0; i < n; i++) l[i] = (long) in[i]; bytes.asLongBuffer().put(at, l, 0, n); }
        case U64 -> {
          long[] l = narrow.longs();
          for (int i = 0; i < n; i++) {
            double v = in[i];
            l[i] = v >= TWO_63 ? ((long) (v - TWO_63)) ^ Long.MIN_VALUE : (long) v;
          }
          bytes.asLongBuffer().put(at, l, 0, n);
        }
      }
    }

    /** The vector written, owned by the caller; every value must have been written. */
    FieldVector finish() {
      try (ArrowBuf written = data) {
        data = null;
        return type.fromBytes(written, count, allocator);
      }
    }

    @Override
    public void close() {
      if (data != null) {
        data.close();
        data = null;
      }
    }
  }

  /** A vector of {@code type} holding {@code values} cast as numpy casts floats. The caller owns the vector. */
  static FieldVector fromDoubles(double[] values, FixedType type, BufferAllocator allocator) {
    try (Out out = new Out(type, values.length, allocator)) {
      double[] block = new double[BLOCK];
      for (int at = 0; at < values.length; at += BLOCK) {
        int m = Math.min(BLOCK, values.length - at);
        System.arraycopy(values, at, block, 0, m);
        out.doubles(at, block, m);
      }
      return out.finish();
    }
  }

  private static double unsignedToDouble(long v) {
    // Halve with the low bit kept (round to odd), convert, double: correctly rounded.
    return ((double) ((v >>> 1) | (v & 1))) * 2.0;
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

  /** Rounds {@code v[0..n)} to floats of {@code width} bytes in place (nothing to do for 8). */
  static void round(double[] v, int n, int width) {
    if (width == 4) {
      for (int i = 0; i < n; i++) v[i] = (float) v[i];
    } else if (width == 2) {
      for (int i = 0; i < n; i++) v[i] = round(v[i], 2);
    }
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
