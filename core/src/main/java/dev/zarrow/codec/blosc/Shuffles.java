package dev.zarrow.codec.blosc;

import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Blosc's byte and bit shuffles on raw memory. Every address and length is the caller's to check: these
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
final class Shuffles {
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
  static void unshuffle(int ts, int n, long[] planes, long dst) {
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
  static void shuffle(int ts, int n, long src, long[] planes) {
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
  static long[] planes(long base, int ts, int n) {
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

  private static int unshuffle8(int n, long[] planes, long dst) {
    int i = 0;
    long[] r = new long[8];
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; j++) {
        r[j] = MemoryUtil.getLong(planes[j] + i);
      }
      transpose8x8Bytes(r);
      long at = dst + 8L * i;
      for (int e = 0; e < 8; e++) {
        MemoryUtil.putLong(at + 8L * e, r[e]);
      }
    }
    return i;
  }

  private static int shuffle8(int n, long src, long[] planes) {
    int i = 0;
    long[] r = new long[8];
    for (; i + 8 <= n; i += 8) {
      long at = src + 8L * i;
      for (int e = 0; e < 8; e++) {
        r[e] = MemoryUtil.getLong(at + 8L * e);
      }
      transpose8x8Bytes(r);
      for (int j = 0; j < 8; j++) {
        MemoryUtil.putLong(planes[j] + i, r[j]);
      }
    }
    return i;
  }

  /** Transposes the 8x8 byte matrix whose row i is {@code r[i]} (byte k of a long is column k). */
  private static void transpose8x8Bytes(long[] r) {
    for (int j = 0; j < 8; j += 2) {
      long t = ((r[j] >>> 8) ^ r[j + 1]) & BYTES;
      r[j + 1] ^= t;
      r[j] ^= t << 8;
    }
    for (int j = 0; j < 8; j += 4) {
      for (int k = j; k < j + 2; k++) {
        long t = ((r[k] >>> 16) ^ r[k + 2]) & SHORTS;
        r[k + 2] ^= t;
        r[k] ^= t << 16;
      }
    }
    for (int k = 0; k < 4; k++) {
      long t = ((r[k] >>> 32) ^ r[k + 4]) & LOW;
      r[k + 4] ^= t;
      r[k] ^= t << 32;
    }
  }

  /** Transposes the 8x8 bit matrix whose row i is byte i of {@code x} (bit k of a byte is column k). */
  static long transpose8x8Bits(long x) {
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
  static void bitUnshuffle(int ts, int n, long[] rows, long dst, long tmp) {
    int rowBytes = n / 8;
    for (int j = 0; j < ts; j++) {
      long plane = tmp + (long) j * n;
      long base = rows[j];
      for (int b = 0; b < rowBytes; b++) {
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
  static void bitShuffle(int ts, int n, long src, long dst, long tmp) {
    shuffle(ts, n, src, planes(tmp, ts, n));
    int rowBytes = n / 8;
    for (int j = 0; j < ts; j++) {
      long plane = tmp + (long) j * n;
      long rows = dst + (long) j * 8 * rowBytes;
      for (int b = 0; b < rowBytes; b++) {
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
