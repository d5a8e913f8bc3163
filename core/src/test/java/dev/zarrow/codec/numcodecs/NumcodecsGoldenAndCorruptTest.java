package dev.zarrow.codec.numcodecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import org.apache.arrow.vector.Float8Vector;
import java.util.List;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.DirectMemory;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.Arrays;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Golden bytes that numcodecs 0.11 wrote (printed by Python once, kept here so that the test runs without
 * it), and corrupt input: truncated chunks, lying size headers and wrong lengths fail with a
 * {@link CorruptChunkException} naming the reason, before any large allocation.
 */
@ExtendWith(AllocatorExtension.class)
class NumcodecsGoldenAndCorruptTest {
  private static final HexFormat HEX = HexFormat.of();

  private static <T> T codec(String json) {
    ObjectNode config = (ObjectNode) new ObjectMapper().valueToTree(parse(json));
    @SuppressWarnings("unchecked")
    T codec = (T) NumcodecsPeerTest.codec(config);
    return codec;
  }

  private static Object parse(String json) {
    try {
      return new ObjectMapper().readValue(json, Object.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static ByteBuffer hex(String hex) {
    byte[] b = HEX.parseHex(hex);
    return ByteBuffer.allocateDirect(b.length).put(b).flip();
  }

  private static byte[] decode(BytesToBytesCodec codec, ByteBuffer bytes) {
    return Vectors.toArray(codec.decode(bytes, -1, 1 << 20));
  }

  private static void assertCorrupt(String reason, Executable decoding) {
    CorruptChunkException e = assertThrows(CorruptChunkException.class, decoding);
    assertTrue(e.getMessage().contains(reason), "'" + e.getMessage() + "' names '" + reason + "'");
  }

  // ---- golden bytes (numcodecs 0.11.0, numpy 1.24.2) ----

  @Test
  void goldenCompressors() {
    byte[] hello = "hello hello hello".getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(hello, decode(codec("{\"id\":\"zlib\",\"level\":1}"), hex("7801cb48cdc9c957c84090003a2e067d")));
    assertArrayEquals(hello, decode(codec("{\"id\":\"bz2\",\"level\":1}"),
        hex("425a68313141592653599e625bfe000002910040000244a000211460668291ef23470bb9229c28484f312dff00")));
    BytesToBytesCodec lz4 = codec("{\"id\":\"lz4\",\"acceleration\":1}");
    assertArrayEquals("abcabcabcabcabc".getBytes(StandardCharsets.US_ASCII), decode(lz4, hex("0f000000336162630300506263616263")));
    assertArrayEquals(new byte[0], decode(lz4, hex("0000000000")), "numcodecs' encoding of no bytes");
    assertEquals("0000000000", HEX.formatHex(Vectors.toArray(lz4.encode(ByteBuffer.allocate(0)))));
  }

  @Test
  void goldenShuffle() {
    BytesToBytesCodec shuffle = codec("{\"id\":\"shuffle\",\"elementsize\":4}");
    ByteBuffer arange = ByteBuffer.allocate(20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 10; i++) {
      arange.putShort((short) i);
    }
    String golden = "0002040608000000000001030507090000000000"; // Shuffle(4) of numpy.arange(10, dtype="<u2")
    assertEquals(golden, HEX.formatHex(Vectors.toArray(shuffle.encode(arange.flip()))));
    assertArrayEquals(arange.array(), decode(shuffle, hex(golden)));
  }

  /** Golden filter output: {@code values} of {@code dtype} encode to {@code golden} (numcodecs' bytes) and back. */
  private static void assertFilter(String config, FixedType dtype, double[] values, String golden, double[] decoded, BufferAllocator allocator) {
    ArrayToArrayCodec codec = codec(config);
    ChunkSpec spec = new ChunkSpec(new int[] {values.length}, dtype, dtype.defaultFill());
    FixedType astype = (FixedType) codec.encodedSpec(spec).dataType();
    try (FieldVector in = Lanes.fromDoubles(values, dtype, allocator);
        FieldVector enc = codec.encode(in, spec, allocator);
        FieldVector fromGolden = Vectors.fromBytes(astype, HEX.parseHex(golden), allocator);
        FieldVector dec = codec.decode(fromGolden, spec, allocator);
        FieldVector expected = Lanes.fromDoubles(decoded, dtype, allocator)) {
      assertEquals(golden, HEX.formatHex(Vectors.bytes(astype, enc)), config);
      Vectors.assertSameValues(expected, dec, config + " decoded");
    }
  }

  @Test
  void goldenFilters(BufferAllocator allocator) {
    // -200 - 99 = -299 in int16 becomes -43 (0xd5) in int8: lossy, numcodecs decodes 99 - 43 = 56 too
    assertFilter("{\"id\":\"delta\",\"dtype\":\"<i2\",\"astype\":\"<i1\"}", FixedType.INT16, new double[] {100, 103, 99, -200},
        "6403fcd5", new double[] {100, 103, 99, 56}, allocator);
    // round half to even: 2.5 -> 2; -0.5 (about) -> -0 -> 0
    assertFilter("{\"id\":\"fixedscaleoffset\",\"offset\":1000,\"scale\":10,\"dtype\":\"<f8\",\"astype\":\"<u2\"}", FixedType.FLOAT64,
        new double[] {1000.0, 1000.25, 999.95, 1001.05}, "0000020000000a00", new double[] {1000.0, 1000.2, 1000.0, 1001.0}, allocator);
    assertFilter("{\"id\":\"quantize\",\"digits\":2,\"dtype\":\"<f8\",\"astype\":\"<f4\"}", FixedType.FLOAT64,
        new double[] {3.14159, -2.71828}, "0000494000002ec0", new double[] {3.140625, -2.71875}, allocator);
    // float to int truncates toward zero; 70000 keeps its low 16 bits (4464)
    assertFilter("{\"id\":\"astype\",\"encode_dtype\":\"<i2\",\"decode_dtype\":\"<f8\"}", FixedType.FLOAT64,
        new double[] {1.9, -1.9, 70000.0}, "0100ffff7011", new double[] {1, -1, 4464}, allocator);
  }

  @Test
  void goldenVlenArray(BufferAllocator allocator) {
    ArrayToBytesCodec codec = codec("{\"id\":\"vlen-array\",\"dtype\":\"<i4\"}");
    ChunkSpec spec = spec((VlenArrayCodec) codec, 2);
    try (ListVector lists = (ListVector) codec.decode(hex("0200000008000000010000000200000000000000"), spec, allocator)) {
      assertEquals(java.util.List.of(1, 2), lists.getObject(0));
      assertEquals(java.util.List.of(), lists.getObject(1));
      assertEquals("0200000008000000010000000200000000000000", HEX.formatHex(Vectors.toArray(codec.encode(lists, spec, allocator))));
    }
  }

  private static ChunkSpec spec(VlenArrayCodec codec, int n) {
    ArrowDataType type = ArrowDataType.of(codec.field());
    return new ChunkSpec(new int[] {n}, type, type.defaultFill());
  }

  // ---- corrupt input ----

  @Test
  void lz4LyingAndTruncated() {
    BytesToBytesCodec lz4 = codec("{\"id\":\"lz4\"}");
    assertCorrupt("no 4-byte size header", () -> lz4.decode(hex("0f0000"), -1, 1 << 20));
    // 2 GiB declared by 12 bytes: refused before allocating
    assertCorrupt("declares 2147483647 bytes", () -> lz4.decode(hex("ffffff7f336162630300506263616263"), -1, Long.MAX_VALUE));
    assertCorrupt("declares 4294967295 bytes", () -> lz4.decode(hex("ffffffff336162630300506263616263"), -1, Long.MAX_VALUE));
    assertCorrupt("declares 15 bytes, expected 14", () -> lz4.decode(hex("0f000000336162630300506263616263"), 14, 14));
    assertCorrupt("more than", () -> lz4.decode(hex("0f000000336162630300506263616263"), -1, 10));
    assertCorrupt("not a valid LZ4 block", () -> lz4.decode(hex("0f00000033616263030050626361"), -1, 1 << 20));
    // a header declaring less than the block holds: the safe decompressor stops at the declared size
    assertCorrupt("not a valid LZ4 block", () -> lz4.decode(hex("0e000000336162630300506263616263"), -1, 1 << 20));
    assertCorrupt("decodes to 15 bytes, the header declares 16", () -> lz4.decode(hex("10000000336162630300506263616263"), -1, 1 << 20));
  }

  @Test
  void zlibTruncatedGarbageAndBombs() {
    BytesToBytesCodec zlib = codec("{\"id\":\"zlib\",\"level\":1}");
    assertCorrupt("truncated", () -> zlib.decode(hex("7801cb48cdc9c957c84090"), -1, 1 << 20));
    assertCorrupt("not a valid zlib stream", () -> zlib.decode(hex("0123456789abcdef"), -1, 1 << 20));
    assertCorrupt("expected", () -> zlib.decode(hex("7801cb48cdc9c957c84090003a2e067d"), 16, 16));
    assertCorrupt("expected", () -> zlib.decode(hex("7801cb48cdc9c957c84090003a2e067d"), 18, 18));
    ByteBuffer bomb = zlib.encode(ByteBuffer.allocate(10 << 20));
    assertCorrupt("more than the 1048576 bytes allowed", () -> zlib.decode(bomb, -1, 1 << 20));
    assertCorrupt("cannot decompress to the", () -> zlib.decode(hex("7801cb48cdc9c957c84090003a2e067d"), 1L << 30, 1L << 30));
  }

  @Test
  void zlibInflatesStraightIntoItsTargetOfTheExactSize() {
    BytesToBytesCodec zlib = codec("{\"id\":\"zlib\",\"level\":1}");
    String golden = "7801cb48cdc9c957c84090003a2e067d"; // "hello hello hello", 17 bytes
    ByteBuffer memory = ByteBuffer.allocateDirect(21);
    for (int i = 0; i < 21; i++) {
      memory.put(i, (byte) 0x55);
    }
    zlib.decodeInto(hex(golden), memory.duplicate().position(2).limit(19));
    byte[] got = new byte[21];
    memory.get(0, got);
    byte[] hello = "hello hello hello".getBytes(StandardCharsets.US_ASCII);
    assertArrayEquals(hello, Arrays.copyOfRange(got, 2, 19));
    assertArrayEquals(new byte[] {0x55, 0x55, 0x55, 0x55}, new byte[] {got[0], got[1], got[19], got[20]}, "nothing outside the target");

    assertCorrupt("more than the 16 bytes expected", () -> zlib.decodeInto(hex(golden), ByteBuffer.allocateDirect(16)));
    assertCorrupt("decompressed to 17 bytes, expected 18", () -> zlib.decodeInto(hex(golden), ByteBuffer.allocateDirect(18)));
    assertCorrupt("truncated", () -> zlib.decodeInto(hex("7801cb48cdc9c957c84090"), ByteBuffer.allocateDirect(17)));
    assertCorrupt("not a valid zlib stream", () -> zlib.decodeInto(hex("0123456789abcdef"), ByteBuffer.allocateDirect(17)));

    // A chunk of 3 MB whose deflate blocks cross the target's fill many times.
    Random random = new Random(29);
    ByteBuffer data = ByteBuffer.allocateDirect(3 << 20);
    for (int i = 0; i < data.capacity(); i++) {
      data.put(i, (byte) (random.nextInt(16) * (i % 7)));
    }
    ByteBuffer into = ByteBuffer.allocateDirect(3 << 20);
    ByteBuffer stored = zlib.encode(data.duplicate());
    long before = DirectMemory.used();
    zlib.decodeInto(stored, into);
    assertTrue(DirectMemory.used() - before < 1 << 20, "no direct memory of its own: " + (DirectMemory.used() - before));
    assertEquals(data.rewind(), into.rewind());
  }

  @Test
  void bz2TruncatedGarbageAndBombs() {
    BytesToBytesCodec bz2 = codec("{\"id\":\"bz2\",\"level\":1}");
    String golden = "425a68313141592653599e625bfe000002910040000244a000211460668291ef23470bb9229c28484f312dff00";
    assertCorrupt("not a valid bzip2 stream", () -> bz2.decode(hex(golden.substring(0, 40)), -1, 1 << 20));
    assertCorrupt("not a valid bzip2 stream", () -> bz2.decode(hex("0123456789abcdef"), -1, 1 << 20));
    assertCorrupt("no bytes", () -> bz2.decode(ByteBuffer.allocate(0), -1, 1 << 20));
    assertCorrupt("16 bytes expected", () -> bz2.decode(hex(golden), 16, 16));
    assertCorrupt("expected 18", () -> bz2.decode(hex(golden), 18, 18));
    ByteBuffer bomb = bz2.encode(ByteBuffer.allocate(10 << 20));
    assertTrue(bomb.remaining() < 1000, "10 MiB of zeros compress to " + bomb.remaining());
    assertCorrupt("more than the 1048576 bytes allowed", () -> bz2.decode(bomb, -1, 1 << 20));
  }

  @Test
  void shuffleWrongLengths() {
    BytesToBytesCodec shuffle = codec("{\"id\":\"shuffle\",\"elementsize\":4}");
    assertCorrupt("not whole elements of 4", () -> shuffle.decode(hex("000102"), -1, 1 << 20));
    assertCorrupt("expected 8", () -> shuffle.decode(hex("00010203"), 8, 8));
    assertThrows(CodecException.class, () -> shuffle.encode(hex("000102")));
  }

  @Test
  void vlenArrayLyingLengths(BufferAllocator allocator) {
    ArrayToBytesCodec codec = codec("{\"id\":\"vlen-array\",\"dtype\":\"<i4\"}");
    ChunkSpec two = spec((VlenArrayCodec) codec, 2);
    assertCorrupt("no 4-byte element count", () -> codec.decode(hex("0200"), two, allocator));
    assertCorrupt("counts 3 elements, the chunk has 2", () -> codec.decode(hex("03000000"), two, allocator));
    assertCorrupt("element 0 of 2 has no length", () -> codec.decode(hex("02000000"), two, allocator));
    assertCorrupt("element 0 declares 4294967295 bytes, only 8 remain",
        () -> codec.decode(hex("02000000ffffffff0100000002000000"), two, allocator));
    assertCorrupt("element 1 declares 8 bytes, only 0 remain", () -> codec.decode(hex("020000000000000008000000"), two, allocator));
    assertCorrupt("element 0 has 3 bytes, not whole <i4 items of 4",
        () -> codec.decode(hex("0200000003000000010203" + "00000000"), two, allocator));
    assertThrows(CodecException.class, () -> codec.validate(new ChunkSpec(new int[] {2}, FixedType.INT32, FixedType.INT32.defaultFill())));
  }

  @Test
  void aFilteredChunkDecompressesIntoArrowMemoryNotABufferOfItsOwn(BufferAllocator allocator) {
    // fixedscaleoffset + zlib, as v2 arrays of packed values hold: zlib declares no size, the spec fixes it.
    Registry registry = Registry.defaults();
    List<dev.zarrow.codec.Codec> codecs = List.of(
        registry.codec(NamedConfig.of("numcodecs.fixedscaleoffset", (ObjectNode) new ObjectMapper().valueToTree(
            parse("{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}"))), CodecOptions.DEFAULT),
        registry.codec(NamedConfig.of("bytes", (ObjectNode) new ObjectMapper().valueToTree(parse("{\"endian\":\"little\"}"))), CodecOptions.DEFAULT),
        registry.codec(NamedConfig.of("numcodecs.zlib", (ObjectNode) new ObjectMapper().valueToTree(parse("{\"level\":1}"))), CodecOptions.DEFAULT));
    int n = 1 << 20;
    ChunkSpec spec = new ChunkSpec(new int[] {n}, FixedType.FLOAT64, FixedType.FLOAT64.defaultFill());
    CodecPipeline pipeline = CodecPipeline.of(codecs, spec, registry.context(CodecOptions.DEFAULT));
    try (Float8Vector values = new Float8Vector("v", allocator)) {
      values.allocateNew(n);
      for (int i = 0; i < n; i++) {
        values.set(i, (i % 1000) / 100.0);
      }
      values.setValueCount(n);
      ByteBuffer stored = pipeline.encode(values, allocator);
      long before = DirectMemory.used();
      try (FieldVector decoded = pipeline.decode(stored, allocator)) {
        assertTrue(DirectMemory.used() - before < 1 << 20, "direct memory taken: " + (DirectMemory.used() - before));
        for (int i = 0; i < n; i += 997) {
          assertEquals(values.get(i), ((Float8Vector) decoded).get(i), "element " + i);
        }
      }
    }
  }

  @Test
  void theNumcodecsNamesOfV3CodecsKeepWhatTheCodecKnows() {
    // numcodecs.zstd is zstd: the frame's declared size and its fresh memory go with it.
    BytesToBytesCodec alias = (BytesToBytesCodec) Registry.defaults().codec(
        NamedConfig.of("numcodecs.zstd", (ObjectNode) new ObjectMapper().valueToTree(parse("{\"level\":1}"))), CodecOptions.DEFAULT);
    ByteBuffer frame = alias.encode(ByteBuffer.allocateDirect(1000));
    assertEquals(java.util.OptionalLong.of(1000), alias.decodedSize(frame));
    assertTrue(alias.decodesToNewMemory());
  }

  @Test
  void badConfigurationsNameTheKey() {
    Registry registry = Registry.defaults();
    String[][] cases = {
        {"numcodecs.quantize", "{\"digits\":2,\"dtype\":\"<i4\"}", "floating-point"},
        {"numcodecs.quantize", "{\"dtype\":\"<f8\"}", "/configuration/digits"},
        {"numcodecs.delta", "{}", "/configuration/dtype"},
        {"numcodecs.delta", "{\"dtype\":\"<c8\"}", "/configuration/dtype"},
        {"numcodecs.fixedscaleoffset", "{\"scale\":10,\"dtype\":\"<f8\"}", "/configuration/offset"},
        {"numcodecs.astype", "{\"encode_dtype\":\"<f4\"}", "/configuration/decode_dtype"},
        {"numcodecs.zlib", "{\"level\":12}", "/configuration/level"},
        {"numcodecs.bz2", "{\"level\":0}", "/configuration/level"},
        {"numcodecs.shuffle", "{\"elementsize\":\"4\"}", "/configuration/elementsize"},
        {"vlen-array", "{\"dtype\":\"|O\"}", "/configuration/dtype"},
        {"numcodecs.blosc", "{\"shuffle\":7}", "/configuration/shuffle"},
    };
    for (String[] c : cases) {
      NamedConfig metadata = NamedConfig.of(c[0], (ObjectNode) new ObjectMapper().valueToTree(parse(c[1])));
      ZarrException e = assertThrows(MetadataException.class, () -> registry.codec(metadata, CodecOptions.DEFAULT), c[0] + " " + c[1]);
      assertTrue(e.getMessage().contains(c[2]), "'" + e.getMessage() + "' names '" + c[2] + "'");
    }
  }

  @Test
  void filtersRefuseChunksOfAnotherType() {
    ArrayToArrayCodec delta = codec("{\"id\":\"delta\",\"dtype\":\"<i4\"}");
    CodecException e = assertThrows(CodecException.class,
        () -> delta.encodedSpec(new ChunkSpec(new int[] {3}, FixedType.FLOAT64, FixedType.FLOAT64.defaultFill())));
    assertTrue(e.getMessage().contains("<i4"), e.getMessage());
  }
}
