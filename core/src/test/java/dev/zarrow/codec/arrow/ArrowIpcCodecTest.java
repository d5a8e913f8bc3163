package dev.zarrow.codec.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.NdVector;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.MetadataVersion;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The arrow codec on its own: layout written, streams read from others, spellings, refusals. */
@ExtendWith(AllocatorExtension.class)
class ArrowIpcCodecTest {
  static final Field INT32 = new Field("x", FieldType.nullable(new ArrowType.Int(32, true)), null);
  static final DictionaryEncoding DICT3 = new DictionaryEncoding(3, false, new ArrowType.Int(8, true));
  static final Field DICT_UTF8 = new Field("d", new FieldType(true, ArrowType.Utf8.INSTANCE, DICT3), null);

  static ArrowIpcCodec codec(String json) {
    return (ArrowIpcCodec) Registry.defaults().codec(NamedConfig.parse(Json.parse(json, "test"), "/"), CodecOptions.DEFAULT);
  }

  static ChunkSpec spec(DataType type, int n) {
    return new ChunkSpec(new int[] {n}, type, type.defaultFill());
  }

  static IntVector ints(BufferAllocator allocator, String name, Integer... values) {
    IntVector v = new IntVector(name, allocator);
    v.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        v.set(i, values[i]);
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  static VarCharVector strings(BufferAllocator allocator, String name, String... values) {
    return Vectors.utf8(allocator, name, values);
  }

  static void assertSameValues(FieldVector expected, FieldVector actual) {
    ArrowRoundTripTest.assertEqualVectors(expected, actual, "vector");
  }

  @Test
  void writesSchemaThenDictionaryThenBatchThenEndMarker(BufferAllocator allocator) throws Exception {
    ArrowDataType type = ArrowDataType.of(DICT_UTF8);
    ArrowIpcCodec codec = ArrowIpcCodec.arrow();
    try (VarCharVector values = strings(allocator, "v", "b", "a", null, "b")) {
      ByteBuffer bytes = codec.encode(values, spec(type, 4), allocator);
      byte[] raw = IpcBytes.array(bytes);
      assertArrayEquals(IpcBytes.eos(), java.util.Arrays.copyOfRange(raw, raw.length - 8, raw.length));
      try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(raw), allocator)) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        assertEquals(List.of(dev.zarrow.vector.Dictionaries.indexedField(DICT_UTF8)), root.getSchema().getFields());
        assertTrue(reader.loadNextBatch());
        assertEquals(4, root.getRowCount());
        Dictionary dictionary = reader.getDictionaryVectors().get(3L);
        assertEquals(2, dictionary.getVector().getValueCount(), "the chunk's distinct values");
        assertEquals("b", dictionary.getVector().getObject(0).toString());
        assertEquals("a", dictionary.getVector().getObject(1).toString());
        try (FieldVector decoded = (FieldVector) DictionaryEncoder.decode(root.getVector(0), dictionary)) {
          assertSameValues(values, decoded);
        }
        assertFalse(reader.loadNextBatch());
      }
      try (FieldVector back = codec.decode(bytes, spec(type, 4), allocator)) {
        assertSameValues(values, back);
        assertEquals("d", back.getField().getName());
      }
    }
  }

  @Test
  void readsArrowJavaStreamsWithOtherNamesIdsAndSeveralBatches(BufferAllocator allocator) {
    // The array's field calls the dictionary 3; this writer calls it 42 and its column "other".
    DictionaryEncoding theirs = new DictionaryEncoding(42, false, new ArrowType.Int(8, true));
    Field other = new Field("other", new FieldType(false, ArrowType.Utf8.INSTANCE, theirs), null);
    try (VarCharVector dictionary = strings(allocator, "dict", "zero", "one", "two", "unused");
        VarCharVector first = strings(allocator, "other", "two", null, "zero");
        VarCharVector second = strings(allocator, "other", "one", "one")) {
      Dictionary dict = new Dictionary(dictionary, theirs);
      DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider(dict);
      List<VectorSchemaRoot> batches = new ArrayList<>();
      try {
        for (VarCharVector values : List.of(first, second)) {
          FieldVector indices = (FieldVector) DictionaryEncoder.encode(values, dict);
          batches.add(new VectorSchemaRoot(List.of(indices)));
        }
        byte[] stream = IpcBytes.arrowJava(batches, provider, IpcOption.DEFAULT, NoCompressionCodec.Factory.INSTANCE,
            CompressionUtil.CodecType.NO_COMPRESSION, allocator);
        try (FieldVector got = ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(DICT_UTF8), 5),
                allocator);
            VarCharVector want = strings(allocator, "d", "two", null, "zero", "one", "one")) {
          assertSameValues(want, got);
        }
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
    }
  }

  private static byte[] int32Stream(IpcOption option, CompressionUtil.CodecType codec, BufferAllocator allocator,
      Integer... values) {
    try (IntVector v = ints(allocator, "x", values); VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
      return IpcBytes.arrowJava(List.of(root), null, option,
          codec == CompressionUtil.CodecType.NO_COMPRESSION ? NoCompressionCodec.Factory.INSTANCE
              : new IpcBytes.TestCompression(codec), codec, allocator);
    }
  }

  private static FieldVector decodeInts(byte[] stream, int n, BufferAllocator allocator) {
    return ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(INT32), n), allocator);
  }

  @Test
  void readsLegacyFramingAndStreamsWithoutEndMarker(BufferAllocator allocator) {
    byte[] legacy = int32Stream(new IpcOption(true, MetadataVersion.V5), CompressionUtil.CodecType.NO_COMPRESSION,
        allocator, 1, null, 3);
    assertTrue(legacy[0] != -1, "no continuation marker");
    byte[] modern = int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.NO_COMPRESSION, allocator, 1, null, 3);
    byte[] noEnd = java.util.Arrays.copyOf(modern, modern.length - 8);
    try (IntVector want = ints(allocator, "x", 1, null, 3)) {
      for (byte[] stream : List.of(legacy, modern, noEnd)) {
        try (FieldVector got = decodeInts(stream, 3, allocator)) {
          assertSameValues(want, got);
        }
      }
    }
    byte[] trailing = IpcBytes.concat(modern, new byte[] {1, 2, 3});
    assertThrows(CorruptChunkException.class, () -> decodeInts(trailing, 3, allocator).close());
  }

  @Test
  void readsZstdBodiesAndRefusesLz4(BufferAllocator allocator) {
    Integer[] values = new Integer[1000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i % 7 == 0 ? null : i % 13;
    }
    byte[] zstd = int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.ZSTD, allocator, values);
    try (IntVector want = ints(allocator, "x", values); FieldVector got = decodeInts(zstd, values.length, allocator)) {
      assertSameValues(want, got);
    }
    byte[] lz4 = int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.LZ4_FRAME, allocator, values);
    UnsupportedExtensionException e =
        assertThrows(UnsupportedExtensionException.class, () -> decodeInts(lz4, values.length, allocator).close());
    assertTrue(e.getMessage().contains("LZ4_FRAME"), e.getMessage());
  }

  @Test
  void refusesDeltaDictionaries(BufferAllocator allocator) {
    byte[] dictBody = IpcBytes.concat(IpcBytes.ints(0, 1, 1), new byte[] {'a', 0, 0, 0});
    long[][] dictNodes = {{1, 0}};
    long[][] dictBuffers = {{0, 0}, {0, 8}, {12, 1}};
    byte[] indexBody = new byte[] {0, 0, 0, 0, 0, 0, 0, 0};
    byte[] stream = IpcBytes.concat(
        IpcBytes.schema(DICT_UTF8),
        IpcBytes.dictionary(3, false, 1, dictNodes, dictBuffers, dictBody),
        IpcBytes.dictionary(3, true, 1, dictNodes, dictBuffers, dictBody),
        IpcBytes.batch(1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 1}}, indexBody),
        IpcBytes.eos());
    UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class,
        () -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(DICT_UTF8), 1), allocator));
    assertTrue(e.getMessage().contains("delta"), e.getMessage());
    // Without the delta the same stream reads.
    byte[] plain = IpcBytes.concat(
        IpcBytes.schema(DICT_UTF8),
        IpcBytes.dictionary(3, false, 1, dictNodes, dictBuffers, dictBody),
        IpcBytes.batch(1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 1}}, indexBody),
        IpcBytes.eos());
    try (FieldVector got = ArrowIpcCodec.arrow().decode(IpcBytes.direct(plain), spec(ArrowDataType.of(DICT_UTF8), 1),
        allocator)) {
      assertEquals("a", got.getObject(0).toString());
    }
  }

  /** The column name a chunk was written with. */
  private static String columnName(ByteBuffer chunk, BufferAllocator allocator) throws Exception {
    try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(IpcBytes.array(chunk)), allocator)) {
      return reader.getVectorSchemaRoot().getSchema().getFields().get(0).getName();
    }
  }

  @Test
  void spellingsAndColumnNames(BufferAllocator allocator) throws Exception {
    ArrowDataType arrow = ArrowDataType.of(INT32);
    try (IntVector v = ints(allocator, "whatever", 1, 2, 3)) {
      assertEquals("x", columnName(codec("{\"name\": \"arrow\"}").encode(v, spec(arrow, 3), allocator), allocator));
      assertEquals("temperature", columnName(codec(
          "{\"name\": \"arrow-ipc\", \"configuration\": {\"column_name\": \"temperature\"}}").encode(v, spec(arrow, 3), allocator),
          allocator));
      assertEquals("zarr_array", columnName(codec("{\"name\": \"arrow_ipc\"}").encode(v, spec(arrow, 3), allocator), allocator));
      try (IntVector plain = new IntVector("", FieldType.notNullable(new ArrowType.Int(32, true)), allocator)) {
        plain.allocateNew(3);
        plain.set(0, 7);
        plain.set(1, 8);
        plain.set(2, 9);
        plain.setValueCount(3);
        ByteBuffer chunk = codec("{\"name\": \"arrow\"}").encode(plain, spec(FixedType.INT32, 3), allocator);
        assertEquals("zarr_chunk", columnName(chunk, allocator), "zarr-python PR 2031's column");
        try (FieldVector back = codec("{\"name\": \"arrow\"}").decode(chunk, spec(FixedType.INT32, 3), allocator)) {
          assertSameValues(plain, back);
        }
      }
    }
    String exact = "{\"name\":\"arrow-ipc\",\"configuration\":{\"column_name\":\"t\"}}";
    assertEquals(exact, Json.compact(codec(exact).toMetadata().toJson()));
    assertThrows(MetadataException.class, () -> codec("{\"name\": \"arrow\", \"configuration\": {\"column_name\": \"t\"}}"));
    assertThrows(MetadataException.class, () -> codec("{\"name\": \"arrow-ipc\", \"configuration\": {\"x\": 1}}"));
    assertThrows(MetadataException.class,
        () -> codec("{\"name\": \"arrow-ipc\", \"configuration\": {\"column_name\": 3}}"));
  }

  /** Arrays as zarr-python's PRs write them: a native data type, one pyarrow-style nullable column. */
  @Test
  void readsArraysOfOtherImplementationsSpellings(BufferAllocator allocator) {
    for (String codecJson : List.of(
        "{\"name\": \"arrow\"}",
        "{\"name\": \"arrow_ipc\", \"configuration\": {\"column_name\": \"zarr_array\"}}",
        "{\"name\": \"arrow-ipc\", \"configuration\": {\"column_name\": \"zarr_array\"}}")) {
      MemoryStore store = new MemoryStore();
      String meta = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [5], \"data_type\": \"int32\","
          + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [3]}},"
          + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, \"codecs\": [" + codecJson + "]}";
      store.set("a/zarr.json", ByteBuffer.wrap(meta.getBytes(StandardCharsets.UTF_8)));
      store.set("a/c/0", ByteBuffer.wrap(int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.NO_COMPRESSION,
          allocator, 10, 11, 12)));
      store.set("a/c/1", ByteBuffer.wrap(int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.NO_COMPRESSION,
          allocator, 13, 14, 0)));
      ZarrArray array = Zarr.openArray(store, "a");
      try (NdVector all = array.read(allocator)) {
        for (int i = 0; i < 5; i++) {
          assertEquals(10 + i, ((IntVector) all.vector()).get(i), codecJson);
        }
      }
    }
    // Nulls cannot live in an int32 array.
    MemoryStore store = new MemoryStore();
    byte[] withNull = int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.NO_COMPRESSION, allocator, 1, null, 3);
    CorruptChunkException e = assertThrows(CorruptChunkException.class,
        () -> codec("{\"name\": \"arrow\"}").decode(IpcBytes.direct(withNull), spec(FixedType.INT32, 3), allocator));
    assertTrue(e.getMessage().contains("not nullable"), e.getMessage());
    assertNull(store.get("x").orElse(null));
  }

  /** zarr-python's arrow-ipc (PR 3613) stores string arrays as a nullable utf8 column too. */
  @Test
  void stringArraysThroughArrowIpc(BufferAllocator allocator) throws Exception {
    ChunkSpec spec = spec(dev.zarrow.dtype.VarLenType.STRING, 3);
    ArrowIpcCodec codec = codec("{\"name\": \"arrow-ipc\", \"configuration\": {\"column_name\": \"zarr_array\"}}");
    try (VarCharVector values = strings(allocator, "s", "\u00e9t\u00e9", "", "z");
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(values))) {
      byte[] theirs = IpcBytes.arrowJava(List.of(root), null, IpcOption.DEFAULT, NoCompressionCodec.Factory.INSTANCE,
          CompressionUtil.CodecType.NO_COMPRESSION, allocator);
      try (FieldVector got = codec.decode(IpcBytes.direct(theirs), spec, allocator)) {
        assertSameValues(values, got);
        ByteBuffer ours = codec.encode(got, spec, allocator);
        assertEquals("zarr_array", columnName(ours, allocator));
      }
    }
  }

  @Test
  void refusesStreamsThatDoNotFitTheArray(BufferAllocator allocator) {
    byte[] three = int32Stream(IpcOption.DEFAULT, CompressionUtil.CodecType.NO_COMPRESSION, allocator, 1, 2, 3);
    assertMessage(() -> decodeInts(three, 4, allocator), "3 elements, the chunk 4");
    assertMessage(() -> decodeInts(three, 2, allocator), "more than the chunk's 2 elements");
    Field utf8 = new Field("x", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(three), spec(ArrowDataType.of(utf8), 3), allocator),
        "of type Int(32, true), the array's field 'x' of type Utf8");
    Field int64 = new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null);
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(three), spec(ArrowDataType.of(int64), 3), allocator),
        "type Int(32, true)");
    Field dictInt = new Field("x", new FieldType(true, new ArrowType.Int(32, true), DICT3), null);
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(three), spec(ArrowDataType.of(dictInt), 3), allocator),
        "is not dictionary-encoded");
    byte[] twoColumns = IpcBytes.concat(IpcBytes.schema(INT32, INT32), IpcBytes.eos());
    assertMessage(() -> decodeInts(twoColumns, 0, allocator), "2 columns");
    assertMessage(() -> decodeInts(new byte[0], 1, allocator), "no schema message");
    byte[] batchFirst = IpcBytes.concat(
        IpcBytes.batch(1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 4}}, IpcBytes.ints(5)), IpcBytes.eos());
    assertMessage(() -> decodeInts(batchFirst, 1, allocator), "not a schema");
  }

  static void assertMessage(org.junit.jupiter.api.function.Executable decode, String part) {
    ZarrException e = assertThrows(ZarrException.class, () -> {
      try {
        decode.execute();
      } catch (ZarrException z) {
        throw z;
      }
    });
    assertInstanceOf(CodecException.class, e, e.toString());
    assertTrue(e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
  }

  @Test
  void refusesVectorsOfAnotherShape(BufferAllocator allocator) {
    Field required = new Field("x", FieldType.notNullable(new ArrowType.Int(32, true)), null);
    try (IntVector v = ints(allocator, "x", 1, null); VarCharVector s = strings(allocator, "s", "a", "b")) {
      assertThrows(IllegalArgumentException.class, () -> ArrowIpcCodec.arrow().encode(v, spec(ArrowDataType.of(required), 2), allocator));
      assertThrows(IllegalArgumentException.class, () -> ArrowIpcCodec.arrow().encode(s, spec(ArrowDataType.of(INT32), 2), allocator));
    }
  }

  @Test
  void eightThreadsShareOneCodec(BufferAllocator allocator) throws Exception {
    ArrowDataType type = ArrowDataType.of(DICT_UTF8);
    ArrowIpcCodec codec = ArrowIpcCodec.arrow();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (VarCharVector values = strings(allocator, "v", "q", "r", null, "q", "s")) {
      byte[] reference = IpcBytes.array(codec.encode(values, spec(type, 5), allocator));
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < 50; i++) {
            assertArrayEquals(reference, IpcBytes.array(codec.encode(values, spec(type, 5), allocator)));
            try (FieldVector back = codec.decode(IpcBytes.direct(reference), spec(type, 5), allocator)) {
              assertTrue(VectorEqualsVisitor.vectorEquals(values, back, (a, b) -> true));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void metadataOfTheCodecIsKeptAsRead() {
    ObjectNode config = (ObjectNode) Json.parse("{\"column_name\": \"c\"}", "t");
    ArrowIpcCodec codec = (ArrowIpcCodec) Registry.defaults().codec(NamedConfig.of("arrow_ipc", config), CodecOptions.DEFAULT);
    assertEquals("arrow_ipc", codec.toMetadata().name());
    assertEquals(config, codec.toMetadata().configuration());
  }
}
