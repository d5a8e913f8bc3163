package dev.zarrow.cli;

import dev.zarrow.grid.Box;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a region into boxes that, read one after the other, give its elements in C order, each box at
 * most {@code max(limit, chunk size)} elements and cut at chunk boundaries where it can: so a region
 * of any size streams through bounded memory, and most chunks are decoded once.
 */
final class Slabs {
  private Slabs() {}

  static List<Box> of(Box region, int[] chunkShape, long limit) {
    long chunkSize = 1;
    for (int c : chunkShape) {
      chunkSize *= c;
    }
    List<Box> out = new ArrayList<>();
    split(region, 0, chunkShape, Math.max(limit, chunkSize), out);
    return out;
  }

  /** Splits {@code region} along {@code dim}; every dimension before {@code dim} has extent 1 in it. */
  private static void split(Box region, int dim, int[] chunkShape, long limit, List<Box> out) {
    if (region.size() <= limit) {
      out.add(region);
      return;
    }
    long row = region.size() / region.shape(dim); // elements per index of dim
    long end = region.end(dim);
    long c = chunkShape[dim];
    long start = region.start(dim);
    while (start < end) {
      long stop = Math.min(end, (start / c + 1) * c);
      if ((stop - start) * row <= limit) {
        // Take further whole chunk widths while they fit.
        while (stop < end && (Math.min(end, stop + c) - start) * row <= limit) {
          stop = Math.min(end, stop + c);
        }
        out.add(along(region, dim, start, stop));
      } else {
        for (long k = start; k < stop; k++) {
          split(along(region, dim, k, k + 1), dim + 1, chunkShape, limit, out);
        }
      }
      start = stop;
    }
  }

  private static Box along(Box region, int dim, long from, long to) {
    long[] s = region.start();
    long[] n = region.shape();
    s[dim] = from;
    n[dim] = to - from;
    return new Box(s, n);
  }
}
