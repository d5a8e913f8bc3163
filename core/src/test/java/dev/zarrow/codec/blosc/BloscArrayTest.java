package dev.zarrow.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Arrays with blosc: the typesize stored as the element size (also inside shards), and values read back. */
@ExtendWith(AllocatorExtension.class)
class BloscArrayTest {

  @Test
  void typesizeIsStoredAndValuesReadBack(BufferAllocator allocator) {
    Random random = Seeds.random("blosc array");
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT16, 300, 70).chunks(128, 64)
        .compressors(List.of(ArraySpec.blosc("lz4", 5, null))));
    assertEquals("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"blosc\",\"configuration\":"
        + "{\"typesize\":2,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}}]",
        Json.compact(Json.parse(store.get("a/zarr.json").orElseThrow(), "zarr.json").get("codecs")));
    try (FieldVector values = Vectors.random(FixedType.INT16, 300 * 70, random, allocator)) {
      a.write(new long[] {0, 0}, new NdVector(values, new long[] {300, 70}));
      try (NdVector back = Zarr.openArray(store, "a").read(allocator)) {
        Vectors.assertSameValues(values, back.vector(), "int16 through blosc");
      }
    }
  }

  @Test
  void typesizeInsideShards(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    Zarr.createArray(store, "s", ArraySpec.of(FixedType.FLOAT64, 64).chunks(64).serializer(
        ArraySpec.shardingIndexed(new int[] {16}, List.of(ArraySpec.bytes("little"), ArraySpec.blosc("zstd", 3, "bitshuffle"))))
        .compressors(List.of()));
    String codecs = Json.compact(Json.parse(store.get("s/zarr.json").orElseThrow(), "zarr.json").get("codecs"));
    assertEquals(true, codecs.contains("{\"name\":\"blosc\",\"configuration\":{\"typesize\":8,\"cname\":\"zstd\",\"clevel\":3,"
        + "\"shuffle\":\"bitshuffle\",\"blocksize\":0}}"), codecs);
  }
}
