package dev.zarrow.codec.sharding;

import static dev.zarrow.codec.sharding.HandShard.u16;
import static dev.zarrow.codec.sharding.HandShard.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Shards built by hand from the spec's byte layout decode; zarrow's encoding equals bytes worked out by hand. */
@ExtendWith(AllocatorExtension.class)
class ShardingGoldenTest {
  static final String BYTES_LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
  static final String CRC = "{\"name\":\"crc32c\"}";

  static String sharding(String inner, String codecs, String indexCodecs, String location) {
    return "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" + inner + ",\"codecs\":" + codecs
        + ",\"index_codecs\":" + indexCodecs + (location == null ? "" : ",\"index_location\":\"" + location + "\"") + "}}";
  }

  static String zarrJson(String shape, String type, String chunks, String codec) {
    return "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + shape + ",\"data_type\":\"" + type + "\","
        + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + chunks + "}},"
        + "\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}},"
        + "\"fill_value\":0,\"codecs\":[" + codec + "],\"attributes\":{}}";
  }

  static void put(MemoryStore store, String key, byte[] bytes) {
    store.set(key, ByteBuffer.wrap(bytes));
  }

  static void put(MemoryStore store, String key, String text) {
    put(store, key, text.getBytes(StandardCharsets.UTF_8));
  }

  /** a[i][j] = 10 i + j + 1 for a 4x4 uint16 array, as C-order values. */
  static int[] expected4x4(boolean innerChunk10Empty) {
    int[] out = new int[16];
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) {
        boolean empty = innerChunk10Empty && i >= 2 && j < 2;
        out[4 * i + j] = empty ? 0 : 10 * i + j + 1;
      }
    }
    return out;
  }

  static int[] values(FieldVector v) {
    int[] out = new int[v.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      if (v instanceof UInt1Vector u) {
        out[i] = u.get(i) & 0xff;
      } else if (v instanceof UInt2Vector u) {
        out[i] = u.get(i);
      } else {
        out[i] = ((SmallIntVector) v).get(i);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void handBuiltShardDecodes(IndexLocation location, BufferAllocator allocator) {
    boolean end = location == IndexLocation.END;
    // Inner chunks (2x2 of 2x2 each) stored out of order with gaps; chunk (1, 0) is empty.
    byte[] shard = new HandShard(4, end, true)
        .gap(3)
        .chunk(3, u16(23, 24, 33, 34))
        .chunk(0, u16(1, 2, 11, 12))
        .gap(17)
        .chunk(1, u16(3, 4, 13, 14))
        .build();
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[4,4]", "uint16", "[4,4]",
        sharding("[2,2]", "[" + BYTES_LE + "]", "[" + BYTES_LE + "," + CRC + "]", location.json())));
    put(store, "a/c/0/0", shard);
    ZarrArray array = Zarr.openArray(store, "a");
    try (NdVector all = array.read(allocator)) {
      assertArrayEquals(expected4x4(true), values(all.vector()));
    }
    try (NdVector part = array.read(new Box(new long[] {1, 1}, new long[] {3, 2}), allocator)) {
      assertArrayEquals(new int[] {12, 13, 0, 23, 0, 33}, values(part.vector()));
    }
  }

  @Test
  void indexWithoutChecksumAndDefaultLocation(BufferAllocator allocator) {
    byte[] shard = new HandShard(4, true, false)
        .chunk(2, u16(21, 22, 31, 32)).chunk(1, u16(3, 4, 13, 14)).chunk(0, u16(1, 2, 11, 12)).chunk(3, u16(23, 24, 33, 34))
        .build();
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[4,4]", "uint16", "[4,4]", sharding("[2,2]", "[" + BYTES_LE + "]", "[" + BYTES_LE + "]", null)));
    put(store, "a/c/0/0", shard);
    try (NdVector all = Zarr.openArray(store, "a").read(allocator)) {
      assertArrayEquals(expected4x4(false), values(all.vector()));
    }
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void handBuiltNestedShardsDecode(IndexLocation location, BufferAllocator allocator) {
    boolean end = location == IndexLocation.END;
    // uint8 [8]: an outer shard of 2 inner shards [4], each of 2 inner chunks [2]; the inner shards keep
    // their index at the other end than the outer one.
    IndexLocation innerLocation = end ? IndexLocation.START : IndexLocation.END;
    byte[] first = new HandShard(2, !end, true).chunk(1, u8(3, 4)).gap(5).chunk(0, u8(1, 2)).build();
    byte[] second = new HandShard(2, !end, true).chunk(0, u8(5, 6)).build(); // elements [6, 8) are empty
    byte[] outer = new HandShard(2, end, true).gap(2).chunk(1, second).chunk(0, first).build();
    String inner = sharding("[2]", "[" + BYTES_LE + "]", "[" + BYTES_LE + "," + CRC + "]", innerLocation.json());
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[8]", "uint8", "[8]",
        sharding("[4]", "[" + inner + "]", "[" + BYTES_LE + "," + CRC + "]", location.json())));
    put(store, "a/c/0", outer);
    ZarrArray array = Zarr.openArray(store, "a");
    try (NdVector all = array.read(allocator)) {
      assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 0, 0}, values(all.vector()));
    }
    try (NdVector part = array.read(new Box(new long[] {3}, new long[] {3}), allocator)) {
      assertArrayEquals(new int[] {4, 5, 6}, values(part.vector()));
    }
  }

  static NamedConfig bytesLe() {
    return ArraySpec.defaultIndexCodecs().get(0);
  }

  @ParameterizedTest
  @EnumSource(IndexLocation.class)
  void encodingEqualsHandComputedBytes(IndexLocation location, BufferAllocator allocator) {
    // int16 [1, -2, 0, 0], inner chunks of 2, fill 0: chunk 0 is 01 00 fe ff, chunk 1 is empty.
    // Index: (offset, nbytes) little-endian uint64 pairs, then CRC-32C of those 32 bytes (computed by
    // an independent bitwise implementation), little-endian.
    String expected = location == IndexLocation.END
        ? "0100feff" + "0000000000000000" + "0400000000000000" + "ffffffffffffffff" + "ffffffffffffffff" + "8a0729c5"
        : "2400000000000000" + "0400000000000000" + "ffffffffffffffff" + "ffffffffffffffff" + "111ded9e" + "0100feff";
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT16, 4).chunks(4)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {2}, List.of(bytesLe()), ArraySpec.defaultIndexCodecs(), location.json()))));
    try (SmallIntVector data = new SmallIntVector("x", allocator)) {
      data.allocateNew(4);
      data.set(0, 1);
      data.set(1, -2);
      data.set(2, 0);
      data.set(3, 0);
      data.setValueCount(4);
      array.write(0, data);
    }
    assertEquals(expected, hex(store.get("a/c/0").orElseThrow()));
  }

  @Test
  void twoDimensionalEncodingIsInCOrderOfInnerChunks(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.UINT8, 2, 4).chunks(2, 4)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {2, 2}, List.of(bytesLe())))));
    try (UInt1Vector data = new UInt1Vector("x", allocator)) {
      data.allocateNew(8);
      for (int i = 0; i < 8; i++) {
        data.set(i, i + 1);
      }
      data.setValueCount(8);
      array.write(new long[] {0, 0}, new NdVector(data, new long[] {2, 4}));
    }
    assertEquals("0102050603040708" + "0000000000000000" + "0400000000000000" + "0400000000000000" + "0400000000000000" + "f6ff6f8f",
        hex(store.get("a/c/0/0").orElseThrow()));
  }

  @Test
  void metadataRoundTrips() {
    MemoryStore store = new MemoryStore();
    NamedConfig codec = ArraySpec.shardingIndexed(new int[] {2, 3}, List.of(bytesLe(), ArraySpec.zstd(3)), ArraySpec.defaultIndexCodecs(), "start");
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.UINT16, 4, 6).chunks(4, 6).codecs(List.of(codec)));
    String json = new String(toBytes(store.get("a/zarr.json").orElseThrow()), StandardCharsets.UTF_8);
    assertFalse(json.isEmpty());
    ZarrArray reopened = Zarr.openArray(store, "a");
    assertEquals(array.metadata().codecs().get(0).toJson(), reopened.metadata().codecs().get(0).toJson());
    assertEquals(codec.toJson(), reopened.pipeline().serializer().toMetadata().toJson());
  }

  static byte[] toBytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  static String hex(ByteBuffer b) {
    return HexFormat.of().formatHex(toBytes(b));
  }
}
