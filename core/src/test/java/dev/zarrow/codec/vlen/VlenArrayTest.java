package dev.zarrow.codec.vlen;

import static dev.zarrow.codec.vlen.VlenTesting.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.testing.RecordingStore;
import dev.zarrow.testing.Vectors;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Variable-length arrays end to end: regions across chunks, partial writes, fill chunks, layouts, zero copy. */
@ExtendWith(AllocatorExtension.class)
class VlenArrayTest {
  @TempDir Path dir;

  static Stream<Arguments> layouts() {
    List<Arguments> out = new ArrayList<>();
    for (VarLenType type : VarLenType.ALL) {
      out.add(Arguments.of(type, null)); // the type's default
      out.add(Arguments.of(type, VlenTesting.ZEP7));
      out.add(Arguments.of(type, "[{\"name\": \"zstd\"}]")); // ZEP7, compressed
      out.add(Arguments.of(type, VlenTesting.interleaved(type)));
      out.add(Arguments.of(type, VlenTesting.zarrsVlenCompressed("uint32", "end")));
    }
    return out.stream();
  }

  private static ArraySpec spec(VarLenType type, String codecs, long[] shape, int[] chunks, String fill) {
    ArraySpec spec = ArraySpec.of(type, shape).chunks(chunks).fillValue(
        type.isText() ? TextNode.valueOf(fill) : TextNode.valueOf(java.util.Base64.getEncoder().encodeToString(fill.getBytes(StandardCharsets.UTF_8))));
    return codecs == null ? spec : spec.codecs(VlenTesting.codecs(codecs));
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void regionsAcrossChunksMatchAReference(VarLenType type, String codecs, BufferAllocator allocator) {
    regionsMatchAReference(type, codecs, new int[] {3, 4}, allocator);
  }

  /** Inner layouts of shards: the codec list inside sharding_indexed. */
  static Stream<Arguments> shardedLayouts() {
    List<Arguments> out = new ArrayList<>();
    for (VarLenType type : List.of(VarLenType.STRING, VarLenType.LARGE_BINARY)) {
      for (String inner : List.of(VlenTesting.interleaved(type), VlenTesting.ZEP7, "[{\"name\": \"zstd\"}]",
          VlenTesting.zarrsVlen("uint32", "end"))) {
        for (String location : List.of("end", "start")) {
          out.add(Arguments.of(type, "[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [2, 3], "
              + "\"codecs\": " + inner + ", \"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, "
              + "{\"name\": \"crc32c\"}], \"index_location\": \"" + location + "\"}}]"));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("shardedLayouts")
  void shardsOfStrings(VarLenType type, String codecs, BufferAllocator allocator) {
    Assumptions.assumeTrue(dev.zarrow.spi.Registry.defaults().codecNames().contains("sharding_indexed"),
        "SKIPPED until sharding_indexed is registered: variable-length inner chunks in shards");
    regionsMatchAReference(type, codecs, new int[] {4, 6}, allocator);
  }

  private void regionsMatchAReference(VarLenType type, String codecs, int[] chunks, BufferAllocator allocator) {
    long[] shape = {7, 11};
    for (WritableStore store : List.of(new MemoryStore(), FileSystemStore.open(dir.resolve(type.name())))) {
      ZarrArray array = Zarr.createArray(store, "s", spec(type, codecs, shape, chunks, "NA"));
      String[] reference = new String[77];
      Arrays.fill(reference, "NA");
      Random random = Seeds.random("vlen regions " + type + " " + codecs);
      for (int round = 0; round < 25; round++) {
        Box region = Boxes.random(random, shape);
        String[] values = VlenTesting.randomStrings(random, (int) region.size());
        if (random.nextInt(4) == 0) {
          Arrays.fill(values, "NA"); // writing the fill value (may delete chunks)
        }
        int[] i = {0};
        Boxes.forEachFlat(region, shape, flat -> reference[(int) flat] = values[i[0]++]);
        try (FieldVector data = Vectors.varLen(type, allocator, VlenTesting.utf8(values))) {
          array.write(region, data);
        }
        Box read = Boxes.random(random, shape);
        try (NdVector got = Zarr.openArray(store, "s").read(read, allocator)) {
          assertArrayEquals(read.shape(), got.shape());
          assertEquals(type.field("").getType(), got.vector().getField().getType());
          byte[][] bytes = Vectors.byteArrays(got.vector());
          int[] k = {0};
          Boxes.forEachFlat(read, shape, flat -> assertEquals(reference[(int) flat], new String(bytes[k[0]++], StandardCharsets.UTF_8),
              "element " + flat));
        }
      }
      try (NdVector all = array.read(allocator)) {
        byte[][] bytes = Vectors.byteArrays(all.vector());
        for (int i = 0; i < 77; i++) {
          assertEquals(reference[i], new String(bytes[i], StandardCharsets.UTF_8));
        }
      }
      // Edge chunks read clipped; chunks whose every element is the fill value are not stored.
      for (long[] coords : array.chunks()) {
        Box box = array.grid().chunkBox(coords).intersect(Box.of(shape));
        boolean allFill = true;
        List<Long> flats = new ArrayList<>();
        Boxes.forEachFlat(box, shape, flats::add);
        for (long f : flats) {
          allFill &= reference[(int) f].equals("NA");
        }
        assertEquals(!allFill, store.exists(array.chunkKey(coords)), Arrays.toString(coords));
        try (NdVector chunk = array.readChunk(coords, allocator)) {
          assertArrayEquals(box.shape(), chunk.shape());
          byte[][] bytes = Vectors.byteArrays(chunk.vector());
          for (int i = 0; i < flats.size(); i++) {
            assertEquals(reference[(int) (long) flats.get(i)], new String(bytes[i], StandardCharsets.UTF_8));
          }
        }
      }
    }
  }

  @Test
  void wholeChunkReadsFromAFileStoreShareTheFileBuffer(BufferAllocator allocator) {
    for (VarLenType type : VarLenType.ALL) {
      RecordingStore store = new RecordingStore(FileSystemStore.open(dir.resolve("zc-" + type.name())));
      ZarrArray array = Zarr.createArray(store, "a", spec(type, VlenTesting.ZEP7, new long[] {8}, new int[] {4}, ""));
      try (FieldVector data = Vectors.varLen(type, allocator, VlenTesting.utf8(new String[] {"a", "bb", "", "dddd", "é", "😀", "x", "yz"}))) {
        array.write(0, data);
      }
      for (long c = 0; c < 2; c++) {
        long[] coords = {c};
        try (NdVector chunk = array.readChunk(coords, allocator)) {
          long address = store.lastAddress(array.chunkKey(coords));
          assertTrue(store.returned().stream().allMatch(b -> b.isDirect() && !b.isReadOnly()), "the file store's own memory");
          assertEquals(address, chunk.vector().getOffsetBuffer().memoryAddress(), type + " offsets");
          assertEquals(address + 64, chunk.vector().getDataBuffer().memoryAddress(), type + " data");
        }
        try (NdVector region = array.read(new Box(new long[] {4 * c}, new long[] {4}), allocator)) {
          assertEquals(store.lastAddress(array.chunkKey(coords)) + 64, region.vector().getDataBuffer().memoryAddress());
        }
      }
      try (NdVector all = array.read(allocator)) {
        assertArrayEquals(new String[] {"a", "bb", "", "dddd", "é", "😀", "x", "yz"}, strings(all.vector()));
      }
    }
  }

  private static String[] strings(FieldVector v) {
    byte[][] raw = Vectors.byteArrays(v);
    String[] out = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      out[i] = new String(raw[i], StandardCharsets.UTF_8);
    }
    return out;
  }

  @Test
  void readsChunksBuiltByHand(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    String common = "\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [5], "
        + "\"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [3]}}, "
        + "\"chunk_key_encoding\": {\"name\": \"default\"}, ";
    // numcodecs VLenUTF8 (zarr-python's string arrays); the edge chunk is stored full size.
    put(store, "py/zarr.json", "{" + common + "\"data_type\": \"string\", \"fill_value\": \"\", "
        + "\"codecs\": [{\"name\": \"vlen-utf8\", \"configuration\": {}}]}");
    put(store, "py/c/0", hex("03000000 01000000 61 02000000 6262 00000000"));
    put(store, "py/c/1", hex("03000000 04000000 64646464 02000000 c3a9 00000000"));
    // zarrs.vlen, index at the end, v0.1 configuration.
    put(store, "rs/zarr.json", "{" + common + "\"data_type\": \"string\", \"fill_value\": \"\", \"codecs\": "
        + VlenTesting.zarrsVlen("uint64", "end") + "}");
    put(store, "rs/c/0", hex("616262" + "0000000000000000 0100000000000000 0300000000000000 0300000000000000" + "2000000000000000"));
    put(store, "rs/c/1", hex("64646464c3a9" + "0000000000000000 0400000000000000 0600000000000000 0600000000000000" + "2000000000000000"));
    // ZEP7, with the proposal's type name "binary" and no array->bytes codec.
    put(store, "zep7/zarr.json", "{" + common + "\"data_type\": {\"name\": \"binary\"}, \"fill_value\": \"\", \"codecs\": []}");
    put(store, "zep7/c/0", hex("00000000 01000000 03000000 03000000" + "00".repeat(48) + "616262"));
    for (String path : List.of("py", "rs")) {
      try (NdVector all = Zarr.openArray(store, path).read(allocator)) {
        assertArrayEquals(new String[] {"a", "bb", "", "dddd", "é"}, strings(all.vector()), path);
      }
    }
    try (NdVector all = Zarr.openArray(store, "zep7").read(allocator)) {
      assertArrayEquals(new String[] {"a", "bb", "", "", ""}, strings(all.vector())); // chunk 1 missing: fill
    }
  }

  private static void put(MemoryStore store, String key, String json) {
    store.set(key, ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
  }

  private static void put(MemoryStore store, String key, byte[] bytes) {
    store.set(key, ByteBuffer.wrap(bytes));
  }

  @Test
  void readsWithOneLayoutAndWritesWithAnother(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    Random random = Seeds.random("vlen layout conversion");
    String[] values = VlenTesting.randomStrings(random, 1000);
    ZarrArray source = Zarr.createArray(store, "src", ArraySpec.of(VarLenType.STRING, 1000).chunks(128));
    try (FieldVector data = Vectors.varLen(VarLenType.STRING, allocator, values)) {
      source.write(0, data);
    }
    List<List<NamedConfig>> targets = List.of(
        VlenTesting.codecs(VlenTesting.ZEP7),
        VlenTesting.codecs("[{\"name\": \"crc32c\"}]"),
        VlenTesting.codecs(VlenTesting.zarrsVlen("uint32", "start")),
        VlenTesting.codecs(VlenTesting.zarrsVlenCompressed("uint64", "end")),
        VlenTesting.codecs(VlenTesting.VLEN_V2));
    for (int t = 0; t < targets.size(); t++) {
      ZarrArray target = Zarr.createArray(store, "dst" + t,
          ArraySpec.of(source.dataType(), source.shape()).chunks(source.grid().chunkShape()).codecs(targets.get(t)));
      for (long[] coords : source.chunks()) {
        try (NdVector chunk = source.readChunk(coords, allocator)) {
          target.write(new long[] {coords[0] * 128}, chunk);
        }
      }
      try (NdVector back = Zarr.openArray(store, "dst" + t).read(allocator)) {
        assertArrayEquals(values, strings(back.vector()));
      }
      // The stored chunks really are in the target layout: decode one with that layout's pipeline alone.
      ByteBuffer stored = store.get(target.chunkKey(new long[] {0})).orElseThrow();
      try (FieldVector chunk = target.pipeline().decode(stored, allocator)) {
        assertArrayEquals(Arrays.copyOf(values, 128), strings(chunk));
      }
      assertThrows(CorruptChunkException.class, () -> source.pipeline().decode(stored, allocator).close());
    }
  }

  @Test
  void metadataOfNewArrays() {
    MemoryStore store = new MemoryStore();
    Zarr.createArray(store, "s", ArraySpec.of(VarLenType.STRING, 10));
    Zarr.createArray(store, "b", ArraySpec.of(VarLenType.BYTES, 10));
    Zarr.createArray(store, "l", ArraySpec.of(VarLenType.LARGE_STRING, 10));
    var s = Json.parse(store.get("s/zarr.json").orElseThrow(), "s");
    assertEquals("string", s.get("data_type").textValue());
    assertEquals("", s.get("fill_value").textValue());
    assertEquals("vlen-utf8", s.get("codecs").get(0).get("name").textValue());
    var b = Json.parse(store.get("b/zarr.json").orElseThrow(), "b");
    assertEquals("bytes", b.get("data_type").textValue());
    assertEquals("vlen-bytes", b.get("codecs").get(0).get("name").textValue());
    var l = Json.parse(store.get("l/zarr.json").orElseThrow(), "l");
    assertEquals("zstd", l.get("codecs").get(0).get("name").textValue()); // ZEP7: no serializer, then compression
    assertTrue(Zarr.openArray(store, "l").pipeline().serializer() instanceof Zep7Codec);
  }

  @Test
  void refusesNullsWithAdvice(BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(new MemoryStore(), "s", ArraySpec.of(VarLenType.STRING, 4).chunks(2));
    try (VarCharVector v = new VarCharVector("x", allocator)) {
      v.allocateNew();
      v.setSafe(0, "a".getBytes());
      v.setNull(1);
      v.setSafe(2, "c".getBytes());
      v.setSafe(3, "d".getBytes());
      v.setValueCount(4);
      try (FieldVector firstTwo = sliceOf(v, allocator)) {
        for (Runnable write : List.<Runnable>of(() -> array.write(0, v), () -> array.writeChunk(new long[] {0}, firstTwo))) {
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write::run);
          assertTrue(e.getMessage().contains("arrow data type"), e.getMessage());
        }
      }
    }
  }

  private static FieldVector sliceOf(VarCharVector v, BufferAllocator allocator) {
    var tp = v.getTransferPair(allocator);
    tp.splitAndTransfer(0, 2);
    return (FieldVector) tp.getTo();
  }

}
