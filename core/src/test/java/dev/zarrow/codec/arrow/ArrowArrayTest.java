package dev.zarrow.codec.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.ArrowPools;
import dev.zarrow.NdVector;
import dev.zarrow.vector.Regions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * N-d arrays of the arrow data type (values of every fixture type), plain, compressed or sharded:
 * chunks hold C-order flattened elements; region reads and writes across chunk and edge-chunk boundaries agree with a reference
 * array kept beside them; missing chunks read as blank; decoding shares the stored bytes.
 */
@ExtendWith(AllocatorExtension.class)
class ArrowArrayTest {
  @TempDir Path tmp;

  static final long[][] SHAPES = {{5, 7}, {3, 4, 5}, {9}};
  static final int[][] CHUNKS = {{2, 3}, {2, 3, 2}, {4}};

  @Test
  void regionsOfEveryFixtureType(BufferAllocator allocator) throws Exception {
    Random random = Seeds.random("arrow-typed n-d arrays");
    for (Path file : ArrowJsonFiles.fixtureFiles()) {
      List<ArrowPools.Pool> pools = ArrowPools.of(file, tmp, allocator);
      try {
        for (ArrowPools.Pool pool : pools) {
          int s = random.nextInt(SHAPES.length);
          check(pool, SHAPES[s], CHUNKS[s], random, allocator);
        }
      } finally {
        pools.forEach(ArrowPools.Pool::close);
      }
    }
  }

  /** The gold files' types the fixtures lack (run-end encoded, list views) and their other shapes. */
  @Test
  void regionsOfGoldenTypes(BufferAllocator allocator) throws Exception {
    Random random = Seeds.random("arrow-typed n-d arrays, gold types");
    for (Path file : ArrowJsonFiles.goldenFiles()) {
      String name = ArrowJsonFiles.caseName(file);
      if (!List.of("run_end_encoded", "list_view", "nested", "union", "map", "recursive_nested").contains(name)) {
        continue;
      }
      List<ArrowPools.Pool> pools = ArrowPools.of(file, tmp, allocator);
      try {
        for (ArrowPools.Pool pool : pools) {
          check(pool, SHAPES[0], CHUNKS[0], random, allocator);
        }
      } finally {
        pools.forEach(ArrowPools.Pool::close);
      }
    }
  }

  private static long size(long[] shape) {
    return Box.of(shape).size();
  }

  private void check(ArrowPools.Pool pool, long[] shape, int[] chunks, Random random, BufferAllocator allocator) {
    ArrowDataType type = ArrowDataType.of(pool.stored());
    WritableStore store = random.nextBoolean() ? new MemoryStore() : FileSystemStore.open(tmp.resolve("s" + random.nextLong()));
    List<NamedConfig> codecs;
    int[] grid = chunks;
    switch (random.nextInt(3)) {
      case 0 -> codecs = List.of(NamedConfig.of("arrow", null));
      case 1 -> codecs = ArrowRoundTripTest.codecs();
      default -> {
        // Shards of 2^rank inner chunks, each arrow + crc32c + zstd.
        grid = java.util.Arrays.stream(chunks).map(c -> 2 * c).toArray();
        codecs = List.of(ArraySpec.shardingIndexed(chunks, ArrowRoundTripTest.codecs()));
      }
    }
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(type, shape).chunks(grid).codecs(codecs));
    int n = (int) size(shape);
    // The reference: for each element, the vector and index it was written from (blank at first).
    FieldVector blank = type.filled(allocator, 1, FillValue.NULL);
    FieldVector[] from = new FieldVector[n];
    int[] index = new int[n];
    java.util.Arrays.fill(from, blank);
    List<FieldVector> written = new ArrayList<>();
    try {
      for (int round = 0; round < 6; round++) {
        Box region = Boxes.random(random, shape);
        FieldVector data = ArrowPools.sample(pool, (int) region.size(), random, allocator);
        written.add(data);
        array.write(region, data, allocator); // data of the null type has no allocator of its own
        int[] i = {0};
        Regions.forEachRun(shape, region, region.shape(), new long[region.rank()], (f, t, k) -> {
          for (int j = 0; j < k; j++) {
            from[(int) f + j] = data;
            index[(int) f + j] = i[0]++;
          }
        });
        Box read = Boxes.random(random, shape);
        try (NdVector got = array.read(read, allocator)) {
          assertRegion(pool.name(), from, index, shape, read, got.vector());
        }
      }
      try (NdVector all = array.read(allocator)) {
        assertRegion(pool.name(), from, index, shape, Box.of(shape), all.vector());
      }
    } finally {
      blank.close();
      written.forEach(FieldVector::close);
    }
  }

  /** {@code got} holds the elements of {@code region}, compared one by one with where they came from. */
  private static void assertRegion(String what, FieldVector[] from, int[] index, long[] shape, Box region, FieldVector got) {
    assertEquals(region.size(), got.getValueCount(), what);
    List<Integer> flat = new ArrayList<>();
    Regions.forEachRun(shape, region, region.shape(), new long[region.rank()], (f, t, n) -> {
      for (int i = 0; i < n; i++) {
        flat.add((int) f + i);
      }
    });
    for (int i = 0; i < flat.size(); i++) {
      int j = flat.get(i);
      assertTrue(ArrowPools.same(got, i, from[j], index[j]),
          what + ", region " + region + ": element " + i + " is " + got.getObject(i) + ", expected "
              + from[j].getObject(index[j]));
    }
  }

  /** A chunk read from a file through the arrow codec alone: the vector's buffers are the file's bytes. */
  @Test
  void decodingSharesTheStoredBytes(BufferAllocator allocator) {
    FileSystemStore store = FileSystemStore.open(tmp.resolve("zero-copy"));
    Field longs = new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null);
    Field text = new Field("t", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    for (Field field : List.of(longs, text)) {
      ArrowDataType type = ArrowDataType.of(field);
      ZarrArray array = Zarr.createArray(store, field.getName(),
          ArraySpec.of(type, 1000).chunks(1000).codecs(List.of(NamedConfig.of("arrow", null))));
      try (FieldVector data = type.field("").createVector(allocator)) {
        data.allocateNew();
        for (int i = 0; i < 1000; i++) {
          if (data instanceof BigIntVector v) {
            v.setSafe(i, i * 3L);
          } else {
            ((VarCharVector) data).setSafe(i, ("value " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
          }
        }
        data.setValueCount(1000);
        array.write(0, data);
        ByteBuffer stored = store.get(array.chunkKey(new long[] {0})).orElseThrow();
        assertTrue(stored.isDirect() && !stored.isReadOnly(), "the file store hands out its own direct memory");
        long start = MemoryUtil.getByteBufferAddress(stored) + stored.position();
        long end = start + stored.remaining();
        try (FieldVector got = array.pipeline().decode(stored, allocator)) {
          ArrowRoundTripTest.assertEqualVectors(data, got, field.getName());
          long at = got.getDataBuffer().memoryAddress();
          assertTrue(at >= start && at + got.getDataBuffer().capacity() <= end,
              field.getName() + ": the data buffer lies inside the stored bytes");
          if (got instanceof VarCharVector v) {
            long offsets = v.getOffsetBuffer().memoryAddress();
            assertTrue(offsets >= start && offsets < end, "so do the offsets");
          }
        }
        // Read-only memory is not the decoder's to share: it is copied.
        ByteBuffer shared = stored.asReadOnlyBuffer();
        try (FieldVector got = array.pipeline().decode(shared, allocator)) {
          long at = got.getDataBuffer().memoryAddress();
          assertTrue(at < start || at >= end, "read-only bytes are copied");
        }
      }
    }
  }
}
