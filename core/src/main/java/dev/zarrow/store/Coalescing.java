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
 * when the fetched buffer is, so zero-copy decoding still applies). For store implementations: a local
 * store fetches the merged ranges one by one ({@link #readAll}), a network store all at once
 * ({@link #readMerged}), so that they cost one round trip of concurrent requests.
 */
public final class Coalescing {
  /**
   * The largest gap read (and thrown away) to save a request: a request costs far more than 64 KiB of
   * bandwidth on object stores, and about as much as copying it on a local disk.
   */
  static final long MAX_GAP = 64 << 10;
  /** The largest merged request: one buffer. */
  static final long MAX_MERGED = Integer.MAX_VALUE - 64;

  private Coalescing() {}

  /**
   * The bytes of {@code ranges} (already checked against {@code size}), in the given order; {@code read}
   * fetches one merged range.
   */
  public static List<ByteBuffer> readAll(List<ByteRange> ranges, long size, Function<ByteRange, ByteBuffer> read) {
    return readMerged(ranges, size, merged -> merged.stream().map(read).toList());
  }

  /**
   * The bytes of {@code ranges} (already checked against {@code size}), in the given order;
   * {@code readMany} fetches every merged range (in any way: concurrently) and returns their bytes in
   * the order asked.
   */
  public static List<ByteBuffer> readMerged(
      List<ByteRange> ranges, long size, Function<List<ByteRange>, List<ByteBuffer>> readMany) {
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
    // Plan: groups of consecutive (by start) ranges, each fetched as one merged range.
    List<int[]> groups = new ArrayList<>(); // {first, last} positions in order
    List<ByteRange> merged = new ArrayList<>();
    int k = 0;
    while (k < n) {
      long start = starts[order[k]];
      long end = ends[order[k]];
      int last = k;
      while (last + 1 < n) {
        int j = order[last + 1];
        long joined = Math.max(end, ends[j]);
        if (starts[j] - end > MAX_GAP || joined - start > MAX_MERGED) {
          break;
        }
        end = joined;
        last++;
      }
      groups.add(new int[] {k, last});
      merged.add(ByteRange.of(start, end - start));
      k = last + 1;
    }
    List<ByteBuffer> fetched = readMany.apply(merged);
    if (fetched.size() != merged.size()) {
      throw new StoreException("asked for " + merged.size() + " ranges, got " + fetched.size());
    }
    ByteBuffer[] out = new ByteBuffer[n];
    for (int g = 0; g < groups.size(); g++) {
      ByteRange range = merged.get(g);
      long start = range.start(size);
      ByteBuffer bytes = fetched.get(g);
      if (bytes.remaining() != range.length(size)) {
        throw new StoreException("asked for " + range.length(size) + " bytes at " + start + ", got " + bytes.remaining());
      }
      for (int m = groups.get(g)[0]; m <= groups.get(g)[1]; m++) {
        int i = order[m];
        out[i] = bytes.slice(bytes.position() + (int) (starts[i] - start), (int) (ends[i] - starts[i]));
      }
    }
    return new ArrayList<>(Arrays.asList(out));
  }
}
