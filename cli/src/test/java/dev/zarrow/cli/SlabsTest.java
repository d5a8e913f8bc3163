package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.grid.Box;
import dev.zarrow.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Slabs read one after the other give the region's elements in C order, each slab bounded. */
class SlabsTest {

  /** The flat indices (in an array of {@code shape}) of the elements of {@code box}, in C order. */
  private static void elements(Box box, long[] shape, List<Long> out) {
    int rank = box.rank();
    if (box.size() == 0) {
      return;
    }
    long[] index = box.start();
    while (true) {
      long flat = 0;
      for (int d = 0; d < rank; d++) {
        flat = flat * shape[d] + index[d];
      }
      out.add(flat);
      int d = rank - 1;
      while (d >= 0 && ++index[d] == box.end(d)) {
        index[d] = box.start(d);
        d--;
      }
      if (d < 0) {
        return;
      }
    }
  }

  @Test
  void coverTheRegionInCOrderWithinTheLimit() {
    Random random = Seeds.random("slabs");
    for (int round = 0; round < 300; round++) {
      int rank = random.nextInt(4);
      long[] shape = new long[rank];
      int[] chunks = new int[rank];
      long[] start = new long[rank];
      long[] size = new long[rank];
      long chunkSize = 1;
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + random.nextInt(12);
        chunks[d] = 1 + random.nextInt(5);
        chunkSize *= chunks[d];
        start[d] = random.nextInt((int) shape[d]);
        size[d] = random.nextInt((int) (shape[d] - start[d]) + 1);
      }
      Box region = new Box(start, size);
      long limit = 1 + random.nextInt(40);
      List<Long> expected = new ArrayList<>();
      elements(region, shape, expected);
      List<Long> got = new ArrayList<>();
      for (Box slab : Slabs.of(region, chunks, limit)) {
        assertTrue(slab.size() <= Math.max(limit, chunkSize), slab + " exceeds the limit " + limit);
        elements(slab, shape, got);
      }
      assertEquals(expected, got, "region " + region + " chunks " + java.util.Arrays.toString(chunks) + " limit " + limit);
    }
  }

  @Test
  void cutsAtChunkBoundaries() {
    // 10 x 6 in chunks of 4 x 3, at most 24 elements: rows 0-3, then 4-7, then 8-9.
    List<Box> slabs = Slabs.of(Box.of(10, 6), new int[] {4, 3}, 24);
    assertEquals(List.of(new Box(new long[] {0, 0}, new long[] {4, 6}), new Box(new long[] {4, 0}, new long[] {4, 6}),
        new Box(new long[] {8, 0}, new long[] {2, 6})), slabs);
  }
}
