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
 *
 * <p>The encoder ({@link #compress}) writes what c-blosc 1.21's BloscLZ writes, with its heuristics, so that
 * chunks compress to about the same size: it first estimates the ratio on the last quarter of the input
 * (at most 4 KiB of it) and gives up (returns 0: the caller stores the input as it is) below the
 * level's threshold; then a greedy LZ77 pass with a hash of the next 4 bytes (2^12 to 2^14 entries by
 * level) takes the match each hash points at when at least 4 bytes agree and the match, less 3 or 4
 * bytes, is long enough (far matches need more); literals in runs of at most 32.
 */
final class BloscLz {
  private static final int MAX_DISTANCE = 8191;
  private static final int MAX_FAR_DISTANCE = 65535 + MAX_DISTANCE - 1;
  private static final int MAX_COPY = 32;
  private static final int HASH_LOG = 14;
  private static final int PROBE_HASH_LOG = 12;
  /** The least estimated ratio worth compressing at each level (below it the block is stored). */
  private static final double[] MIN_RATIO = {0, 2, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0};
  private static final int[] LEVEL_HASH_LOG = {0, HASH_LOG - 2, HASH_LOG - 1, HASH_LOG, HASH_LOG, HASH_LOG, HASH_LOG,
      HASH_LOG, HASH_LOG, HASH_LOG};

  /** The hash tables of one encoder, reused from stream to stream (one thread at a time). */
  static final class Tables {
    final int[] hash = new int[1 << HASH_LOG];
    final int[] probe = new int[1 << PROBE_HASH_LOG];
  }

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

  /**
   * Compresses {@code length} bytes at {@code src} into at most {@code maxout} bytes at {@code dst} at
   * level {@code clevel} (1-9); {@code split}: the block was split into one stream per byte of the
   * element. Returns the compressed size, or 0 when the input does not compress well enough or the
   * output does not fit.
   */
  static int compress(int clevel, long src, int length, long dst, int maxout, boolean split, Tables tables) {
    if (length < 16 || maxout < 66) {
      return 0;
    }
    int probed = length / 4;
    double ratio = estimateRatio(src + (length - probed), Math.min(probed, 1 << PROBE_HASH_LOG), tables.probe);
    if (ratio < MIN_RATIO[clevel]) {
      return 0;
    }
    // Short matches cost time to decode: with the bytes split (and data that compresses well) they start at 4 bytes.
    int shift = !split || ratio < 4 ? 3 : 4;
    int minLength = shift;
    int hashLog = LEVEL_HASH_LOG[clevel];
    int[] table = tables.hash;
    java.util.Arrays.fill(table, 0, 1 << hashLog, 0);
    int bound = length - 1;
    int limit = length - 12;
    long op = dst;
    long opLimit = dst + maxout;
    MemoryUtil.putByte(op++, (byte) (MAX_COPY - 1));
    MemoryUtil.copyMemory(src, op, 4);
    op += 4;
    int copy = 4;
    int ip = 4;
    while (ip < limit) {
      int anchor = ip;
      int seq = MemoryUtil.getInt(src + ip);
      int h = hash(seq, hashLog);
      int distance = anchor - table[h];
      table[h] = anchor;
      int length3 = -1;
      if (distance != 0 && distance < MAX_FAR_DISTANCE && MemoryUtil.getInt(src + anchor - distance) == seq) {
        int end = matchEnd(src, anchor + 4, bound, distance);
        length3 = end - shift - anchor; // the match is length3 + 2 bytes long
        if (length3 < minLength || (length3 <= 5 && distance - 1 >= MAX_DISTANCE)) {
          length3 = -1;
        }
      }
      if (length3 < 0) { // a literal
        if (op + 2 > opLimit) {
          return 0;
        }
        MemoryUtil.putByte(op++, MemoryUtil.getByte(src + anchor));
        ip = anchor + 1;
        if (++copy == MAX_COPY) {
          copy = 0;
          MemoryUtil.putByte(op++, (byte) (MAX_COPY - 1));
        }
        continue;
      }
      if (copy > 0) {
        MemoryUtil.putByte(op - copy - 1, (byte) (copy - 1)); // the literal run's real count
      } else {
        op--; // no literal run before this match: drop its control byte
      }
      copy = 0;
      op = encodeMatch(op, opLimit, length3, distance - 1);
      if (op < 0) {
        return 0;
      }
      ip = anchor + length3;
      int next = MemoryUtil.getInt(src + ip);
      table[hash(next, hashLog)] = ip++;
      if (clevel == 9) {
        table[hash(next >>> 8, hashLog)] = ip;
      }
      ip++;
      if (op + 1 > opLimit) {
        return 0;
      }
      MemoryUtil.putByte(op++, (byte) (MAX_COPY - 1));
    }
    while (ip <= bound) { // the rest as literals
      if (op + 2 > opLimit) {
        return 0;
      }
      MemoryUtil.putByte(op++, MemoryUtil.getByte(src + ip++));
      if (++copy == MAX_COPY) {
        copy = 0;
        MemoryUtil.putByte(op++, (byte) (MAX_COPY - 1));
      }
    }
    if (copy > 0) {
      MemoryUtil.putByte(op - copy - 1, (byte) (copy - 1));
    } else {
      op--;
    }
    MemoryUtil.putByte(dst, (byte) (MemoryUtil.getByte(dst) | (1 << 5))); // the format's marker in the first byte
    return (int) (op - dst);
  }

  private static int hash(int seq, int log) {
    return (int) (((seq & 0xffffffffL) * 2654435761L & 0xffffffffL) >>> (32 - log));
  }

  /**
   * Where the comparison of the bytes from {@code p} with those {@code distance} before stops, as
   * c-blosc's does: one past the first byte that differs, or {@code bound} when none before it does.
   */
  private static int matchEnd(long src, int p, int bound, int distance) {
    while (p + 8 < bound && MemoryUtil.getLong(src + p) == MemoryUtil.getLong(src + p - distance)) {
      p += 8;
    }
    while (p < bound) {
      if (MemoryUtil.getByte(src + p) != MemoryUtil.getByte(src + p - distance)) {
        return p + 1;
      }
      p++;
    }
    return bound;
  }

  /**
   * Writes a match of {@code length3 + 2} bytes at biased distance {@code distance} (the real one less
   * one); returns the new output position, or -1 when it does not fit before {@code opLimit}.
   */
  private static long encodeMatch(long op, long opLimit, int length3, int distance) {
    boolean far = distance >= MAX_DISTANCE;
    int d = far ? distance - MAX_DISTANCE : distance;
    int high = far ? 31 : d >>> 8;
    int code = far ? 255 : d & 255;
    int extra = length3 >= 7 ? (length3 - 7) / 255 + 1 : 0;
    if (op + 1 + extra + 1 + (far ? 2 : 0) > opLimit) {
      return -1;
    }
    if (length3 < 7) {
      MemoryUtil.putByte(op++, (byte) ((length3 << 5) + high));
    } else {
      MemoryUtil.putByte(op++, (byte) ((7 << 5) + high));
      int rest = length3 - 7;
      for (; rest >= 255; rest -= 255) {
        MemoryUtil.putByte(op++, (byte) 255);
      }
      MemoryUtil.putByte(op++, (byte) rest);
    }
    MemoryUtil.putByte(op++, (byte) code);
    if (far) {
      MemoryUtil.putByte(op++, (byte) (d >>> 8));
      MemoryUtil.putByte(op++, (byte) d);
    }
    return op;
  }

  /**
   * c-blosc's estimate of the compression ratio of {@code limit} bytes at {@code src}: the same greedy
   * pass (a 2^12 hash, matches from 3 bytes), counting output bytes instead of writing them.
   */
  private static double estimateRatio(long src, int limit, int[] table) {
    java.util.Arrays.fill(table, 0);
    int bound = limit - 1;
    int end = limit - 12;
    long out = 5;
    int copy = 4;
    int ip = 0;
    while (ip < end) {
      int anchor = ip;
      int seq = MemoryUtil.getInt(src + ip);
      int h = hash(seq, PROBE_HASH_LOG);
      int distance = anchor - table[h];
      table[h] = anchor;
      int length3 = -1;
      if (distance != 0 && MemoryUtil.getInt(src + anchor - distance) == seq) {
        length3 = matchEnd(src, anchor + 4, bound, distance) - 3 - anchor;
        if (length3 < 3) {
          length3 = -1;
        }
      }
      if (length3 < 0) {
        out++;
        ip = anchor + 1;
        if (++copy == MAX_COPY) {
          copy = 0;
          out++;
        }
        continue;
      }
      if (copy == 0) {
        out--;
      }
      copy = 0;
      out += (length3 >= 7 ? (length3 - 7) / 255 + 1 : 0) + (distance - 1 < MAX_DISTANCE ? 2 : 4);
      ip = anchor + length3;
      table[hash(MemoryUtil.getInt(src + ip), PROBE_HASH_LOG)] = ip;
      ip += 2;
      out++;
    }
    return ip / (double) out;
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
