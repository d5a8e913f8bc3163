package dev.zarrow.codec.blosc;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The BloscLZ decoder (c-blosc's own LZ77 format, a FastLZ variant), from its format:
 *
 * <pre>
 * stream  := ctrl0 item*                 ctrl0's low 5 bits are the first control (its top 3 bits are ignored)
 * item    := literal | match
 * literal := ctrl (0-31) byte[ctrl + 1]
 * match   := ctrl (32-255) ext* code far?
 *            len  = (ctrl &gt;&gt; 5) + 2, plus the ext bytes when ctrl &gt;&gt; 5 is 7 (ext bytes continue while 255)
 *            dist = (ctrl &amp; 31) * 256 + code + 1, or when that part is 31 * 256 + 255:
 *            far  := hi lo                dist = 8191 + (hi * 256 + lo) + 1
 * the next control follows each item; the stream ends where the input does (after a literal: a match
 * that the input ends right after is not copied, as c-blosc does not)
 * </pre>
 *
 * A match copies {@code len} bytes from {@code dist} back, byte after byte (it may overlap what it writes).
 */
final class BloscLz {
  private static final int MAX_DISTANCE = 8191;

  private BloscLz() {}

  /**
   * Decodes {@code length} bytes at {@code src} into at most {@code max} bytes at {@code dst}; returns the
   * bytes written, or -1 when the stream is malformed or would write past {@code max}.
   */
  static int decompress(long src, int length, long dst, int max) {
    if (length == 0) {
      return 0;
    }
    long ip = src;
    long ipEnd = src + length;
    long op = dst;
    long opEnd = dst + max;
    int ctrl = MemoryUtil.getByte(ip++) & 31;
    while (true) {
      if (ctrl >= 32) {
        long len = (ctrl >>> 5) - 1;
        long ofs = (long) (ctrl & 31) << 8;
        if (len == 6) {
          int code;
          do {
            if (ip + 1 >= ipEnd) {
              return -1;
            }
            code = MemoryUtil.getByte(ip++) & 0xff;
            len += code;
          } while (code == 255);
        } else if (ip + 1 >= ipEnd) {
          return -1;
        }
        int code = MemoryUtil.getByte(ip++) & 0xff;
        len += 3;
        long dist = ofs + code + 1;
        if (code == 255 && ofs == 31 << 8) {
          if (ip + 1 >= ipEnd) {
            return -1;
          }
          long far = ((MemoryUtil.getByte(ip) & 0xffL) << 8) | (MemoryUtil.getByte(ip + 1) & 0xffL);
          ip += 2;
          dist = far + MAX_DISTANCE + 1;
        }
        if (len > opEnd - op || dist > op - dst) {
          return -1;
        }
        if (ip >= ipEnd) {
          break;
        }
        ctrl = MemoryUtil.getByte(ip++) & 0xff;
        copyMatch(op, dist, len);
        op += len;
      } else {
        int run = ctrl + 1;
        if (run > opEnd - op || run > ipEnd - ip) {
          return -1;
        }
        MemoryUtil.copyMemory(ip, op, run);
        op += run;
        ip += run;
        if (ip >= ipEnd) {
          break;
        }
        ctrl = MemoryUtil.getByte(ip++) & 0xff;
      }
    }
    return (int) (op - dst);
  }

  /** Copies {@code len} bytes from {@code dist} before {@code op} to {@code op}, as a byte loop would. */
  private static void copyMatch(long op, long dist, long len) {
    if (dist == 1) {
      MemoryUtil.setMemory(op, len, MemoryUtil.getByte(op - 1));
    } else if (dist >= len) {
      MemoryUtil.copyMemory(op - dist, op, len);
    } else {
      // Overlapping: the pattern of dist bytes repeats; copy it in growing pieces that never overlap.
      long done = 0;
      while (done < len) {
        long n = Math.min(dist + done, len - done);
        MemoryUtil.copyMemory(op - dist, op + done, n);
        done += n;
      }
    }
  }
}
