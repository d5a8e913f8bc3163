package dev.zarrow;

import dev.zarrow.error.ChecksumException;
import dev.zarrow.error.CorruptChunkException;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.RecordingStore;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Whole-array behaviour: resize, zero copy, concurrency, errors. */
@ExtendWith(AllocatorExtension.class)
class ArrayTest {
  @TempDir Path dir;

  static IntVector ints(BufferAllocator allocator, int n, java.util.function.IntUnaryOperator value) {
    IntVector v = new IntVector("x", allocator);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, value.applyAsInt(i));
    }
    v.setValueCount(n);
    return v;
  }

  static int[] values(NdVector nd) {
    IntVector v = (IntVector) nd.vector();
    int[] out = new int[v.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i);
    }
    return out;
  }

  @Test
  void resizesLikeZarrPython(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 10).chunks(4).fillValue(IntNode.valueOf(-1)));
    try (IntVector v = ints(allocator, 10, i -> i)) {
      a.write(0, v);
    }
    assertEquals(List.of("a/c/0", "a/c/1", "a/c/2"), store.list("a/c/"));
    ZarrArray small = a.resize(5);
    assertArrayEquals(new long[] {5}, small.shape());
    assertArrayEquals(new long[] {5}, Zarr.openArray(store, "a").shape(), "the new metadata is written");
    assertEquals(List.of("a/c/0", "a/c/1"), store.list("a/c/"), "chunks wholly outside are deleted");
    try (NdVector got = small.read(allocator)) {
      assertArrayEquals(new int[] {0, 1, 2, 3, 4}, values(got));
    }
    ZarrArray big = small.resize(13);
    try (NdVector got = big.read(allocator)) {
      // The kept edge chunk still holds what was written past the old end (zarr-python does the same);
      // the deleted chunk reads as the fill value.
      assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1}, values(got));
    }
    assertThrows(IllegalArgumentException.class, () -> big.resize(1, 2));
    ZarrArray empty = big.resize(0);
    assertEquals(List.of(), store.list("a/c/"));
    try (NdVector got = empty.read(allocator)) {
      assertEquals(0, got.vector().getValueCount());
    }
  }

  @Test
  void readsWholeLittleEndianChunksWithoutCopying(BufferAllocator allocator) {
    RecordingStore store = new RecordingStore(FileSystemStore.open(dir));
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, 100, 10).chunks(50, 10).compressors(List.of()));
    try (Float4Vector v = new Float4Vector("x", allocator)) {
      v.allocateNew(1000);
      for (int i = 0; i < 1000; i++) {
        v.set(i, i * 0.5f);
      }
      v.setValueCount(1000);
      a.write(Box.of(100, 10), v);
    }
    store.reset();
    try (NdVector chunk = a.readChunk(new long[] {1, 0}, allocator)) {
      assertEquals(1, store.returned().size());
      ByteBuffer stored = store.returned().get(0);
      assertTrue(stored.isDirect() && !stored.isReadOnly());
      assertEquals(MemoryUtil.getByteBufferAddress(stored), chunk.vector().getDataBuffer().memoryAddress(),
          "the vector's data buffer is the memory the store read into");
      assertEquals(250.0f, ((Float4Vector) chunk.vector()).get(0));
    }
    store.reset();
    // A region that is exactly one chunk is that chunk, too.
    try (NdVector region = a.read(new Box(new long[] {50, 0}, new long[] {50, 10}), allocator)) {
      assertEquals(MemoryUtil.getByteBufferAddress(store.returned().get(0)), region.vector().getDataBuffer().memoryAddress());
    }
    // Shared (read-only) memory is copied.
    MemoryStore memory = new MemoryStore();
    ZarrArray m = Zarr.createArray(memory, "a", ArraySpec.of(FixedType.FLOAT32, 10).chunks(10).compressors(List.of()));
    try (Float4Vector v = new Float4Vector("x", allocator)) {
      v.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        v.set(i, i);
      }
      v.setValueCount(10);
      m.write(0, v);
    }
    try (NdVector chunk = m.readChunk(new long[] {0}, allocator)) {
      ByteBuffer shared = memory.get("a/c/0").orElseThrow();
      assertNotEquals(MemoryUtil.getByteBufferAddress(shared), chunk.vector().getDataBuffer().memoryAddress());
      ((Float4Vector) chunk.vector()).set(0, 99f);
      assertEquals(0f, shared.order(java.nio.ByteOrder.LITTLE_ENDIAN).getFloat(0), "the store's memory is unchanged");
    }
  }

  @Test
  void writesEdgeChunksFullSizeWithTheFillValue(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 5, 5).chunks(3, 3)
        .fillValue(IntNode.valueOf(7)).compressors(List.of()));
    try (IntVector v = ints(allocator, 4, i -> 100 + i)) {
      a.write(new Box(new long[] {3, 3}, new long[] {2, 2}), v); // exactly the in-bounds part of chunk [1, 1]
    }
    assertEquals(36, store.size("a/c/1/1").orElseThrow(), "stored full-size: 3 x 3 int32");
    try (FieldVector whole = a.decodeChunk(new long[] {1, 1}, allocator).orElseThrow()) {
      IntVector v = (IntVector) whole;
      assertArrayEquals(new int[] {100, 101, 7, 102, 103, 7, 7, 7, 7},
          java.util.stream.IntStream.range(0, 9).map(v::get).toArray());
    }
    try (NdVector chunk = a.readChunk(new long[] {1, 1}, allocator)) {
      assertArrayEquals(new long[] {2, 2}, chunk.shape());
      assertArrayEquals(new int[] {100, 101, 102, 103}, values(chunk));
    }
    try (NdVector missing = a.readChunk(new long[] {0, 1}, allocator)) {
      assertArrayEquals(new long[] {3, 2}, missing.shape());
      assertArrayEquals(new int[] {7, 7, 7, 7, 7, 7}, values(missing));
    }
    assertEquals(Optional.empty(), a.decodeChunk(new long[] {0, 0}, allocator));
    // Writing the fill value over it deletes the chunk.
    try (IntVector v = ints(allocator, 4, i -> 7)) {
      a.write(new Box(new long[] {3, 3}, new long[] {2, 2}), v);
    }
    assertFalse(store.exists("a/c/1/1"));
  }

  @Test
  void writesDifferentChunksFromManyThreads(BufferAllocator allocator) throws Exception {
    WritableStore store = FileSystemStore.open(dir);
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 64, 64).chunks(8, 8));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int row = t;
        writes.add(pool.submit(() -> {
          // Thread t writes chunk row t, one chunk at a time, and also rows that straddle chunks
          // (sharing chunks with its neighbours, so partial writes of one chunk meet).
          for (int c = 0; c < 8; c++) {
            try (IntVector v = ints(allocator, 64, i -> row * 100000 + i)) {
              a.write(new Box(new long[] {row * 8, c * 8}, new long[] {8, 8}), v);
            }
          }
          for (int col = 0; col < 64; col++) {
            int value = -(row * 1000 + col);
            try (IntVector v = ints(allocator, 1, i -> value)) {
              a.write(new Box(new long[] {row * 8 + 7, col}, new long[] {1, 1}), v);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : writes) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (NdVector all = a.read(allocator)) {
      int[] got = values(all);
      for (int r = 0; r < 64; r++) {
        for (int c = 0; c < 64; c++) {
          int t = r / 8;
          int expected = r % 8 == 7 ? -(t * 1000 + c) : t * 100000 + (r % 8) * 8 + (c % 8);
          assertEquals(expected, got[r * 64 + c], "element " + r + ", " + c);
        }
      }
    }
  }

  @Test
  void partialWritesOfOneChunkFromManyThreadsAllLand(BufferAllocator allocator) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 4, 100).chunks(4, 100));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        writes.add(pool.submit(() -> {
          for (int i = thread; i < 400; i += 8) {
            int at = i;
            try (IntVector v = ints(allocator, 1, k -> at + 1)) {
              a.write(new Box(new long[] {at / 100, at % 100}, new long[] {1, 1}), v);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : writes) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (NdVector all = a.read(allocator)) {
      int[] got = values(all);
      for (int i = 0; i < 400; i++) {
        assertEquals(i + 1, got[i], "element " + i + ": a concurrent read-modify-write lost it");
      }
    }
  }

  @Test
  void errorsNameTheArrayTheChunkAndTheKey(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "g/a", ArraySpec.of(FixedType.INT32, 10, 10).chunks(5, 5).compressors(List.of(ArraySpec.crc32c())));
    try (IntVector v = ints(allocator, 100, i -> i)) {
      a.write(Box.of(10, 10), v);
    }
    ByteBuffer good = store.get("g/a/c/1/0").orElseThrow();
    byte[] bad = Vectors.toArray(good);
    bad[3] ^= 1;
    store.set("g/a/c/1/0", ByteBuffer.wrap(bad));
    List<Runnable> reads = List.of(
        () -> a.read(allocator).close(),                                            // many chunks, fixed-width path
        () -> a.read(new Box(new long[] {6, 1}, new long[] {2, 2}), allocator).close(), // one chunk, a part of it
        () -> a.readChunk(new long[] {1, 0}, allocator).close(),
        () -> a.decodeChunk(new long[] {1, 0}, allocator).ifPresent(FieldVector::close),
        () -> {
          try (IntVector v = ints(allocator, 1, i -> 5)) {
            a.write(new Box(new long[] {5, 0}, new long[] {1, 1}), v); // read-modify-write of the bad chunk
          }
        });
    for (Runnable r : reads) {
      var e = assertThrows(ChecksumException.class, r::run);
      String m = e.getMessage();
      assertTrue(m.contains("array 'g/a'") && m.contains("chunk [1, 0]") && m.contains("key g/a/c/1/0") && m.contains("crc32c"), m);
    }
    store.set("g/a/c/0/1", ByteBuffer.wrap(new byte[7]));
    var e = assertThrows(CorruptChunkException.class, () -> a.read(allocator).close());
    assertTrue(e.getMessage().contains("chunk [") && e.getMessage().contains("key g/a/c/"), e.getMessage());
    // bool takes the element-wise assembly path: same context, nothing leaks.
    ZarrArray b = Zarr.createArray(store, "b", ArraySpec.of(FixedType.BOOL, 10).chunks(3).compressors(List.of()));
    store.set("b/c/2", ByteBuffer.wrap(new byte[2]));
    var be = assertThrows(CorruptChunkException.class, () -> b.read(allocator).close());
    assertTrue(be.getMessage().contains("array 'b', chunk [2] (key b/c/2"), be.getMessage());
  }

  @Test
  void refusesBadRegionsAndVectors(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 10, 10).chunks(5, 5));
    // Caller mistakes are IllegalArgumentExceptions (CLI exit 2 where the user typed them), never ZarrExceptions.
    assertThrows(IllegalArgumentException.class, () -> a.read(new Box(new long[] {5, 5}, new long[] {6, 1}), allocator));
    assertThrows(IllegalArgumentException.class, () -> a.read(Box.of(10), allocator));
    assertThrows(IllegalArgumentException.class, () -> a.readChunk(new long[] {2, 0}, allocator));
    assertThrows(IllegalArgumentException.class, () -> a.readChunk(new long[] {0}, allocator));
    assertThrows(IllegalArgumentException.class, () -> a.decodeChunk(new long[] {0, -1}, allocator));
    try (IntVector v = ints(allocator, 3, i -> i)) {
      assertThrows(IllegalArgumentException.class, () -> a.write(Box.of(2, 2), v), "3 values for 4 elements");
      assertThrows(IllegalArgumentException.class, () -> a.write(new Box(new long[] {9, 9}, new long[] {1, 3}), v),
          "a region outside the array");
      assertThrows(IllegalArgumentException.class, () -> a.writeChunk(new long[] {0, 0}, v), "3 values for a chunk of 25");
    }
    try (Float4Vector f = new Float4Vector("x", allocator)) {
      f.allocateNew(4);
      f.setValueCount(4);
      var e = assertThrows(IllegalArgumentException.class, () -> a.write(Box.of(2, 2), f));
      assertTrue(e.getMessage().contains("int32"), e.getMessage());
    }
    try (IntVector v = ints(allocator, 4, i -> i)) {
      v.setNull(2);
      var e = assertThrows(IllegalArgumentException.class, () -> a.write(Box.of(2, 2), v));
      assertTrue(e.getMessage().contains("null") && e.getMessage().contains("array 'a'"), e.getMessage());
    }
    try (NullVector nulls = new NullVector("x")) {
      nulls.setValueCount(4);
      // Null-typed data has no allocator of its own: the caller passes one rather than zarrow making a root.
      var e = assertThrows(IllegalArgumentException.class, () -> a.write(Box.of(2, 2), nulls));
      assertTrue(e.getMessage().contains("pass one"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> a.resize(10));
    assertThrows(IllegalArgumentException.class, () -> a.resize(10, -1));
    assertThrows(IllegalArgumentException.class, () -> ArraySpec.of(FixedType.INT32, 4, -1));
    assertThrows(IllegalArgumentException.class, () -> ArraySpec.of(FixedType.INT32, 4).chunks(0));
    assertThrows(IllegalArgumentException.class, () -> ArraySpec.of(FixedType.INT32, 4).chunks(2, 2).toMetadata());
    assertEquals(List.of(), store.list("a/c/"), "nothing was written");
  }

  @Test
  void refusesComplexNumbersOfTheOtherPrecision(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.COMPLEX64, 4).chunks(4));
    try (FieldVector wide = Vectors.fromBytes(FixedType.COMPLEX128, new byte[4 * 16], allocator)) {
      assertTrue(wide instanceof FixedSizeListVector);
      var e = assertThrows(IllegalArgumentException.class, () -> a.write(0, wide));
      assertTrue(e.getMessage().contains("complex64"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> a.writeChunk(new long[] {0}, wide));
    }
  }

  @Test
  void readsRegionsOfEveryShapeFromOneChunkOrMany(BufferAllocator allocator) {
    // A region inside one chunk, one across chunks, and an empty one, for a big-endian compressed array.
    Random random = Seeds.random("array regions");
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 30, 40).chunks(7, 9)
        .codecs(List.of(dev.zarrow.metadata.NamedConfig.of("bytes",
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("endian", "big")), ArraySpec.gzip(1))));
    int[] all = new int[1200];
    for (int i = 0; i < all.length; i++) {
      all[i] = random.nextInt();
    }
    try (IntVector v = ints(allocator, 1200, i -> all[i])) {
      a.write(Box.of(30, 40), v);
    }
    for (Box region : List.of(new Box(new long[] {8, 10}, new long[] {3, 4}), new Box(new long[] {5, 5}, new long[] {20, 30}),
        new Box(new long[] {3, 3}, new long[] {0, 5}), Box.of(30, 40))) {
      try (NdVector got = a.read(region, allocator)) {
        int[] values = values(got);
        int k = 0;
        for (long r = region.start(0); r < region.end(0); r++) {
          for (long c = region.start(1); c < region.end(1); c++) {
            assertEquals(all[(int) (r * 40 + c)], values[k++], region + " at " + r + ", " + c);
          }
        }
      }
    }
  }
}
