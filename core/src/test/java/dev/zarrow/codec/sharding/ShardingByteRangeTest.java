package dev.zarrow.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.RecordingStore;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a sharded read costs on a store: requests and bytes, counted. */
@ExtendWith(AllocatorExtension.class)
class ShardingByteRangeTest {
  @TempDir Path dir;

  static final NamedConfig BYTES = ArraySpec.defaultIndexCodecs().get(0);
  // float32 [64] in one shard of 8 inner chunks of 8 (32 bytes raw); the index is 8 * 16 + 4 = 132 bytes.
  static final int INDEX = 132;

  /**
   * Inner chunks 0, 1, 2, 4, 5, 7 hold data (value = index + 1); 3 and 6 are empty. Compressed with
   * zstd, so chunk sizes differ.
   */
  RecordingStore shardStore(IndexLocation location, BufferAllocator allocator) {
    RecordingStore store = new RecordingStore(FileSystemStore.open(dir.resolve(location.json())));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, 64).chunks(64)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {8}, List.of(BYTES, ArraySpec.zstd(0)), ArraySpec.defaultIndexCodecs(), location.json()))));
    try (Float4Vector data = new Float4Vector("x", allocator)) {
      data.allocateNew(64);
      for (int i = 0; i < 64; i++) {
        data.set(i, i / 8 == 3 || i / 8 == 6 ? 0 : i + 1);
      }
      data.setValueCount(64);
      array.write(0, data);
    }
    store.reset();
    return store;
  }

  float[] read(RecordingStore store, long start, long length, BufferAllocator allocator) {
    try (NdVector v = Zarr.openArray(store, "a").read(new Box(new long[] {start}, new long[] {length}), allocator)) {
      float[] out = new float[(int) length];
      for (int i = 0; i < out.length; i++) {
        out[i] = ((Float4Vector) v.vector()).get(i);
      }
      return out;
    }
  }

  /** Requests made for chunk data, not for zarr.json. */
  static List<RecordingStore.Request> chunkRequests(RecordingStore store) {
    return store.requests().stream().filter(r -> !r.key().endsWith("zarr.json")).toList();
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void oneInnerChunkIsTwoRangeReads(IndexLocation location, BufferAllocator allocator) {
    RecordingStore store = shardStore(location, allocator);
    float[] got = read(store, 16, 8, allocator);
    assertEquals(17f, got[0]);
    List<RecordingStore.Request> requests = chunkRequests(store);
    assertEquals(2, requests.size(), "the index, then the chunk: " + requests);
    RecordingStore.Request index = requests.get(0);
    ByteRange.FromStart indexRange = (ByteRange.FromStart) index.range();
    assertEquals(INDEX, indexRange.length());
    if (location == IndexLocation.START) {
      assertEquals(0, indexRange.offset());
    }
    assertEquals(INDEX, index.bytes());
    // Part of one inner chunk costs the same two requests.
    store.reset();
    assertEquals(20f, read(store, 19, 2, allocator)[0]);
    assertEquals(2, chunkRequests(store).size());
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void anEmptyInnerChunkIsOneRead(IndexLocation location, BufferAllocator allocator) {
    RecordingStore store = shardStore(location, allocator);
    float[] got = read(store, 24, 8, allocator);
    assertEquals(0f, got[7]);
    List<RecordingStore.Request> requests = chunkRequests(store);
    assertEquals(1, requests.size(), "the index only: " + requests);
    assertEquals(INDEX, requests.get(0).bytes());
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void aRegionIsTheIndexAndCoalescedRanges(IndexLocation location, BufferAllocator allocator) {
    RecordingStore store = shardStore(location, allocator);
    // Inner chunks 1..5 (3 is empty): the stored ranges of 1, 2, 4, 5 are adjacent, so one request.
    float[] got = read(store, 10, 36, allocator);
    assertEquals(11f, got[0]);
    assertEquals(0f, got[14]);
    assertEquals(46f, got[35]);
    List<RecordingStore.Request> requests = chunkRequests(store);
    assertEquals(2, requests.size(), "the index and one coalesced range: " + requests);
    assertNull(requests.stream().filter(r -> r.range() == null).findAny().orElse(null), "no whole-value read");
  }

  @Test
  void theWholeShardIsOneRead(BufferAllocator allocator) {
    RecordingStore store = shardStore(IndexLocation.END, allocator);
    assertEquals(64f, read(store, 0, 64, allocator)[63]);
    List<RecordingStore.Request> requests = chunkRequests(store);
    assertEquals(1, requests.size(), requests.toString());
    assertNull(requests.get(0).range());
  }

  @Test
  void distantRangesAreNotCoalesced(BufferAllocator allocator) {
    // float32 [512, 512] in one shard of 4x4 inner chunks of 128x128 (64 KiB each, uncompressed): the
    // inner chunks (0, 0) and (1, 0) are 4 chunks = 256 KiB apart in the shard, too far to read as one.
    RecordingStore store = new RecordingStore(FileSystemStore.open(dir.resolve("big")));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, 512, 512).chunks(512, 512)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {128, 128}, List.of(BYTES)))));
    try (Float4Vector data = new Float4Vector("x", allocator)) {
      data.allocateNew(512 * 512);
      for (int i = 0; i < 512 * 512; i++) {
        data.set(i, i);
      }
      data.setValueCount(512 * 512);
      array.write(new long[] {0, 0}, new NdVector(data, new long[] {512, 512}));
    }
    store.reset();
    try (NdVector v = array.read(new Box(new long[] {100, 0}, new long[] {100, 10}), allocator)) {
      assertEquals(100 * 512, ((Float4Vector) v.vector()).get(0));
    }
    assertEquals(3, chunkRequests(store).size(), "index + 2 separate ranges: " + chunkRequests(store));
    assertEquals(4 * 16 * 4 + 4 + 2L * 128 * 128 * 4, store.bytes());
    // A row of inner chunks is stored back to back: one request for all four.
    store.reset();
    try (NdVector v = array.read(new Box(new long[] {0, 0}, new long[] {10, 512}), allocator)) {
      assertEquals(511, ((Float4Vector) v.vector()).get(511));
    }
    assertEquals(2, chunkRequests(store).size(), chunkRequests(store).toString());
  }

  @Test
  void nestedShardsReadTheirOwnIndexThroughSlices(BufferAllocator allocator) {
    // [64] = shard of 2 inner shards [32], each of 4 chunks [8].
    RecordingStore store = new RecordingStore(FileSystemStore.open(dir.resolve("nested")));
    NamedConfig innerShard = ArraySpec.shardingIndexed(new int[] {8}, List.of(BYTES, ArraySpec.zstd(0)));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, 64).chunks(64)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {32}, List.of(innerShard), ArraySpec.defaultIndexCodecs(), "start"))));
    try (Float4Vector data = new Float4Vector("x", allocator)) {
      data.allocateNew(64);
      for (int i = 0; i < 64; i++) {
        data.set(i, i + 1);
      }
      data.setValueCount(64);
      array.write(0, data);
    }
    store.reset();
    float[] got = read(store, 40, 4, allocator);
    assertEquals(41f, got[0]);
    List<RecordingStore.Request> requests = chunkRequests(store);
    assertEquals(3, requests.size(), "outer index, inner index, chunk: " + requests);
    assertEquals(2 * 16 + 4, requests.get(0).bytes());
    assertEquals(4 * 16 + 4, requests.get(1).bytes());
  }

  @Test
  void aPartialWriteReadsTheShardOnceAndWritesItOnce(BufferAllocator allocator) {
    RecordingStore store = shardStore(IndexLocation.END, allocator);
    ZarrArray array = Zarr.openArray(store, "a");
    store.reset();
    try (Float4Vector data = new Float4Vector("x", allocator)) {
      data.allocateNew(3);
      data.set(0, -1);
      data.set(1, -2);
      data.set(2, -3);
      data.setValueCount(3);
      array.write(30, data);
    }
    assertEquals(1, chunkRequests(store).size(), chunkRequests(store).toString());
    assertEquals(1, store.writes());
    // Inner chunk 3 was empty: now it holds the fill value and the new values, and so does chunk 4.
    float[] got = read(store, 28, 8, allocator);
    assertEquals(0f, got[0]);
    assertEquals(-1f, got[2]);
    assertEquals(-3f, got[4]);
    assertEquals(34f, got[5]);
  }
}
