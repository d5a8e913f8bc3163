package dev.zarrow.internal;

import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Byte and bit shuffles on raw memory, as blosc and numcodecs define them. Every address and length is the caller's to check: these
 * loops trust them.
 *
 * <p>Byte shuffle: a block of n elements of {@code ts} bytes becomes {@code ts} planes of n bytes, plane j
 * holding byte j of every element. Bit shuffle: for n a multiple of 8, 8 * ts rows of n / 8 bytes, row
 * 8j + k holding bit k of byte j of every element (element 8b + i at bit i of byte b); c-blosc leaves a
 * block whose element count is not a multiple of 8 as it is. Bytes past the last whole element are never
 * shuffled.
 *
 * <p>Element sizes 2, 4 and 8 move eight elements at a time as longs, transposing bytes with delta swaps
 * (three masks per swap, no branch, no byte loads); the others go byte by byte.
 */
public final class Shuffles {
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
  private static final long BYTES = 0x00FF00FF00FF00FFL;
  private static final long SHORTS = 0x0000FFFF0000FFFFL;
  private static final long LOW = 0x00000000FFFFFFFFL;
  private static final long HIGH = 0xFFFFFFFF00000000L;

  private Shuffles() {}

  /**
   * Element i of {@code n} at {@code dst} gets byte j from {@code planes[j] + i}: the planes may lie
   * anywhere (a split block's streams are read where they are stored).
   */
  public static void unshuffle(int ts, int n, long[] planes, long dst) {
    int i = 0;
    if (LITTLE_ENDIAN) {
      if (ts == 2) {
        i = unshuffle2(n, planes[0], planes[1], dst);
      } else if (ts == 4) {
        i = unshuffle4(n, planes, dst);
      } else if (ts == 8) {
        i = unshuffle8(n, planes, dst);
      }
    }
    for (int j = 0; j < ts; j++) {
      long p = planes[j];
      for (int e = i; e < n; e++) {
        MemoryUtil.putByte(dst + (long) e * ts + j, MemoryUtil.getByte(p + e));
      }
    }
  }

  /** Plane j of the {@code n} elements at {@code src} goes to {@code planes[j]}. */
  public static void shuffle(int ts, int n, long src, long[] planes) {
    int i = 0;
    if (LITTLE_ENDIAN) {
      if (ts == 2) {
        i = shuffle2(n, src, planes[0], planes[1]);
      } else if (ts == 4) {
        i = shuffle4(n, src, planes);
      } else if (ts == 8) {
        i = shuffle8(n, src, planes);
      }
    }
    for (int j = 0; j < ts; j++) {
      long p = planes[j];
      for (int e = i; e < n; e++) {
        MemoryUtil.putByte(p + e, MemoryUtil.getByte(src + (long) e * ts + j));
      }
    }
  }

  /** The planes of a contiguous shuffled block of {@code n} elements at {@code base}. */
  public static long[] planes(long base, int ts, int n) {
    long[] planes = new long[ts];
    for (int j = 0; j < ts; j++) {
      planes[j] = base + (long) j * n;
    }
    return planes;
  }

  private static int unshuffle2(int n, long p0, long p1, long dst) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long a = MemoryUtil.getLong(p0 + i);
      long b = MemoryUtil.getLong(p1 + i);
      long t = ((a >>> 8) ^ b) & BYTES; // a = e0 e2 e4 e6, b = e1 e3 e5 e7 (16-bit elements)
      b ^= t;
      a ^= t << 8;
      t = ((a >>> 16) ^ b) & SHORTS; // a = e0 e1 e4 e5, b = e2 e3 e6 e7
      b ^= t;
      a ^= t << 16;
      long at = dst + 2L * i;
      MemoryUtil.putLong(at, (a & LOW) | (b << 32));
      MemoryUtil.putLong(at + 8, (a >>> 32) | (b & HIGH));
    }
    return i;
  }

  private static int shuffle2(int n, long src, long p0, long p1) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long o0 = MemoryUtil.getLong(src + 2L * i);
      long o1 = MemoryUtil.getLong(src + 2L * i + 8);
      long a = (o0 & LOW) | (o1 << 32);
      long b = (o0 >>> 32) | (o1 & HIGH);
      long t = ((a >>> 16) ^ b) & SHORTS;
      b ^= t;
      a ^= t << 16;
      t = ((a >>> 8) ^ b) & BYTES;
      b ^= t;
      a ^= t << 8;
      MemoryUtil.putLong(p0 + i, a);
      MemoryUtil.putLong(p1 + i, b);
    }
    return i;
  }

  private static int unshuffle4(int n, long[] planes, long dst) {
    long p0 = planes[0];
    long p1 = planes[1];
    long p2 = planes[2];
    long p3 = planes[3];
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long a = MemoryUtil.getLong(p0 + i);
      long b = MemoryUtil.getLong(p1 + i);
      long c = MemoryUtil.getLong(p2 + i);
      long d = MemoryUtil.getLong(p3 + i);
      long t = ((a >>> 8) ^ b) & BYTES;
      b ^= t;
      a ^= t << 8;
      t = ((c >>> 8) ^ d) & BYTES;
      d ^= t;
      c ^= t << 8;
      t = ((a >>> 16) ^ c) & SHORTS; // a = e0 e4, c = e2 e6 (32-bit elements)
      c ^= t;
      a ^= t << 16;
      t = ((b >>> 16) ^ d) & SHORTS; // b = e1 e5, d = e3 e7
      d ^= t;
      b ^= t << 16;
      long at = dst + 4L * i;
      MemoryUtil.putLong(at, (a & LOW) | (b << 32));
      MemoryUtil.putLong(at + 8, (c & LOW) | (d << 32));
      MemoryUtil.putLong(at + 16, (a >>> 32) | (b & HIGH));
      MemoryUtil.putLong(at + 24, (c >>> 32) | (d & HIGH));
    }
    return i;
  }

  private static int shuffle4(int n, long src, long[] planes) {
    long p0 = planes[0];
    long p1 = planes[1];
    long p2 = planes[2];
    long p3 = planes[3];
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long at = src + 4L * i;
      long o0 = MemoryUtil.getLong(at);
      long o1 = MemoryUtil.getLong(at + 8);
      long o2 = MemoryUtil.getLong(at + 16);
      long o3 = MemoryUtil.getLong(at + 24);
      long a = (o0 & LOW) | (o2 << 32);
      long b = (o0 >>> 32) | (o2 & HIGH);
      long c = (o1 & LOW) | (o3 << 32);
      long d = (o1 >>> 32) | (o3 & HIGH);
      long t = ((a >>> 16) ^ c) & SHORTS;
      c ^= t;
      a ^= t << 16;
      t = ((b >>> 16) ^ d) & SHORTS;
      d ^= t;
      b ^= t << 16;
      t = ((a >>> 8) ^ b) & BYTES;
      b ^= t;
      a ^= t << 8;
      t = ((c >>> 8) ^ d) & BYTES;
      d ^= t;
      c ^= t << 8;
      MemoryUtil.putLong(p0 + i, a);
      MemoryUtil.putLong(p1 + i, b);
      MemoryUtil.putLong(p2 + i, c);
      MemoryUtil.putLong(p3 + i, d);
    }
    return i;
  }

  private static int unshuffle8(int n, long[] p, long dst) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long d = dst + 8L * i;
      transpose64(p[0] + i, p[1] + i, p[2] + i, p[3] + i, p[4] + i, p[5] + i, p[6] + i, p[7] + i,
          d, d + 8, d + 16, d + 24, d + 32, d + 40, d + 48, d + 56, BYTES_ONLY);
    }
    return i;
  }

  private static int shuffle8(int n, long src, long[] p) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long s = src + 8L * i;
      transpose64(s, s + 8, s + 16, s + 24, s + 32, s + 40, s + 48, s + 56,
          p[0] + i, p[1] + i, p[2] + i, p[3] + i, p[4] + i, p[5] + i, p[6] + i, p[7] + i, BYTES_ONLY);
    }
    return i;
  }

  private static final int BYTES_ONLY = 0;
  private static final int BITS_THEN_BYTES = 1;
  private static final int BYTES_THEN_BITS = 2;

  /**
   * Loads the longs at {@code s0..s7}, transposes them as an 8x8 matrix of bytes (byte q of long k goes to
   * byte k of long q), and stores them at {@code d0..d7}. With {@link #BITS_THEN_BYTES} the long index is
   * first exchanged with the index of the bit in each byte (bit i of a byte of long k goes to bit k of the
   * same byte of long i), with {@link #BYTES_THEN_BITS} after: together, bit i of byte q of long k goes to
   * bit k of byte i of long q, the bit shuffle's transpose of 64 elements' byte. Delta swaps on locals:
   * three masks per swap, twelve swaps per exchange, no loads but the eight.
   */
  private static void transpose64(long s0, long s1, long s2, long s3, long s4, long s5, long s6, long s7,
      long d0, long d1, long d2, long d3, long d4, long d5, long d6, long d7, int mode) {
    long r0 = MemoryUtil.getLong(s0);
    long r1 = MemoryUtil.getLong(s1);
    long r2 = MemoryUtil.getLong(s2);
    long r3 = MemoryUtil.getLong(s3);
    long r4 = MemoryUtil.getLong(s4);
    long r5 = MemoryUtil.getLong(s5);
    long r6 = MemoryUtil.getLong(s6);
    long r7 = MemoryUtil.getLong(s7);
    long t;
    for (int pass = 0; pass < 2; pass++) {
      if ((pass == 0 && mode == BITS_THEN_BYTES) || (pass == 1 && mode == BYTES_THEN_BITS)) {
        t = ((r0 >>> 1) ^ r1) & 0x5555555555555555L; r1 ^= t; r0 ^= t << 1;
        t = ((r2 >>> 1) ^ r3) & 0x5555555555555555L; r3 ^= t; r2 ^= t << 1;
        t = ((r4 >>> 1) ^ r5) & 0x5555555555555555L; r5 ^= t; r4 ^= t << 1;
        t = ((r6 >>> 1) ^ r7) & 0x5555555555555555L; r7 ^= t; r6 ^= t << 1;
        t = ((r0 >>> 2) ^ r2) & 0x3333333333333333L; r2 ^= t; r0 ^= t << 2;
        t = ((r1 >>> 2) ^ r3) & 0x3333333333333333L; r3 ^= t; r1 ^= t << 2;
        t = ((r4 >>> 2) ^ r6) & 0x3333333333333333L; r6 ^= t; r4 ^= t << 2;
        t = ((r5 >>> 2) ^ r7) & 0x3333333333333333L; r7 ^= t; r5 ^= t << 2;
        t = ((r0 >>> 4) ^ r4) & 0x0F0F0F0F0F0F0F0FL; r4 ^= t; r0 ^= t << 4;
        t = ((r1 >>> 4) ^ r5) & 0x0F0F0F0F0F0F0F0FL; r5 ^= t; r1 ^= t << 4;
        t = ((r2 >>> 4) ^ r6) & 0x0F0F0F0F0F0F0F0FL; r6 ^= t; r2 ^= t << 4;
        t = ((r3 >>> 4) ^ r7) & 0x0F0F0F0F0F0F0F0FL; r7 ^= t; r3 ^= t << 4;
      }
      if (pass == 0) {
        t = ((r0 >>> 8) ^ r1) & BYTES; r1 ^= t; r0 ^= t << 8;
        t = ((r2 >>> 8) ^ r3) & BYTES; r3 ^= t; r2 ^= t << 8;
        t = ((r4 >>> 8) ^ r5) & BYTES; r5 ^= t; r4 ^= t << 8;
        t = ((r6 >>> 8) ^ r7) & BYTES; r7 ^= t; r6 ^= t << 8;
        t = ((r0 >>> 16) ^ r2) & SHORTS; r2 ^= t; r0 ^= t << 16;
        t = ((r1 >>> 16) ^ r3) & SHORTS; r3 ^= t; r1 ^= t << 16;
        t = ((r4 >>> 16) ^ r6) & SHORTS; r6 ^= t; r4 ^= t << 16;
        t = ((r5 >>> 16) ^ r7) & SHORTS; r7 ^= t; r5 ^= t << 16;
        t = ((r0 >>> 32) ^ r4) & LOW; r4 ^= t; r0 ^= t << 32;
        t = ((r1 >>> 32) ^ r5) & LOW; r5 ^= t; r1 ^= t << 32;
        t = ((r2 >>> 32) ^ r6) & LOW; r6 ^= t; r2 ^= t << 32;
        t = ((r3 >>> 32) ^ r7) & LOW; r7 ^= t; r3 ^= t << 32;
      }
    }
    MemoryUtil.putLong(d0, r0);
    MemoryUtil.putLong(d1, r1);
    MemoryUtil.putLong(d2, r2);
    MemoryUtil.putLong(d3, r3);
    MemoryUtil.putLong(d4, r4);
    MemoryUtil.putLong(d5, r5);
    MemoryUtil.putLong(d6, r6);
    MemoryUtil.putLong(d7, r7);
  }

  /** Transposes the 8x8 bit matrix whose row i is byte i of {@code x} (bit k of a byte is column k). */
  private static long transpose8x8Bits(long x) {
    long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
    return x ^ t ^ (t << 28);
  }

  /**
   * Undoes the bit shuffle of {@code n} elements (a multiple of 8) into {@code dst}, going through
   * {@code tmp} ({@code n * ts} bytes): bit rows to byte planes, then the byte unshuffle. The 8 rows of
   * byte j ({@code n} bytes) start at {@code rows[j]}.
   */
  public static void bitUnshuffle(int ts, int n, long[] rows, long dst, long tmp) {
    int rowBytes = n / 8;
    for (int j = 0; j < ts; j++) {
      long plane = tmp + (long) j * n;
      long base = rows[j];
      int b = 0;
      if (LITTLE_ENDIAN) {
        // 64 elements at a time: 8 bytes of each of the 8 rows. Bit i of byte q of row k must become bit
        // k of byte i of long q: swap the row index with the bit index, then the row index with the byte.
        for (; b + 8 <= rowBytes; b += 8) {
          long s = base + b;
          long d = plane + 8L * b;
          transpose64(s, s + rowBytes, s + 2L * rowBytes, s + 3L * rowBytes, s + 4L * rowBytes, s + 5L * rowBytes,
              s + 6L * rowBytes, s + 7L * rowBytes, d, d + 8, d + 16, d + 24, d + 32, d + 40, d + 48, d + 56,
              BITS_THEN_BYTES);
        }
      }
      for (; b < rowBytes; b++) {
        long x = 0;
        for (int k = 0; k < 8; k++) {
          x |= (MemoryUtil.getByte(base + (long) k * rowBytes + b) & 0xffL) << (8 * k);
        }
        putLongLe(plane + 8L * b, transpose8x8Bits(x));
      }
    }
    unshuffle(ts, n, planes(tmp, ts, n), dst);
  }

  /** The bit shuffle of {@code n} elements (a multiple of 8) at {@code src} into {@code dst}, through {@code tmp}. */
  public static void bitShuffle(int ts, int n, long src, long dst, long tmp) {
    shuffle(ts, n, src, planes(tmp, ts, n));
    int rowBytes = n / 8;
    for (int j = 0; j < ts; j++) {
      long plane = tmp + (long) j * n;
      long rows = dst + (long) j * 8 * rowBytes;
      int b = 0;
      if (LITTLE_ENDIAN) {
        for (; b + 8 <= rowBytes; b += 8) { // the inverse of bitUnshuffle's 64-element step
          long p = plane + 8L * b;
          long d = rows + b;
          transpose64(p, p + 8, p + 16, p + 24, p + 32, p + 40, p + 48, p + 56, d, d + rowBytes, d + 2L * rowBytes,
              d + 3L * rowBytes, d + 4L * rowBytes, d + 5L * rowBytes, d + 6L * rowBytes, d + 7L * rowBytes,
              BYTES_THEN_BITS);
        }
      }
      for (; b < rowBytes; b++) {
        long x = transpose8x8Bits(getLongLe(plane + 8L * b));
        for (int k = 0; k < 8; k++) {
          MemoryUtil.putByte(rows + (long) k * rowBytes + b, (byte) (x >>> (8 * k)));
        }
      }
    }
  }

  private static long getLongLe(long address) {
    long v = MemoryUtil.getLong(address);
    return LITTLE_ENDIAN ? v : Long.reverseBytes(v);
  }

  private static void putLongLe(long address, long v) {
    MemoryUtil.putLong(address, LITTLE_ENDIAN ? v : Long.reverseBytes(v));
  }
}
