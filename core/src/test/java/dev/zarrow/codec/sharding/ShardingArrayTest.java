package dev.zarrow.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.NdVector;
import dev.zarrow.codec.core.ZstdCodec;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Sharded arrays against a reference model: any region written and read, every inner codec chain. */
@ExtendWith(AllocatorExtension.class)
class ShardingArrayTest {
  @TempDir Path dir;

  static final NamedConfig BYTES = ArraySpec.defaultIndexCodecs().get(0);
  static final NamedConfig CRC = ArraySpec.crc32c();

  static NamedConfig transposeF() {
    return NamedConfig.of("transpose", JsonNodeFactory.instance.objectNode().put("order", "F"));
  }

  /** Inner codec chains, by name. */
  static List<NamedConfig> inner(String name, int[] innerShape) {
    return switch (name) {
      case "bytes" -> List.of(BYTES);
      case "zstd" -> List.of(BYTES, ArraySpec.zstd(0));
      case "transpose+crc32c" -> List.of(transposeF(), BYTES, CRC);
      case "gzip" -> List.of(BYTES, ArraySpec.gzip(1));
      case "nested" -> {
        int[] innermost = new int[innerShape.length];
        for (int d = 0; d < innerShape.length; d++) {
          innermost[d] = innerShape[d] % 2 == 0 ? innerShape[d] / 2 : innerShape[d];
        }
        yield List.of(ArraySpec.shardingIndexed(innermost, List.of(BYTES, ArraySpec.zstd(1)), ArraySpec.defaultIndexCodecs(), "start"));
      }
      default -> throw new IllegalArgumentException(name);
    };
  }

  static Stream<Arguments> configurations() {
    List<Arguments> out = new ArrayList<>();
    Object[][] shapes = {
        {new long[] {37}, new int[] {12}, new int[] {4}},
        {new long[] {9, 14}, new int[] {4, 6}, new int[] {2, 3}},
        {new long[] {5, 6, 7}, new int[] {4, 4, 4}, new int[] {2, 2, 4}},
        {new long[] {}, new int[] {}, new int[] {}},
    };
    String[] chains = {"bytes", "zstd", "transpose+crc32c", "gzip", "nested"};
    int k = 0;
    for (Object[] s : shapes) {
      for (String chain : chains) {
        IndexLocation location = k++ % 2 == 0 ? IndexLocation.END : IndexLocation.START;
        out.add(Arguments.of(s[0], s[1], s[2], chain, location));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2} {3} {4}")
  @MethodSource("configurations")
  void regionsMatchAReferenceArray(long[] shape, int[] shard, int[] innerShape, String chain, IndexLocation location, BufferAllocator allocator) {
    List<WritableStore> stores = List.of(new MemoryStore(), FileSystemStore.open(dir.resolve("s")));
    for (int s = 0; s < stores.size(); s++) {
      WritableStore store = stores.get(s);
      ZarrOptions options = s == 0 ? ZarrOptions.defaults().withExecutor(Runnable::run) : ZarrOptions.defaults();
      ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, shape).chunks(shard)
          .fillValue(IntNode.valueOf(-1))
          .codecs(List.of(ArraySpec.shardingIndexed(innerShape, inner(chain, innerShape), ArraySpec.defaultIndexCodecs(), location.json()))),
          options);
      int n = (int) Box.of(shape).size();
      int[] reference = new int[n];
      Arrays.fill(reference, -1);
      Random random = Seeds.random("sharded regions " + Arrays.toString(shape) + " " + chain);
      for (int round = 0; round < 25; round++) {
        Box region = Boxes.random(random, shape);
        boolean fill = random.nextInt(5) == 0; // sometimes write the fill value back
        try (IntVector data = new IntVector("x", allocator)) {
          data.allocateNew((int) region.size());
          int[] i = {0};
          Boxes.forEachFlat(region, shape, flat -> {
            int v = fill ? -1 : random.nextInt(1000);
            data.set(i[0]++, v);
            reference[(int) flat] = v;
          });
          data.setValueCount((int) region.size());
          array.write(region, data);
        }
        Box read = Boxes.random(random, shape);
        try (NdVector got = Zarr.openArray(store, "a", options).read(read, allocator)) {
          assertArrayEquals(read.shape(), got.shape());
          IntVector v = (IntVector) got.vector();
          int[] i = {0};
          Boxes.forEachFlat(read, shape, flat -> assertEquals(reference[(int) flat], v.get(i[0]++), "element " + flat));
        }
      }
      try (NdVector all = array.read(allocator)) {
        IntVector v = (IntVector) all.vector();
        for (int i = 0; i < n; i++) {
          assertEquals(reference[i], v.get(i));
        }
      }
      for (long[] coords : array.chunks()) {
        array.decodeChunk(coords, allocator).ifPresent(FieldVector::close);
      }
    }
  }

  @Test
  void aRegionOfOneShardWritesTheFillValueWhereInnerChunksAreMissing(BufferAllocator allocator) {
    // A region inside one shard is decoded into memory nobody wrote yet: each inner chunk's part is
    // decoded into its place, and a missing one's part must be written as the fill value, not left.
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 16).chunks(16).fillValue(IntNode.valueOf(-7))
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {4}, List.of(BYTES)))));
    try (IntVector first = ints(allocator, 1, 2, 3, 4); IntVector last = ints(allocator, 13, 14, 15, 16)) {
      array.write(0, first);
      array.write(12, last);
    }
    for (int round = 0; round < 3; round++) {
      // Memory of the result's size, dirtied and given back: the allocator may hand it out again.
      try (IntVector dirt = new IntVector("dirt", allocator)) {
        dirt.allocateNew(14);
        for (int i = 0; i < 14; i++) {
          dirt.set(i, 0x5a5a5a5a);
        }
      }
      try (NdVector part = array.read(new Box(new long[] {1}, new long[] {14}), allocator)) {
        IntVector v = (IntVector) part.vector();
        int[] got = new int[14];
        for (int i = 0; i < 14; i++) {
          got[i] = v.get(i);
        }
        assertArrayEquals(new int[] {2, 3, 4, -7, -7, -7, -7, -7, -7, -7, -7, 13, 14, 15}, got);
        assertEquals(0, v.getNullCount());
      }
    }
  }

  @Test
  void fillValueInnerChunksAreLeftOutAndEmptyShardsDeleted(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 16).chunks(8)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {2}, List.of(BYTES)))));
    try (IntVector data = ints(allocator, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) {
      array.write(0, data); // a whole-shard write (encode) and a whole-shard write of fill (delete)
    }
    assertEquals(List.of("a/c/0"), store.list("a/c/"));
    // One inner chunk of 8 bytes and an index of 4 entries + crc32c.
    assertEquals(8 + 4 * 16 + 4, store.size("a/c/0").orElseThrow());
    try (IntVector zeros = ints(allocator, 0, 0)) {
      array.write(2, zeros); // a partial write that leaves no inner chunk
    }
    assertTrue(store.list("a/c/").isEmpty(), "the shard is deleted when no inner chunk remains");
  }

  @Test
  void partialWritesKeepTheStoredBytesOfUntouchedInnerChunks(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 8).chunks(8)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {4}, List.of(BYTES, ArraySpec.zstd(0))))));
    // Inner chunk 1 as another writer stored it: zstd level 19 with a frame checksum, which zarrow
    // (level 0, no checksum) would never produce; a re-encoding would change these bytes.
    ByteBuffer raw = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : new int[] {5, 6, 7, 8}) {
      raw.putInt(v);
    }
    byte[] foreign = bytes(new ZstdCodec(19, true).encode(raw.flip()));
    store.set("a/c/0", ByteBuffer.wrap(new HandShard(2, true, true).gap(9).chunk(1, foreign).build()));
    try (IntVector data = ints(allocator, 1, 2)) {
      array.write(1, data);
    }
    byte[] shard = bytes(store.get("a/c/0").orElseThrow());
    assertTrue(indexOf(shard, foreign) >= 0, "inner chunk 1 was copied, not re-encoded");
    try (NdVector all = array.read(allocator)) {
      IntVector v = (IntVector) all.vector();
      int[] got = new int[8];
      for (int i = 0; i < 8; i++) {
        got[i] = v.get(i);
      }
      assertArrayEquals(new int[] {0, 1, 2, 0, 5, 6, 7, 8}, got);
    }
  }

  @Test
  void aPartialWriteLeavesBytesSharedByAnotherEntryAlone(BufferAllocator allocator) {
    // Another writer stored inner chunks 0 and 1 once, both entries naming the same bytes. Files read
    // into the caller's own memory, which decoding wraps: overlaying in place there would change chunk 1.
    FileSystemStore store = FileSystemStore.open(dir.resolve("shared"));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 8).chunks(8)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {4}, List.of(BYTES)))));
    ByteBuffer chunk = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(5).putInt(6).putInt(7).putInt(8);
    store.set("a/c/0", ByteBuffer.wrap(new HandShard(2, true, true).chunk(0, chunk.array()).entry(1, 0, 16).build()));
    try (IntVector data = ints(allocator, -1)) {
      array.write(1, data);
    }
    try (NdVector all = array.read(allocator)) {
      IntVector v = (IntVector) all.vector();
      int[] got = new int[8];
      for (int i = 0; i < 8; i++) {
        got[i] = v.get(i);
      }
      assertArrayEquals(new int[] {5, -1, 7, 8, 5, 6, 7, 8}, got);
    }
  }

  @Test
  void innerChunksRunOnTheArraysExecutorEvenWhenItIsOneBusyThread(BufferAllocator allocator) {
    // Shards are decoded on the pool's only thread, and their inner chunks are offered to the same pool:
    // submit-and-join would wait forever for work queued behind itself.
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(1);
    try {
      ZarrOptions options = ZarrOptions.defaults().withExecutor(pool);
      MemoryStore store = new MemoryStore();
      ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 64).chunks(16)
          .codecs(List.of(ArraySpec.shardingIndexed(new int[] {4}, List.of(BYTES, ArraySpec.zstd(0))))),
          options);
      int[] values = java.util.stream.IntStream.range(0, 64).map(i -> i * 3 + 1).toArray();
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
        try (IntVector data = ints(allocator, values)) {
          array.write(0, data);
        }
        try (NdVector all = array.read(allocator)) {
          for (int i = 0; i < 64; i++) {
            assertEquals(values[i], ((IntVector) all.vector()).get(i));
          }
        }
      });
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void codecsAroundTheShardingCodec(BufferAllocator allocator) {
    // transpose before sharding (the shards are transposed, then cut) and crc32c of the whole shard after.
    MemoryStore store = new MemoryStore();
    NamedConfig transpose = NamedConfig.of("transpose", JsonNodeFactory.instance.objectNode().set("order",
        JsonNodeFactory.instance.arrayNode().add(1).add(0)));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 6, 8).chunks(6, 4).codecs(List.of(
        transpose,
        ArraySpec.shardingIndexed(new int[] {2, 3}, List.of(BYTES, ArraySpec.zstd(0))),
        CRC)));
    int[] values = java.util.stream.IntStream.range(0, 48).map(i -> 7 * i - 100).toArray();
    try (IntVector data = ints(allocator, values)) {
      array.write(new long[] {0, 0}, new NdVector(data, new long[] {6, 8}));
    }
    try (IntVector one = ints(allocator, 12345)) {
      array.write(new long[] {4, 5}, new NdVector(one, new long[] {1, 1}));
    }
    values[4 * 8 + 5] = 12345;
    try (NdVector got = Zarr.openArray(store, "a").read(new Box(new long[] {1, 2}, new long[] {5, 5}), allocator)) {
      IntVector v = (IntVector) got.vector();
      int k = 0;
      for (int i = 1; i < 6; i++) {
        for (int j = 2; j < 7; j++) {
          assertEquals(values[i * 8 + j], v.get(k++), "element " + i + "," + j);
        }
      }
    }
  }

  @Test
  void boolAndFloatShardsRoundTrip(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    Random random = Seeds.random("bool and float shards");
    ZarrArray bools = Zarr.createArray(store, "b", ArraySpec.of(FixedType.BOOL, 10, 10).chunks(6, 6)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {3, 2}, List.of(BYTES)))));
    boolean[] expected = new boolean[100];
    try (BitVector data = new BitVector("x", allocator)) {
      data.allocateNew(100);
      for (int i = 0; i < 100; i++) {
        expected[i] = random.nextInt(3) == 0;
        data.set(i, expected[i] ? 1 : 0);
      }
      data.setValueCount(100);
      bools.write(new long[] {0, 0}, new NdVector(data, new long[] {10, 10}));
    }
    try (NdVector got = bools.read(new Box(new long[] {1, 1}, new long[] {8, 7}), allocator)) {
      BitVector v = (BitVector) got.vector();
      int k = 0;
      for (int i = 1; i < 9; i++) {
        for (int j = 1; j < 8; j++) {
          assertEquals(expected[10 * i + j], v.get(k++) == 1, "bool at " + i + "," + j);
        }
      }
    }
    ZarrArray floats = Zarr.createArray(store, "f", ArraySpec.of(FixedType.FLOAT32, 50).chunks(20)
        .fillValue(JsonNodeFactory.instance.textNode("NaN"))
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {5}, List.of(BYTES, ArraySpec.zstd(0)), ArraySpec.defaultIndexCodecs(), "start"))));
    try (Float4Vector data = new Float4Vector("x", allocator)) {
      data.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        data.set(i, i * 0.5f);
      }
      data.setValueCount(10);
      floats.write(23, data);
    }
    try (NdVector got = floats.read(allocator)) {
      Float4Vector v = (Float4Vector) got.vector();
      for (int i = 0; i < 50; i++) {
        if (i >= 23 && i < 33) {
          assertEquals((i - 23) * 0.5f, v.get(i));
        } else {
          assertTrue(Float.isNaN(v.get(i)), "fill at " + i);
        }
      }
    }
    // Only the inner chunks [20, 25) .. [30, 35) of shard 1 and [25, 30) hold data: 3 in shard 1.
    assertFalse(store.exists("f/c/0"));
    assertTrue(store.exists("f/c/1"));
  }

  @Test
  void innerChunksDecodeWithoutCopyingTheStoredBytes(BufferAllocator allocator) {
    FileSystemStore store = FileSystemStore.open(dir.resolve("zc"));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 8).chunks(8)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {4}, List.of(BYTES), ArraySpec.defaultIndexCodecs(), "start"))));
    try (IntVector data = ints(allocator, 1, 2, 3, 4, 5, 6, 7, 8)) {
      array.write(0, data);
    }
    // A whole shard read from a file is the caller's memory: a region inside one inner chunk is a
    // vector over those very bytes (the index, 2 * 16 + 4 bytes, comes first; inner chunk 1 follows
    // inner chunk 0).
    ByteBuffer stored = store.get("a/c/0").orElseThrow();
    assertFalse(stored.isReadOnly());
    long address = org.apache.arrow.memory.util.MemoryUtil.getByteBufferAddress(stored);
    var codec = (ShardingCodec) array.pipeline().serializer();
    try (FieldVector v = codec.decodeRegion(new BufferSource(stored), array.pipeline().spec(), new Box(new long[] {4}, new long[] {4}), allocator)) {
      assertEquals(5, ((IntVector) v).get(0));
      assertEquals(address + 36 + 16, v.getDataBuffer().memoryAddress());
    }
  }

  /**
   * A read of whole shards decodes each inner chunk straight into its place in the result: the memory it
   * takes is the result's, 1.03x here (before, each shard was decoded into a vector of its own, its inner
   * chunks into buffers of their own, and copied into the result: 1.74x).
   */
  @Test
  void wholeShardsDecodeTheirInnerChunksInPlace(BufferAllocator allocator) {
    int n = 1 << 20;
    ZarrArray array = Zarr.createArray(new MemoryStore(), "a", ArraySpec.of(FixedType.INT32, n).chunks(n / 4)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {n / 16}, List.of(BYTES, ArraySpec.zstd(1))))));
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = i % 1000 == 0 ? -1 : i; // every 1000th of fill: inner chunks stored, with fill inside
    }
    try (IntVector data = ints(allocator, values)) {
      array.write(0, data);
    }
    try (BufferAllocator reading = allocator.newChildAllocator("read", 0, Long.MAX_VALUE)) {
      try (NdVector read = array.read(reading)) {
        IntVector v = (IntVector) read.vector();
        for (int i = 0; i < n; i += 997) {
          assertEquals(values[i], v.get(i));
        }
        assertEquals(values[n - 1], v.get(n - 1));
      }
      assertTrue(reading.getPeakMemoryAllocation() < 1.5 * n * 4, "peak " + reading.getPeakMemoryAllocation() + " for " + n * 4);
    }
  }

  static IntVector ints(BufferAllocator allocator, int... values) {
    IntVector v = new IntVector("x", allocator);
    v.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      v.set(i, values[i]);
    }
    v.setValueCount(values.length);
    return v;
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

}
