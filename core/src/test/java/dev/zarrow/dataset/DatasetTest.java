package dev.zarrow.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.grid.Box;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.DirectMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets zarrow writes itself (v3 {@code dimension_names}): broadcasting of lower-rank and permuted
 * variables against a naive index computation, chunk lists, dimension values, and bad input refused
 * with the arrays named.
 */
@ExtendWith(AllocatorExtension.class)
class DatasetTest {
  private static ZarrArray array(ZarrGroup g, String name, List<String> dims, long[] shape, int[] chunks, ObjectNode attrs,
      BufferAllocator allocator) {
    ZarrArray a = g.createArray(name, ArraySpec.of(FixedType.FLOAT64, shape).chunks(chunks).dimensionNames(dims)
        .attributes(attrs == null ? JsonNodeFactory.instance.objectNode() : attrs));
    int n = (int) a.size();
    try (Float8Vector v = new Float8Vector(name, allocator)) {
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, name.hashCode() % 97 + i * 0.5);
      }
      v.setValueCount(n);
      a.write(new Box(new long[shape.length], shape), v);
    }
    return a;
  }

  @Test
  void lowerRankAndPermutedVariablesBroadcastAsNumpyDoes(BufferAllocator allocator) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrGroup g = Zarr.createGroup(store, "ds");
    array(g, "a", List.of("t", "y", "x"), new long[] {5, 4, 3}, new int[] {2, 3, 2}, null, allocator);
    array(g, "b", List.of("x", "y"), new long[] {3, 4}, new int[] {3, 1}, null, allocator); // transposed, other chunks
    array(g, "c", List.of("t"), new long[] {5}, new int[] {4}, null, allocator);
    array(g, "y", List.of("y"), new long[] {4}, new int[] {4}, null, allocator);
    DatasetTable table = Dataset.open(g).table();
    assertEquals(List.of("t", "y", "x"), table.dimensions());
    assertEquals(3 * 2 * 2, table.chunkCount());
    double[] a = values(g.array("a"), allocator);
    double[] b = values(g.array("b"), allocator);
    double[] c = values(g.array("c"), allocator);
    double[] y = values(g.array("y"), allocator);
    int rows = 0;
    try (DatasetReader reader = table.reader(allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      assertEquals(List.of("t", "y", "x", "a", "b", "c"), root.getSchema().getFields().stream().map(f -> f.getName()).toList());
      while (reader.loadNextBatch()) {
        for (int r = 0; r < root.getRowCount(); r++, rows++) {
          int t = (int) (long) root.getVector("t").getObject(r);
          int yi = -1;
          double yv = (Double) root.getVector("y").getObject(r);
          for (int k = 0; k < 4; k++) {
            if (y[k] == yv) {
              yi = k;
            }
          }
          int x = (int) (long) root.getVector("x").getObject(r);
          assertEquals(a[t * 12 + yi * 3 + x], root.getVector("a").getObject(r));
          assertEquals(b[x * 4 + yi], root.getVector("b").getObject(r));
          assertEquals(c[t], root.getVector("c").getObject(r));
        }
      }
    }
    assertEquals(60, rows);
    // a chunk list reads those chunks, in the order given; dimension values for planning
    try (DatasetReader reader = table.reader(allocator, List.of(new long[] {1, 1, 0}, new long[] {0, 0, 1}))) {
      List<Integer> sizes = new ArrayList<>();
      while (reader.loadNextBatch()) {
        sizes.add(reader.getVectorSchemaRoot().getRowCount());
      }
      assertEquals(List.of(2 * 1 * 2, 2 * 3 * 1), sizes);
    }
    try (var t = table.dimensionValues("t", allocator)) {
      assertEquals(5, t.getValueCount());
      assertEquals(4L, t.getObject(4));
    }
  }

  @Test
  void readersBorrowingScratchBuffersDecodeIntoTheMemoryTheEarlierOnesUsed(BufferAllocator allocator) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrGroup g = Zarr.createGroup(store, "ds");
    array(g, "a", List.of("t", "y", "x"), new long[] {6, 4, 3}, new int[] {2, 4, 3}, null, allocator);
    DatasetTable table = Dataset.open(g).table();
    List<Box> regions = List.of(new Box(new long[] {2, 0, 0}, new long[] {4, 4, 3}));
    List<Object> expected = rows(table.regionReader(allocator, regions));
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "tasks")) {
      assertEquals(expected, rows(table.regionReader(allocator, regions, scratch)));
      long kept = scratch.allocator().getAllocatedMemory();
      assertTrue(kept > 0, "the decoded chunks' memory outlives the reader");
      long peak = scratch.allocator().getPeakMemoryAllocation();
      for (int i = 0; i < 3; i++) {
        assertEquals(expected, rows(table.regionReader(allocator, regions, scratch)));
      }
      assertEquals(kept, scratch.allocator().getAllocatedMemory(), "later readers decode into the same buffers");
      assertEquals(peak, scratch.allocator().getPeakMemoryAllocation(), "no more memory than the first reader took");
    }
  }

  /**
   * A region of part of a shard, read with scratch memory as an engine's tasks read them: the inner
   * chunks stored side by side come in one read into the memory the scratch lends, not into a fresh
   * buffer each time (the bytes of 20 reads stay below one read's); those with a gap between them
   * (a column of a 2 x 2 grid of inner chunks) are fetched as before. Both read what a reader without
   * scratch reads.
   */
  @Test
  void partsOfShardsReadTheirBytesIntoScratchMemory(@TempDir Path dir, BufferAllocator allocator)
      throws Exception {
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      ZarrGroup g = Zarr.createGroup(store, "ds");
      long[] shape = {4, 256, 256};
      ZarrArray a = g.createArray("a", ArraySpec.of(FixedType.FLOAT64, shape).chunks(4, 256, 256).dimensionNames(List.of("t", "y", "x"))
          .codecs(List.of(ArraySpec.shardingIndexed(new int[] {1, 128, 256}, List.of(ArraySpec.bytes("little"))))));
      try (Float8Vector v = new Float8Vector("a", allocator)) {
        int n = (int) a.size();
        v.allocateNew(n);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
          v.set(i, random.nextDouble()); // incompressible: each inner chunk's bytes are its values
        }
        v.setValueCount(n);
        a.write(new Box(new long[3], shape), v);
      }
      DatasetTable table = Dataset.open(g).table();
      Box adjacent = new Box(new long[] {1, 0, 0}, new long[] {2, 256, 256}); // inner chunks 2-5: one span
      Box gapped = new Box(new long[] {0, 64, 0}, new long[] {4, 128, 256}); // halves of all 8
      long regionBytes = 2L * 256 * 256 * 8;
      try (ScratchBuffers scratch = new ScratchBuffers(allocator, "tasks")) {
        for (Box region : List.of(adjacent, gapped)) {
          assertEquals(rows(table.regionReader(allocator, List.of(region))), rows(table.regionReader(allocator, List.of(region), scratch)),
              region.toString());
        }
        rows(table.regionReader(allocator, List.of(adjacent), scratch));
        long before = DirectMemory.used();
        for (int i = 0; i < 20; i++) {
          rows(table.regionReader(allocator, List.of(adjacent), scratch));
        }
        long grew = DirectMemory.used() - before;
        assertTrue(grew < regionBytes, "20 reads of " + regionBytes + " stored bytes took " + grew + " bytes of fresh direct memory");
      }
    }
  }

  /** Every row of {@code reader}'s batches as a list of values; closes the reader. */
  private static List<Object> rows(DatasetReader reader) throws Exception {
    List<Object> out = new ArrayList<>();
    try (reader) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        for (int r = 0; r < root.getRowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (var v : root.getFieldVectors()) {
            row.add(v.getObject(r));
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  private static double[] values(ZarrArray array, BufferAllocator allocator) {
    try (var nd = array.read(allocator)) {
      Float8Vector v = (Float8Vector) nd.vector();
      double[] out = new double[v.getValueCount()];
      for (int i = 0; i < out.length; i++) {
        out[i] = v.get(i);
      }
      return out;
    }
  }

  @Test
  void timesDecodeAndBadUnitsAreDataErrorsNamingTheArray(BufferAllocator allocator) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrGroup g = Zarr.createGroup(store, "ds");
    array(g, "time", List.of("time"), new long[] {3}, new int[] {3},
        JsonNodeFactory.instance.objectNode().put("units", "hours since 2000-01-01T06:00:00+01:00"), allocator);
    array(g, "v", List.of("time"), new long[] {3}, new int[] {3}, null, allocator);
    DatasetTable table = Dataset.open(g).table();
    try (DatasetReader reader = table.reader(allocator)) {
      reader.loadNextBatch();
      TimeStampVector t = (TimeStampVector) reader.getVectorSchemaRoot().getVector("time");
      double first = values(g.array("time"), allocator)[0];
      // 2000-01-01T05:00Z plus the stored hours
      assertEquals(946702800_000_000L + (long) (first * 3_600_000_000L), t.get(0));
    }
    for (String units : List.of("fortnights since 2000-01-01", "days since yesterday")) {
      ZarrGroup bad = Zarr.createGroup(store, "bad" + units.length());
      array(bad, "time", List.of("time"), new long[] {3}, new int[] {3}, JsonNodeFactory.instance.objectNode().put("units", units),
          allocator);
      ZarrException e = assertThrows(MetadataException.class, () -> Dataset.open(bad).table());
      assertTrue(e.getMessage().contains("'bad" + units.length() + "/time'") && e.getMessage().contains(units), e.getMessage());
    }
  }

  @Test
  void badDatasetsAreRefusedNamingTheArrays(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrGroup none = Zarr.createGroup(store, "none");
    none.createArray("plain", ArraySpec.of(FixedType.FLOAT64, 3));
    assertTrue(!Dataset.isDataset(none));
    assertThrows(ZarrException.class, () -> Dataset.open(none));

    ZarrGroup lengths = Zarr.createGroup(store, "lengths");
    array(lengths, "a", List.of("x"), new long[] {3}, new int[] {3}, null, allocator);
    array(lengths, "b", List.of("x"), new long[] {4}, new int[] {4}, null, allocator);
    ZarrException e = assertThrows(MetadataException.class, () -> Dataset.open(lengths));
    assertTrue(e.getMessage().contains("dimension 'x' has length 3 in array 'a' and 4 in array 'b'"), e.getMessage());

    ZarrGroup coordinates = Zarr.createGroup(store, "coordinates");
    array(coordinates, "a", List.of("x"), new long[] {3}, new int[] {3},
        JsonNodeFactory.instance.objectNode().put("coordinates", "lat lon"), allocator);
    array(coordinates, "lat", List.of("x"), new long[] {3}, new int[] {3}, null, allocator);
    e = assertThrows(MetadataException.class, () -> Dataset.open(coordinates));
    assertTrue(e.getMessage().contains("array 'a' names coordinate 'lon'"), e.getMessage());
  }
}
