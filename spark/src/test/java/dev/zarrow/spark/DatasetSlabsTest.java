package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.grid.Box;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a partition's regions are cut into batches ({@link DatasetScan#slabs}): whole parts, no more cells than a batch holds. */
class DatasetSlabsTest {
  private static final long CAP = DatasetScan.BATCH_CELLS;

  @Test
  void aRegionABatchHoldsStaysWhole() {
    Box b = new Box(new long[] {0, 0}, new long[] {4, CAP / 4});
    assertEquals(List.of(b), DatasetScan.slabs(b, new int[] {1, (int) (CAP / 4)}));
  }

  @Test
  void aShardIsCutAlongItsOutermostDimensionIntoRunsOfWholeParts() {
    // Five days of a half-degree globe in one-day parts (each over the cap): a slab a day.
    int[] day = {24, 361, 720};
    Box shard = new Box(new long[] {120, 0, 0}, new long[] {120, 361, 720});
    List<Box> slabs = DatasetScan.slabs(shard, day);
    assertEquals(5, slabs.size());
    for (int i = 0; i < 5; i++) {
      assertEquals(new Box(new long[] {120 + 24 * i, 0, 0}, new long[] {24, 361, 720}), slabs.get(i));
    }
    // The same on a one-degree globe (1.56M cells a day): as many days as the cap holds, then the rest.
    int[] oneDegree = {24, 181, 360};
    long perDay = 24L * 181 * 360;
    long days = CAP / perDay;
    List<Box> coarse = DatasetScan.slabs(new Box(new long[] {0, 0, 0}, new long[] {120, 181, 360}), oneDegree);
    assertEquals((5 + days - 1) / days, coarse.size());
    assertCovers(new Box(new long[] {0, 0, 0}, new long[] {120, 181, 360}), coarse, oneDegree);
  }

  @Test
  void aRegionOfOnePartAlongTheOuterDimensionIsCutAlongTheNext() {
    // One time step of parts 1 x 512 x 4096 (2M cells) over 1 x 4096 x 4096 cells: cut along y, 2 parts a slab.
    int[] parts = {1, 512, 4096};
    Box b = new Box(new long[] {7, 0, 0}, new long[] {1, 4096, 4096});
    List<Box> slabs = DatasetScan.slabs(b, parts);
    assertEquals(4, slabs.size());
    assertCovers(b, slabs, parts);
  }

  @Test
  void aPartBiggerThanABatchIsNeverSplit() {
    int[] parts = {10, 1000, 1000};
    Box b = new Box(new long[] {0, 0, 0}, new long[] {10, 1000, 1000});
    assertEquals(List.of(b), DatasetScan.slabs(b, parts));
  }

  @Test
  void aRaggedLastPartEndsTheLastSlab() {
    int[] parts = {3, 2_000_000};
    Box b = new Box(new long[] {0, 0}, new long[] {10, 2_000_000}); // parts of 3 rows: 3, 3, 3, then 1
    List<Box> slabs = DatasetScan.slabs(b, parts);
    assertCovers(b, slabs, parts);
    assertEquals(new Box(new long[] {9, 0}, new long[] {1, 2_000_000}), slabs.get(slabs.size() - 1));
  }

  /**
   * {@code slabs} tile {@code whole} in order (inside it, none overlapping another, their cells adding up
   * to its cells), each of whole parts (starts on a part's boundary) and within the cap where a part allows.
   */
  private static void assertCovers(Box whole, List<Box> slabs, int[] parts) {
    long partCells = 1;
    for (int p : parts) {
      partCells *= p;
    }
    long cells = 0;
    for (Box s : slabs) {
      cells += s.size();
      for (int d = 0; d < parts.length; d++) {
        assertEquals(0, s.start(d) % parts[d], s + " starts inside a part along " + d);
        assertTrue(s.start(d) >= whole.start(d) && s.end(d) <= whole.end(d), s + " outside " + whole);
      }
      assertTrue(s.size() <= Math.max(CAP, partCells), s + " holds more than a batch");
    }
    assertEquals(whole.size(), cells);
    for (int i = 1; i < slabs.size(); i++) {
      Box a = slabs.get(i - 1);
      Box b = slabs.get(i);
      assertTrue(Arrays.compare(a.start(), b.start()) < 0, "in order: " + a + " before " + b);
    }
    for (int i = 0; i < slabs.size(); i++) {
      for (int j = i + 1; j < slabs.size(); j++) {
        assertTrue(disjoint(slabs.get(i), slabs.get(j)), slabs.get(i) + " overlaps " + slabs.get(j));
      }
    }
  }

  private static boolean disjoint(Box a, Box b) {
    for (int d = 0; d < a.rank(); d++) {
      if (a.end(d) <= b.start(d) || b.end(d) <= a.start(d)) {
        return true;
      }
    }
    return false;
  }
}
