package dev.zarrow.store;

import dev.zarrow.error.StoreException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Reads many byte ranges of one value with few requests: ranges that touch, overlap or lie at most
 * {@link #MAX_GAP} bytes apart are fetched as one, and each caller's range is a slice of it (writable
 * when the fetched buffer is, so zero-copy decoding still applies).
 */
final class Coalescing {
  /**
   * The largest gap read (and thrown away) to save a request: a request costs far more than 64 KiB of
   * bandwidth on object stores, and about as much as copying it on a local disk.
   */
  static final long MAX_GAP = 64 << 10;
  /** The largest merged request: one buffer. */
  static final long MAX_MERGED = Integer.MAX_VALUE - 64;

  private Coalescing() {}

  /** The bytes of {@code ranges} (already checked against {@code size}), in the given order. */
  static List<ByteBuffer> readAll(List<ByteRange> ranges, long size, Function<ByteRange, ByteBuffer> read) {
    int n = ranges.size();
    long[] starts = new long[n];
    long[] ends = new long[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      starts[i] = ranges.get(i).start(size);
      ends[i] = starts[i] + ranges.get(i).length(size);
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingLong(i -> starts[i]));
    ByteBuffer[] out = new ByteBuffer[n];
    int k = 0;
    while (k < n) {
      long start = starts[order[k]];
      long end = ends[order[k]];
      int last = k;
      while (last + 1 < n) {
        int j = order[last + 1];
        long merged = Math.max(end, ends[j]);
        if (starts[j] - end > MAX_GAP || merged - start > MAX_MERGED) {
          break;
        }
        end = merged;
        last++;
      }
      ByteBuffer bytes = read.apply(ByteRange.of(start, end - start));
      if (bytes.remaining() != end - start) {
        throw new StoreException("asked for " + (end - start) + " bytes at " + start + ", got " + bytes.remaining());
      }
      for (int m = k; m <= last; m++) {
        int i = order[m];
        out[i] = bytes.slice(bytes.position() + (int) (starts[i] - start), (int) (ends[i] - starts[i]));
      }
      k = last + 1;
    }
    return new ArrayList<>(Arrays.asList(out));
  }
}
