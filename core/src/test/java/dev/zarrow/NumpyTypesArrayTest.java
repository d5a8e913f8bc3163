package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedBytesType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.FixedUtf32Type;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.dtype.NumpyTimeType;
import dev.zarrow.dtype.StructType;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The numpy data types through whole arrays: written and read back (all, a region across chunks, an
 * Arrow stream of batches that cross chunk edges), little and big endian, plain chunks and shards, and
 * missing chunks read as the fill value.
 */
@ExtendWith(AllocatorExtension.class)
class NumpyTypesArrayTest {
  private static final int N = 20;

  static List<DataType> types() {
    return List.of(
        type("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}"),
        type("{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"m\",\"scale_factor\":15}}"),
        type("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}"),
        type("{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":5}}"),
        type("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":3}}"),
        type("{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"id\",\"data_type\":\"int32\"},"
            + "{\"name\":\"ok\",\"data_type\":\"bool\"},{\"name\":\"t\",\"data_type\":{\"name\":\"numpy.datetime64\","
            + "\"configuration\":{\"unit\":\"s\",\"scale_factor\":1}}},{\"name\":\"s\",\"data_type\":"
            + "{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":8}}},{\"name\":\"c\",\"data_type\":\"complex64\"},"
            + "{\"name\":\"p\",\"data_type\":{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"x\",\"data_type\":\"float64\"},"
            + "{\"name\":\"b\",\"data_type\":{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":2}}}]}}}]}}"));
  }

  static DataType type(String json) {
    return Registry.defaults().dataType(NamedConfig.parse(Json.parse(json, "t"), "/data_type"));
  }

  /** Little-endian bytes of one valid element of {@code type}: NaT now and then, strings of random length. */
  static void element(FixedWidthType type, Random random, ByteBuffer out) {
    if (type instanceof StructType s) {
      s.members().forEach(m -> element(m.type(), random, out));
    } else if (type instanceof NumpyTimeType) {
      out.putLong(random.nextInt(5) == 0 ? Long.MIN_VALUE : random.nextLong());
    } else if (type instanceof FixedUtf32Type u) {
      int n = random.nextInt(u.units() + 1);
      for (int i = 0; i < u.units(); i++) {
        int cp = random.nextInt(3) == 0 ? 0x1f600 + random.nextInt(50) : 'a' + random.nextInt(26);
        out.putInt(i < n ? cp : 0);
      }
    } else if (type.equals(FixedType.BOOL)) {
      out.put((byte) random.nextInt(2));
    } else {
      byte[] b = new byte[type.byteWidth()];
      random.nextBytes(b);
      out.put(b);
    }
  }

  static byte[] values(FixedWidthType type, int count, Random random) {
    ByteBuffer out = ByteBuffer.allocate(count * type.byteWidth()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      element(type, random, out);
    }
    return out.array();
  }

  private static List<ArraySpec> layouts(DataType type) {
    return List.of(
        ArraySpec.of(type, N).chunks(3).codecs(List.of(ArraySpec.bytes("little"), ArraySpec.gzip(1))),
        ArraySpec.of(type, N).chunks(3).codecs(List.of(ArraySpec.bytes("big"))),
        ArraySpec.of(type, N).chunks(6).codecs(List.of(ArraySpec.shardingIndexed(new int[] {2}, List.of(ArraySpec.bytes("big"))))));
  }

  @Test
  void arraysRoundTripInEveryLayout(BufferAllocator allocator) throws Exception {
    Random random = Seeds.random("numpy types arrays");
    for (DataType dt : types()) {
      FixedWidthType type = (FixedWidthType) dt;
      byte[] bytes = values(type, N, random);
      for (ArraySpec spec : layouts(type)) {
        String what = type + " " + Json.compact(spec.toMetadata().toJson().get("codecs"));
        MemoryStore store = new MemoryStore();
        ZarrArray array = Zarr.createArray(store, "a", spec);
        try (FieldVector values = Vectors.fromBytes(type, bytes, allocator)) {
          array.write(0, values);
        }
        ZarrArray again = Zarr.openArray(store, "a");
        assertEquals(type, again.dataType(), what);
        try (FieldVector want = Vectors.fromBytes(type, bytes, allocator); NdVector got = again.read(allocator)) {
          Vectors.assertSameValues(want, got.vector(), what);
        }
        byte[] part = Arrays.copyOfRange(bytes, 4 * type.byteWidth(), 13 * type.byteWidth());
        try (FieldVector want = Vectors.fromBytes(type, part, allocator);
            NdVector got = again.read(new Box(new long[] {4}, new long[] {9}), allocator)) {
          Vectors.assertSameValues(want, got.vector(), what + " [4, 13)");
        }
        try (ArrayReader reader = ArrayReader.of(again, allocator, 7)) {
          VectorSchemaRoot root = reader.getVectorSchemaRoot();
          int row = 0;
          while (reader.loadNextBatch()) {
            int n = root.getRowCount();
            try (FieldVector want = Vectors.fromBytes(type,
                Arrays.copyOfRange(bytes, row * type.byteWidth(), (row + n) * type.byteWidth()), allocator)) {
              Vectors.assertSameValues(want, root.getFieldVectors().get(0), what + " batch at " + row);
            }
            row += n;
          }
          assertEquals(N, row, what);
        }
      }
    }
  }

  @Test
  void missingChunksReadAsTheFillValue(BufferAllocator allocator) {
    Random random = Seeds.random("numpy types fill");
    for (DataType dt : types()) {
      FixedWidthType type = (FixedWidthType) dt;
      byte[] first = values(type, 1, random);
      FillValue fill = FillValue.of(first);
      for (ArraySpec spec : layouts(type)) {
        String what = type + " fill " + Json.compact(type.fillToJson(fill));
        MemoryStore store = new MemoryStore();
        Zarr.createArray(store, "a", spec.fillValue(type.fillToJson(fill)));
        ZarrArray array = Zarr.openArray(store, "a");
        assertEquals(fill, array.fillValue(), what);
        try (NdVector got = array.read(allocator)) {
          assertEquals(N, got.vector().getValueCount());
          assertTrue(type.isAllFill(got.vector(), fill), what);
          try (FieldVector want = type.filled(allocator, N, fill)) {
            Vectors.assertSameValues(want, got.vector(), what);
          }
        }
      }
    }
  }

  @Test
  void corruptChunksAreRefusedNamingTheChunk(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    DataType utf32 = types().get(2);
    Zarr.createArray(store, "u", ArraySpec.of(utf32, 6).chunks(3).codecs(List.of(ArraySpec.bytes("little"))));
    byte[] bad = new byte[36];
    ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(12, 0xd800); // a lone surrogate in element 1
    store.set("u/c/1", ByteBuffer.wrap(bad));
    var e = assertThrows(CorruptChunkException.class, () -> Zarr.openArray(store, "u").read(allocator).close());
    assertTrue(e.getMessage().contains("u/c/1") && e.getMessage().contains("element 1"), e.getMessage());

    DataType struct = types().get(5);
    Zarr.createArray(store, "s", ArraySpec.of(struct, 6).chunks(3).codecs(List.of(ArraySpec.bytes("big"))));
    store.set("s/c/0", ByteBuffer.wrap(new byte[3 * struct.byteWidth() - 1]));
    var t = assertThrows(CorruptChunkException.class, () -> Zarr.openArray(store, "s").read(allocator).close());
    assertTrue(t.getMessage().contains("s/c/0"), t.getMessage());
  }

  @Test
  void defaultFillOfTimesIsNaTAndReadsAsNull(BufferAllocator allocator) {
    DataType t = types().get(0);
    MemoryStore store = new MemoryStore();
    Zarr.createArray(store, "a", ArraySpec.of(t, 4).chunks(2));
    assertTrue(new String(Vectors.toArray(store.get("a/zarr.json").orElseThrow())).contains("\"fill_value\" : \"NaT\""),
        new String(Vectors.toArray(store.get("a/zarr.json").orElseThrow())));
    try (NdVector got = Zarr.openArray(store, "a").read(allocator)) {
      assertEquals(4, got.vector().getNullCount());
    }
    assertTrue(FixedBytesType.of(true, 1).bytesAreArrowData());
  }
}
