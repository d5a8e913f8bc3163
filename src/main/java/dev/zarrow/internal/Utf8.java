package dev.zarrow.internal;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * UTF-8 validation of off-heap memory (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF). Runs of ASCII are skipped eight bytes at a time, so ASCII text costs about as much as
 * reading it.
 */
public final class Utf8 {
  private Utf8() {}

  /** {@link #scan} found only ASCII. */
  public static final long ASCII = -1;

  /** {@link #scan} found valid UTF-8 that is not all ASCII. */
  public static final long VALID = -2;

  private static final long HIGH_BITS = 0x8080808080808080L;

  /**
   * Checks {@code length} bytes at {@code address}: {@link #ASCII}, {@link #VALID}, or the offset (from
   * {@code address}) of the first byte of the first invalid sequence. The caller keeps the memory alive
   * and guarantees the range is readable.
   */
  public static long scan(long address, long length) {
    long i = 0;
    boolean ascii = true;
    while (i < length) {
      if (MemoryUtil.LITTLE_ENDIAN) {
        // Two words per step while all is ASCII; on a miss, jump straight to the first high byte.
        while (i + 16 <= length) {
          long a = MemoryUtil.getLong(address + i);
          long b = MemoryUtil.getLong(address + i + 8);
          if (((a | b) & HIGH_BITS) != 0) {
            break;
          }
          i += 16;
        }
        if (i >= length) {
          break;
        }
        if (i + 8 <= length) {
          long high = MemoryUtil.getLong(address + i) & HIGH_BITS;
          if (high == 0) {
            i += 8;
            continue;
          }
          i += Long.numberOfTrailingZeros(high) >>> 3;
        }
      }
      int b0 = MemoryUtil.getByte(address + i) & 0xff;
      if (b0 < 0x80) {
        i++;
        continue;
      }
      ascii = false;
      int n = sequenceLength(address + i, length - i, b0);
      if (n < 0) {
        return i;
      }
      i += n;
    }
    return ascii ? ASCII : VALID;
  }

  /** The length of the valid multi-byte sequence starting with {@code b0} at {@code at}, or -1. */
  private static int sequenceLength(long at, long remaining, int b0) {
    if (b0 < 0xc2) {
      return -1; // a continuation byte, or an overlong two-byte lead
    }
    if (b0 < 0xe0) {
      return remaining >= 2 && isContinuation(at + 1) ? 2 : -1;
    }
    if (b0 < 0xf0) {
      if (remaining < 3) {
        return -1;
      }
      int b1 = MemoryUtil.getByte(at + 1) & 0xff;
      int lo = b0 == 0xe0 ? 0xa0 : 0x80; // overlong
      int hi = b0 == 0xed ? 0x9f : 0xbf; // surrogates
      return b1 >= lo && b1 <= hi && isContinuation(at + 2) ? 3 : -1;
    }
    if (b0 < 0xf5) {
      if (remaining < 4) {
        return -1;
      }
      int b1 = MemoryUtil.getByte(at + 1) & 0xff;
      int lo = b0 == 0xf0 ? 0x90 : 0x80; // overlong
      int hi = b0 == 0xf4 ? 0x8f : 0xbf; // above U+10FFFF
      return b1 >= lo && b1 <= hi && isContinuation(at + 2) && isContinuation(at + 3) ? 4 : -1;
    }
    return -1;
  }

  private static boolean isContinuation(long at) {
    return (MemoryUtil.getByte(at) & 0xc0) == 0x80;
  }

  /** True when the byte at {@code at} continues a multi-byte sequence (so no character starts there). */
  public static boolean isContinuationByte(long at) {
    return isContinuation(at);
  }
}
