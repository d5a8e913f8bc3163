package dev.zarrow.internal;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * UTF-8 validation of off-heap memory (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF). Runs of ASCII are skipped sixteen bytes at a time; other bytes go through a shift-based
 * DFA (one table load, shift and mask per byte, no branch on the byte), so text that mixes character
 * widths at random costs no branch mispredictions. Only invalid input pays for a second, slower pass
 * that finds where it goes wrong.
 */
public final class Utf8 {
  private Utf8() {}

  /** {@link #scan} found only ASCII. */
  public static final long ASCII = -1;

  /** {@link #scan} found valid UTF-8 that is not all ASCII. */
  public static final long VALID = -2;

  private static final long HIGH_BITS = 0x8080808080808080L;

  // DFA states, as bit offsets into a transition row: the row of a byte holds, at bits [s, s + 6), the
  // state that follows state s on that byte.
  private static final int ACCEPT = 0; // between characters
  private static final int ERROR = 6; // invalid; never left
  private static final int TAIL1 = 12; // one continuation byte (80..BF) to go
  private static final int TAIL2 = 18; // two to go
  private static final int E0 = 24; // after E0: A0..BF (no overlong), then one
  private static final int ED = 30; // after ED: 80..9F (no surrogate), then one
  private static final int F0 = 36; // after F0: 90..BF (no overlong), then two
  private static final int TAIL3 = 42; // after F1..F3: three to go
  private static final int F4 = 48; // after F4: 80..8F (nothing above U+10FFFF), then two

  private static final long[] ROWS = new long[256];

  static {
    for (int b = 0; b < 256; b++) {
      long row = 0;
      for (int s = 0; s <= F4; s += 6) {
        row |= (long) next(s, b) << s;
      }
      ROWS[b] = row;
    }
  }

  private static int next(int state, int b) {
    if (state == ACCEPT) {
      if (b < 0x80) {
        return ACCEPT;
      }
      if (b >= 0xc2 && b <= 0xdf) {
        return TAIL1;
      }
      if (b == 0xe0) {
        return E0;
      }
      if (b == 0xed) {
        return ED;
      }
      if (b >= 0xe1 && b <= 0xef) {
        return TAIL2;
      }
      if (b == 0xf0) {
        return F0;
      }
      if (b >= 0xf1 && b <= 0xf3) {
        return TAIL3;
      }
      return b == 0xf4 ? F4 : ERROR;
    }
    boolean continuation = b >= 0x80 && b <= 0xbf;
    return switch (state) {
      case TAIL1 -> continuation ? ACCEPT : ERROR;
      case TAIL2 -> continuation ? TAIL1 : ERROR;
      case TAIL3 -> continuation ? TAIL2 : ERROR;
      case E0 -> b >= 0xa0 && b <= 0xbf ? TAIL1 : ERROR;
      case ED -> b >= 0x80 && b <= 0x9f ? TAIL1 : ERROR;
      case F0 -> b >= 0x90 && b <= 0xbf ? TAIL2 : ERROR;
      case F4 -> b >= 0x80 && b <= 0x8f ? TAIL2 : ERROR;
      default -> ERROR;
    };
  }

  /**
   * Checks {@code length} bytes at {@code address}: {@link #ASCII}, {@link #VALID}, or the offset (from
   * {@code address}) of the first byte of the first invalid sequence. The caller keeps the memory alive
   * and guarantees the range is readable.
   */
  public static long scan(long address, long length) {
    long i = 0;
    long state = ACCEPT;
    int seen = 0;
    while (i < length) {
      if (state == ACCEPT && MemoryUtil.LITTLE_ENDIAN) {
        while (i + 16 <= length) {
          long a = MemoryUtil.getLong(address + i);
          long b = MemoryUtil.getLong(address + i + 8);
          if (((a | b) & HIGH_BITS) != 0) {
            break;
          }
          i += 16;
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
      // A stretch through the DFA before trying for ASCII again.
      long end = Math.min(length, i + 64);
      for (; i < end; i++) {
        int b = MemoryUtil.getByte(address + i) & 0xff;
        seen |= b;
        state = (ROWS[b] >>> state) & 63;
      }
      if (state == ERROR) {
        break;
      }
    }
    if (state != ACCEPT) {
      return firstInvalid(address, length);
    }
    return (seen & 0x80) == 0 ? ASCII : VALID;
  }

  /** The offset of the first byte of the first invalid sequence in the range, or -1: slow, for errors. */
  private static long firstInvalid(long address, long length) {
    long i = 0;
    while (i < length) {
      int b0 = MemoryUtil.getByte(address + i) & 0xff;
      if (b0 < 0x80) {
        i++;
        continue;
      }
      long state = (ROWS[b0] >>> ACCEPT) & 63;
      long j = i + 1;
      while (state != ACCEPT && state != ERROR && j < length) {
        state = (ROWS[MemoryUtil.getByte(address + j) & 0xff] >>> state) & 63;
        j++;
      }
      if (state != ACCEPT) {
        return i;
      }
      i = j;
    }
    return -1;
  }

  /** True when the byte at {@code at} continues a multi-byte sequence (so no character starts there). */
  public static boolean isContinuationByte(long at) {
    return (MemoryUtil.getByte(at) & 0xc0) == 0x80;
  }
}
