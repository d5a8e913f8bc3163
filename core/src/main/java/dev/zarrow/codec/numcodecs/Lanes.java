package dev.zarrow.codec.numcodecs;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.memory.Buffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.memory.util.MemoryUtil;
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
    private double[] doubles;

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

    double[] doubles() {
      return doubles == null ? doubles = new double[BLOCK] : doubles;
    }
  }

  /** Reads the values of a vector (borrowed, open while this is used) block by block. */
  static final class In {
    private final Kind kind;
    private final ByteBuffer bytes;
    /** The values' native address (Arrow memory, little-endian as every platform Arrow runs on). */
    private final long address;
    private final Narrow narrow = new Narrow();

    In(FieldVector vector, FixedType type) {
      this.kind = Kind.of(type);
      this.bytes = type.toBytes(vector).slice().order(ByteOrder.nativeOrder());
      this.address = bytes.capacity() == 0 ? 0 : MemoryUtil.getByteBufferAddress(bytes);
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
          double[] d = narrow.doubles();
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
        // Integers of up to 32 bits in one loop from memory: a bulk copy first would be a second pass.
        case I8 -> { long a = address + at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getByte(a + i); }
        case U8 -> { long a = address + at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getByte(a + i) & 0xff; }
        case I16 -> { long a = address + 2L * at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getShort(a + 2L * i); }
        case U16 -> { long a = address + 2L * at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getShort(a + 2L * i) & 0xffff; }
        case I32 -> { long a = address + 4L * at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getInt(a + 4L * i); }
        case U32 -> { long a = address + 4L * at; for (int i = 0; i < n; i++) out[i] = MemoryUtil.getInt(a + 4L * i) & 0xffffffffL; }
        default -> { // I64
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
    private final long address;
    private final ByteBuffer bytes;

    Out(FixedType type, int count, BufferAllocator allocator) {
      this.type = type;
      this.kind = Kind.of(type);
      this.count = count;
      this.allocator = allocator;
      long size = (long) count * type.byteWidth();
      this.data = Buffers.allocateUninitialized(allocator, size);
      this.address = data.memoryAddress();
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
          double[] d = narrow.doubles();
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

  /**
   * Writes all {@code n} values of {@code in} into {@code out} in one loop from memory to memory, cast as
   * numpy casts, for the pairs v2 arrays hold most: float32 to float64 and back, integers of up to 32 bits
   * to float64. The block path costs twice as much there: JDK 17's C2 vectorizes neither its widening
   * loop nor its copies through an array, so each pass runs at a value per cycle. False (nothing
   * written) for other pairs.
   */
  static boolean castDirect(In in, Out out, int n) {
    if (in.address == 0) {
      return false;
    }
    if (in.kind == Kind.F32 && out.kind == Kind.F64) {
      long s = in.address;
      long d = out.address;
      for (int i = 0; i < n; i++) {
        MemoryUtil.putLong(d + 8L * i, Double.doubleToRawLongBits(Float.intBitsToFloat(MemoryUtil.getInt(s + 4L * i))));
      }
      return true;
    }
    if (in.kind == Kind.F64 && out.kind == Kind.F32) {
      long s = in.address;
      long d = out.address;
      for (int i = 0; i < n; i++) {
        MemoryUtil.putInt(d + 4L * i, Float.floatToRawIntBits((float) Double.longBitsToDouble(MemoryUtil.getLong(s + 8L * i))));
      }
      return true;
    }
    return integersDirect(in, out, n);
  }

  /** Integers of up to 32 bits, exact as doubles, into float64 in one loop; false for other kinds. */
  private static boolean integersDirect(In in, Out out, int n) {
    if (out.kind != Kind.F64) {
      return false;
    }
    long src = in.address;
    long d = out.address;
    switch (in.kind) {
      case I8 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getByte(src + i)); }
      case U8 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getByte(src + i) & 0xff); }
      case I16 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getShort(src + 2L * i)); }
      case U16 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getShort(src + 2L * i) & 0xffff); }
      case I32 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getInt(src + 4L * i)); }
      case U32 -> { for (int i = 0; i < n; i++) putDouble(d, i, MemoryUtil.getInt(src + 4L * i) & 0xffffffffL); }
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code x / scale} may be computed as {@link #quotient}: a scale between 2^-500 and 2^500 (so
   * that, for integers of up to 32 bits, nothing overflows or underflows) and {@link Math#fma} in hardware.
   */
  static boolean reciprocalDivides(double scale) {
    double a = Math.abs(scale);
    return FAST_FMA && a > 0x1p-500 && a < 0x1p500;
  }

  /**
   * {@code x / s}, numpy's correctly rounded quotient, without a division, from {@code r = 1 / s}
   * correctly rounded (a scalar division costs 4-5 cycles; numpy divides 4-8 values at once, and this
   * loop, over arrays, C2 vectorizes): {@code q = x * r} is within an ulp of the quotient and one fused
   * correction {@code q + (x - q * s) * r} rounds it correctly (Markstein's theorem; the remainder is
   * exact in an FMA) while nothing overflows or underflows ({@link #reciprocalDivides}).
   */
  static double quotient(double x, double s, double r) {
    double q = x * r;
    return Math.fma(Math.fma(-q, s, x), r, q);
  }

  /**
   * Whether {@link Math#fma} runs as an instruction: without one (x86 CPUs before 2013) the JDK computes
   * it with BigDecimal, a hundred times slower than the division it would replace. 256 of them take a
   * few microseconds with the instruction, interpreted or compiled, and hundreds without it (a run
   * slowed past 50 us only keeps the division: a matter of speed, never of the result).
   */
  static final boolean FAST_FMA = fmaIsFast();

  private static boolean fmaIsFast() {
    double acc = 1;
    long t0 = System.nanoTime();
    for (int i = 0; i < 256; i++) {
      acc = Math.fma(acc, 1.0000001, 1e-9);
    }
    long took = System.nanoTime() - t0;
    return took < 50_000 && acc > 0;
  }

  private static void putDouble(long address, int i, double v) {
    MemoryUtil.putLong(address + 8L * i, Double.doubleToRawLongBits(v));
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
