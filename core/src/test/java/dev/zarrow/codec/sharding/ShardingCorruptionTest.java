package dev.zarrow.codec.sharding;

import static dev.zarrow.codec.sharding.HandShard.u16;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.BYTES_LE;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.CRC;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.put;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.sharding;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.zarrJson;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.error.ChecksumException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.NdVector;
import dev.zarrow.grid.Box;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad shards: every one is a {@link CorruptChunkException} (or {@link ChecksumException}) naming the
 * shard key and, where one is to blame, the inner chunk; random damage never escapes as anything but
 * a {@link ZarrException}.
 */
@ExtendWith(AllocatorExtension.class)
class ShardingCorruptionTest {
  // uint16 [8] in one shard of 4 inner chunks of 2 (4 bytes each); the index is 4 * 16 + 4 = 68 bytes.
  static MemoryStore store(IndexLocation location, String innerCodecs, byte[] shard) {
    return store(location, innerCodecs, "[" + BYTES_LE + "," + CRC + "]", shard);
  }

  static MemoryStore store(IndexLocation location, String innerCodecs, String indexCodecs, byte[] shard) {
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[8]", "uint16", "[8]", sharding("[2]", innerCodecs, indexCodecs, location.json())));
    put(store, "a/c/0", shard);
    return store;
  }

  static HandShard good(boolean end) {
    return new HandShard(4, end, true).chunk(0, u16(1, 2)).chunk(1, u16(3, 4)).chunk(3, u16(7, 8));
  }

  static <T extends ZarrException> T readFails(Class<T> type, MemoryStore store, BufferAllocator allocator, String... words) {
    ZarrArray array = Zarr.openArray(store, "a");
    T e = assertThrows(type, () -> {
      try (NdVector v = array.read(allocator)) {
        fail("read " + v);
      }
    });
    assertTrue(e.getMessage().contains("a/c/0"), "names the shard key: " + e.getMessage());
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' in: " + e.getMessage());
    }
    // The whole-chunk path (decodeChunk, used by check and copy) refuses it the same way.
    T again = assertThrows(type, () -> array.decodeChunk(new long[] {0}, allocator).ifPresent(FieldVector::close));
    for (String word : words) {
      assertTrue(again.getMessage().contains(word), "'" + word + "' in: " + again.getMessage());
    }
    return e;
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void entryOutsideTheShard(IndexLocation location, BufferAllocator allocator) {
    boolean end = location == IndexLocation.END;
    byte[] shard = good(end).entry(1, 1000, 4).build();
    readFails(CorruptChunkException.class, store(location, "[" + BYTES_LE + "]", shard), allocator,
        "inner chunk [1]", "offset " + (end ? 1000 : 1068), "past the end");
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void entryOverlappingTheIndex(IndexLocation location, BufferAllocator allocator) {
    boolean end = location == IndexLocation.END;
    // The body is 12 bytes: at the end, the index starts at 12; at the start, it ends at 68 (HandShard
    // adds the index size to offsets when the index comes first, so -8 is stored as 60).
    byte[] bad = good(end).entry(3, end ? 10 : -8, 4).build();
    readFails(CorruptChunkException.class, store(location, "[" + BYTES_LE + "]", bad), allocator, "inner chunk [3]", "overlaps the index");
  }

  @Test
  void nbytesOverTheShardSize(BufferAllocator allocator) {
    byte[] shard = good(true).entry(0, 0, 1L << 40).build();
    readFails(CorruptChunkException.class, store(IndexLocation.END, "[" + BYTES_LE + "]", shard), allocator,
        "inner chunk [0]", "nbytes 1099511627776", "exceeds");
    byte[] huge = good(true).entry(0, 0, -2L).build(); // 2^64 - 2, negative as a Java long
    readFails(CorruptChunkException.class, store(IndexLocation.END, "[" + BYTES_LE + "]", huge), allocator,
        "nbytes 18446744073709551614");
  }

  @Test
  void halfEmptyEntry(BufferAllocator allocator) {
    byte[] shard = good(true).entry(2, -1L, 4).build();
    readFails(CorruptChunkException.class, store(IndexLocation.END, "[" + BYTES_LE + "]", shard), allocator, "inner chunk [2]", "empty marker");
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void truncatedShards(IndexLocation location, BufferAllocator allocator) {
    byte[] shard = good(location == IndexLocation.END).build();
    readFails(CorruptChunkException.class, store(location, "[" + BYTES_LE + "]", Arrays.copyOf(shard, 50)), allocator,
        "shorter than its index", "truncated");
    // Cut inside the chunks: the index moves (end) or an entry points past the end (start).
    readFails(CorruptChunkException.class, store(location, "[" + BYTES_LE + "]", Arrays.copyOf(shard, shard.length - 2)), allocator);
  }

  @Test
  void indexChecksumMismatch(BufferAllocator allocator) {
    byte[] shard = good(true).build();
    shard[shard.length - 1] ^= 0x40;
    readFails(ChecksumException.class, store(IndexLocation.END, "[" + BYTES_LE + "]", shard), allocator, "shard index", "checksum");
  }

  @Test
  void innerChecksumMismatchNamesTheInnerChunk(BufferAllocator allocator) {
    byte[] chunk = new byte[8];
    System.arraycopy(u16(3, 4), 0, chunk, 0, 4); // 4 bytes of data and a wrong checksum
    byte[] shard = new HandShard(4, true, true).chunk(1, chunk).build();
    readFails(ChecksumException.class, store(IndexLocation.END, "[" + BYTES_LE + "," + CRC + "]", shard), allocator,
        "inner chunk [1]", "checksum");
  }

  @Test
  void innerChunkOfTheWrongSizeNamesTheInnerChunk(BufferAllocator allocator) {
    byte[] shard = new HandShard(4, true, true).chunk(2, new byte[3]).build();
    readFails(CorruptChunkException.class, store(IndexLocation.END, "[" + BYTES_LE + "]", shard), allocator, "inner chunk [2]");
  }

  @Test
  void partialWritesRefuseACorruptShard(BufferAllocator allocator) {
    byte[] shard = good(true).entry(1, 1000, 4).build();
    ZarrArray array = Zarr.openArray(store(IndexLocation.END, "[" + BYTES_LE + "]", shard), "a");
    try (var data = new org.apache.arrow.vector.UInt2Vector("x", allocator)) {
      data.allocateNew(1);
      data.set(0, 9);
      data.setValueCount(1);
      CorruptChunkException e = assertThrows(CorruptChunkException.class, () -> array.write(5, data));
      assertTrue(e.getMessage().contains("inner chunk [1]") && e.getMessage().contains("a/c/0"), e.getMessage());
    }
  }

  /** Random bit flips, truncations and entries: only ZarrExceptions, no leaks, no other failure. */
  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void randomDamageOnlyThrowsZarrExceptions(IndexLocation location, BufferAllocator allocator) {
    Random random = Seeds.random("shard damage " + location);
    String[] chains = {"[" + BYTES_LE + "]", "[" + BYTES_LE + "," + CRC + "]",
        "[" + BYTES_LE + ",{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}]"};
    for (String chain : chains) {
      // Without a checksum on the index, damaged entries reach the index checks.
      damage(location, chain, true, random, allocator);
      damage(location, chain, false, random, allocator);
    }
  }

  private static void damage(IndexLocation location, String chain, boolean indexCrc, Random random, BufferAllocator allocator) {
    boolean end = location == IndexLocation.END;
    // A valid shard of this chain, written by zarrow, then damaged.
    MemoryStore valid = store(location, chain, indexCrc ? "[" + BYTES_LE + "," + CRC + "]" : "[" + BYTES_LE + "]",
        new HandShard(4, end, indexCrc).build());
    int indexSize = indexCrc ? 68 : 64;
    ZarrArray array = Zarr.openArray(valid, "a");
    try (var data = new org.apache.arrow.vector.UInt2Vector("x", allocator)) {
      data.allocateNew(8);
      for (int i = 0; i < 8; i++) {
        data.set(i, i == 4 || i == 5 ? 0 : 100 + i);
      }
      data.setValueCount(8);
      array.write(0, data);
    }
    byte[] original = ShardingArrayTest.bytes(valid.get("a/c/0").orElseThrow());
    for (int round = 0; round < 150; round++) {
      byte[] bad = original.clone();
      switch (random.nextInt(3)) {
        case 0 -> bad[random.nextInt(bad.length)] ^= (byte) (1 << random.nextInt(8));
        case 1 -> bad = Arrays.copyOf(bad, random.nextInt(bad.length));
        default -> {
          // Overwrite a whole index field with a random or boundary value.
          long[] values = {-1L, 0, 1, bad.length, bad.length - 1, Long.MAX_VALUE, Long.MIN_VALUE, random.nextLong()};
          int indexStart = end ? bad.length - indexSize : 0;
          int field = random.nextInt(8);
          ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(indexStart + 8 * field, values[random.nextInt(values.length)]);
        }
      }
      valid.set("a/c/0", ByteBuffer.wrap(bad));
      for (Box region : new Box[] {Box.of(8), new Box(new long[] {2}, new long[] {1}), new Box(new long[] {1}, new long[] {6})}) {
        try (NdVector v = array.read(region, allocator)) {
          assertTrue(v.vector().getValueCount() == region.size()); // damage that still decodes (a data bit)
        } catch (ZarrException expected) {
          // the point: a ZarrException, nothing else
        }
      }
    }
  }
}
