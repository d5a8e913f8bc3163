package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.error.ChecksumException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.RecordingStore;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Arrays as Arrow streams: batch boundaries, clipped edges, tensors, dictionaries, memory, corruption. */
@ExtendWith(AllocatorExtension.class)
class ArrayReaderTest {
  private final MemoryStore store = new MemoryStore();

  private ZarrArray int32s(String path, int n, int chunk, BufferAllocator allocator) {
    return int32s(store, path, n, chunk, allocator);
  }

  private static ZarrArray int32s(MemoryStore store, String path, int n, int chunk, BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(store, path, ArraySpec.of(FixedType.INT32, n).chunks(chunk)
        .compressors(List.of(ArraySpec.zstd(1), ArraySpec.crc32c())));
    try (IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i * 3 - 7);
      }
      v.setValueCount(n);
      array.write(0, v);
    }
    return array;
  }

  /** Batch sizes and values of the whole stream; checks every value against i * 3 - 7. */
  private static List<Integer> batches(ZarrArray array, BufferAllocator allocator, int batchRows) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    try (ArrayReader reader = ArrayReader.of(array, allocator, batchRows)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      long row = 0;
      while (reader.loadNextBatch()) {
        IntVector v = (IntVector) root.getVector(0);
        for (int i = 0; i < root.getRowCount(); i++, row++) {
          assertEquals(row * 3 - 7, v.get(i), "row " + row);
        }
        sizes.add(root.getRowCount());
      }
      assertFalse(reader.loadNextBatch(), "stays at the end");
    }
    return sizes;
  }

  @Test
  void aBatchPerChunkWithTheEdgeChunkClipped(BufferAllocator allocator) throws Exception {
    ZarrArray array = int32s("a", 10, 4, allocator);
    assertEquals(List.of(4, 4, 2), batches(array, allocator, 0));
  }

  @Test
  void batchesOfNRowsAcrossChunkEdges(BufferAllocator allocator) throws Exception {
    ZarrArray array = int32s("a", 10, 4, allocator);
    assertEquals(List.of(3, 3, 3, 1), batches(array, allocator, 3));
    assertEquals(List.of(5, 5), batches(array, allocator, 5));
    assertEquals(List.of(10), batches(array, allocator, 100));
  }

  @Test
  void schemaNamesTheColumnAfterTheArray(BufferAllocator allocator) throws Exception {
    ZarrArray root = int32s(new MemoryStore(), "", 3, 2, allocator); // nothing nests in a root array
    ZarrArray named = int32s("g/temps", 3, 2, allocator);
    try (ArrayReader a = ArrayReader.of(root, allocator); ArrayReader b = ArrayReader.of(named, allocator)) {
      assertEquals("array", a.getVectorSchemaRoot().getSchema().getFields().get(0).getName());
      assertEquals("temps", b.getVectorSchemaRoot().getSchema().getFields().get(0).getName());
      assertEquals(new ArrowType.Int(32, true), b.getVectorSchemaRoot().getSchema().getFields().get(0).getType());
    }
  }

  @Test
  void aZeroDimensionalArrayIsOneRow(BufferAllocator allocator) throws Exception {
    ZarrArray array = Zarr.createArray(store, "scalar", ArraySpec.of(FixedType.INT32));
    try (IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(1);
      v.set(0, 42);
      v.setValueCount(1);
      array.write(Box.of(new long[0]), v);
    }
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      assertTrue(reader.loadNextBatch());
      assertEquals(1, reader.getVectorSchemaRoot().getRowCount());
      assertEquals(42, ((IntVector) reader.getVectorSchemaRoot().getVector(0)).get(0));
      assertFalse(reader.loadNextBatch());
    }
  }

  @Test
  void emptyArrayHasNoBatches(BufferAllocator allocator) throws Exception {
    ZarrArray array = Zarr.createArray(store, "e", ArraySpec.of(FixedType.INT32, 0).chunks(4));
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      assertEquals(1, reader.getVectorSchemaRoot().getSchema().getFields().size());
      assertFalse(reader.loadNextBatch());
    }
  }

  @Test
  void rank2ArraysAreFixedShapeTensorRows(BufferAllocator allocator) throws Exception {
    for (int[] chunks : new int[][] {{2, 3}, {2, 2}, {4, 1}}) {
      ZarrArray array = Zarr.createArray(store, "t", ArraySpec.of(FixedType.FLOAT64, 5, 3).chunks(chunks));
      try (var values = new org.apache.arrow.vector.Float8Vector("v", allocator)) {
        values.allocateNew(15);
        for (int i = 0; i < 15; i++) {
          values.set(i, i + 0.5);
        }
        values.setValueCount(15);
        array.write(new long[] {0, 0}, new NdVector(values, new long[] {5, 3}));
      }
      List<Integer> sizes = new ArrayList<>();
      try (ArrayReader reader = ArrayReader.of(array, allocator)) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        Field field = root.getSchema().getFields().get(0);
        assertEquals(new ArrowType.FixedSizeList(3), field.getType());
        assertEquals(Map.of("ARROW:extension:name", "arrow.fixed_shape_tensor", "ARROW:extension:metadata", "{\"shape\":[3]}"),
            field.getMetadata());
        assertEquals(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE),
            field.getChildren().get(0).getType());
        int row = 0;
        while (reader.loadNextBatch()) {
          FixedSizeListVector rows = (FixedSizeListVector) root.getVector(0);
          for (int r = 0; r < root.getRowCount(); r++, row++) {
            assertEquals(List.of(row * 3 + 0.5, row * 3 + 1.5, row * 3 + 2.5), rows.getObject(r), "row " + row + " chunks " + chunks[0] + "," + chunks[1]);
          }
          sizes.add(root.getRowCount());
        }
      }
      assertEquals(chunks[0] == 2 ? List.of(2, 2, 1) : List.of(4, 1), sizes);
    }
  }

  @Test
  void tensorShapeMetadataListsEveryTrailingDimension(BufferAllocator allocator) throws Exception {
    ZarrArray array = Zarr.createArray(store, "t3", ArraySpec.of(FixedType.INT8, 2, 3, 4).chunks(1, 3, 4));
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      Field field = reader.getVectorSchemaRoot().getSchema().getFields().get(0);
      assertEquals("{\"shape\":[3,4]}", field.getMetadata().get("ARROW:extension:metadata"));
      assertEquals(new ArrowType.FixedSizeList(12), field.getType());
      assertTrue(reader.loadNextBatch());
      FixedSizeListVector rows = (FixedSizeListVector) reader.getVectorSchemaRoot().getVector(0);
      assertEquals(1, rows.getValueCount());
      assertEquals(12, rows.getDataVector().getValueCount());
      assertEquals((byte) 0, rows.getObject(0).get(5)); // fill value
    }
  }

  @Test
  void memoryStaysBoundedByBatchesNotTheArray(BufferAllocator allocator) throws Exception {
    int n = 1 << 20; // 4 MiB of int32
    ZarrArray array = int32s("big", n, 1 << 14, allocator); // 64 KiB chunks
    long limit = 1 << 20; // a quarter of the array
    long sum = 0;
    long expected = 0;
    for (long i = 0; i < n; i++) {
      expected += i * 3 - 7;
    }
    try (BufferAllocator small = allocator.newChildAllocator("bounded", 0, limit);
        ArrayReader reader = ArrayReader.of(array, small)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        IntVector v = (IntVector) root.getVector(0);
        for (int i = 0; i < root.getRowCount(); i++) {
          sum += v.get(i);
        }
        assertTrue(small.getPeakMemoryAllocation() <= limit);
      }
    }
    assertEquals(expected, sum);
  }

  @Test
  void closingAfterPartialConsumptionReleasesEverything(BufferAllocator allocator) throws Exception {
    ZarrArray array = int32s("p", 1000, 10, allocator);
    try (BufferAllocator child = allocator.newChildAllocator("partial", 0, Long.MAX_VALUE)) {
      ArrayReader reader = ArrayReader.of(array, child);
      assertTrue(reader.loadNextBatch());
      assertTrue(reader.loadNextBatch());
      assertTrue(child.getAllocatedMemory() > 0);
      reader.close();
      assertEquals(0, child.getAllocatedMemory(), child.toVerboseString());
    }
  }

  @Test
  void aCorruptChunkMidStreamNamesTheChunk(BufferAllocator allocator) throws Exception {
    ZarrArray array = int32s("bad", 30, 10, allocator);
    ByteBuffer stored = store.get("bad/c/1").orElseThrow();
    byte[] bytes = new byte[stored.remaining()];
    stored.get(bytes);
    bytes[bytes.length / 2] ^= 0x40;
    store.set("bad/c/1", ByteBuffer.wrap(bytes));
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      assertTrue(reader.loadNextBatch());
      assertEquals(10, reader.getVectorSchemaRoot().getRowCount());
      ZarrException e = assertThrows(ZarrException.class, reader::loadNextBatch);
      assertTrue(e instanceof ChecksumException, e.toString());
      assertTrue(e.getMessage().contains("chunk [1]") && e.getMessage().contains("bad/c/1"), e.getMessage());
      // Asking again never skips to chunk [2]: a stream with rows missing would look complete.
      assertSame(e, assertThrows(ZarrException.class, reader::loadNextBatch));
    }
  }

  /** A whole chunk reaches the root as the very memory the store handed out: no copy on the way. */
  @Test
  void wholeChunksReachTheRootWithoutACopy(BufferAllocator allocator, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    try (dev.zarrow.store.FileSystemStore files = dev.zarrow.store.FileSystemStore.open(tmp)) {
      RecordingStore recording = new RecordingStore(files);
      ZarrArray array = Zarr.createArray(recording, "z", ArraySpec.of(FixedType.INT32, 8).chunks(4).compressors(List.of()));
      try (IntVector v = new IntVector("v", allocator)) {
        v.allocateNew(8);
        for (int i = 0; i < 8; i++) {
          v.set(i, 100 + i);
        }
        v.setValueCount(8);
        array.write(0, v);
      }
      recording.reset();
      try (ArrayReader reader = ArrayReader.of(Zarr.openArray(recording, "z"), allocator)) {
        assertTrue(reader.loadNextBatch());
        assertTrue(reader.loadNextBatch());
        IntVector got = (IntVector) reader.getVectorSchemaRoot().getVector(0);
        assertEquals(104, got.get(0));
        long address = got.getDataBuffer().memoryAddress();
        assertTrue(recording.returned().stream().anyMatch(b -> b.isDirect()
                && org.apache.arrow.memory.util.MemoryUtil.getByteBufferAddress(b) + b.position() == address),
            "the root's data is one of the buffers the store returned");
      }
    }
  }

  @Test
  void sequentialExecutorGivesTheSameStream(BufferAllocator allocator) throws Exception {
    int32s("s", 25, 4, allocator);
    ZarrArray sequential = Zarr.openArray(store, "s", dev.zarrow.ZarrOptions.defaults().withExecutor(Runnable::run));
    assertEquals(List.of(4, 4, 4, 4, 4, 4, 1), batches(sequential, allocator, 0));
  }

  /** An arrow-typed array with a dictionary-encoded field: encoded per batch, dictionaries replaced. */
  @Test
  void dictionaryEncodedFieldsComeOutEncodedAndSurviveIpc(BufferAllocator allocator) throws Exception {
    DictionaryEncoding encoding = new DictionaryEncoding(7, false, new ArrowType.Int(16, true));
    Field stored = new Field("s", new FieldType(true, ArrowType.Utf8.INSTANCE, encoding), List.of());
    ZarrArray array = Zarr.createArray(store, "d", ArraySpec.of(ArrowDataType.of(stored), 9).chunks(3));
    String[] values = {"x", "y", null, "z", "z", "z", "w", "x", "y"};
    try (VarCharVector v = Vectors.utf8(allocator, "s", values)) {
      array.write(0, v);
    }
    ByteArrayOutputStream ipc = new ByteArrayOutputStream();
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      assertEquals(encoding, root.getSchema().getFields().get(0).getDictionary());
      assertEquals(new ArrowType.Int(16, true), root.getSchema().getFields().get(0).getType());
      try (ArrowStreamWriter writer = new ArrowStreamWriter(root, reader, ipc)) {
        writer.start();
        int batch = 0;
        while (reader.loadNextBatch()) {
          Dictionary dictionary = reader.lookup(7);
          assertNotNull(dictionary);
          try (FieldVector decoded = (FieldVector) DictionaryEncoder.decode(root.getVector(0), dictionary)) {
            for (int i = 0; i < 3; i++) {
              Object got = decoded.getObject(i);
              assertEquals(values[batch * 3 + i], got == null ? null : got.toString());
            }
          }
          writer.writeBatch();
          batch++;
        }
        writer.end();
      }
    }
    // Arrow Java reads the stream back: three dictionary batches (each batch had other values).
    try (ArrowStreamReader in = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator)) {
      List<Object> all = new ArrayList<>();
      while (in.loadNextBatch()) {
        try (FieldVector decoded = (FieldVector) DictionaryEncoder.decode(in.getVectorSchemaRoot().getVector(0), in.lookup(7))) {
          for (int i = 0; i < decoded.getValueCount(); i++) {
            Object o = decoded.getObject(i);
            all.add(o == null ? null : ((Text) o).toString());
          }
        }
      }
      assertEquals(java.util.Arrays.asList(values), all);
      assertEquals(encoding, in.getVectorSchemaRoot().getSchema().getFields().get(0).getDictionary());
    }
  }

  @Test
  void negativeBatchRowsIsRefused(BufferAllocator allocator) {
    ZarrArray array = int32s("n", 3, 2, allocator);
    assertThrows(IllegalArgumentException.class, () -> ArrayReader.of(array, allocator, -1));
  }
}
