package dev.zarrow.codec.vlen;

import static dev.zarrow.codec.vlen.VlenTesting.bytes;
import static dev.zarrow.codec.vlen.VlenTesting.direct;
import static dev.zarrow.codec.vlen.VlenTesting.hex;
import static dev.zarrow.codec.vlen.VlenTesting.pipeline;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CodecException;
import dev.zarrow.testing.Vectors;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Golden bytes, round trips and zero-copy decoding of every variable-length layout. */
@ExtendWith(AllocatorExtension.class)
class VlenLayoutsTest {
  private static final String[] ABC = {"a", "bb", "", "dddd"};

  private static void assertGolden(String codecs, VarLenType type, String expectedHex, BufferAllocator allocator, String... values) {
    CodecPipeline p = pipeline(codecs, type, values.length);
    try (FieldVector v = Vectors.varLen(type, allocator, VlenTesting.utf8(values))) {
      assertEquals(expectedHex.replaceAll("[\\s_]", ""), hex(p.encode(v)), codecs);
    }
    try (FieldVector back = p.decode(direct(hex(expectedHex)), allocator)) {
      assertArrayEquals(VlenTesting.utf8(values), Vectors.byteArrays(back));
    }
  }

  // ---- ZEP7 ----

  @Test
  void zep7PadsOffsetsTo64Bytes(BufferAllocator allocator) {
    String offsets = "00000000 01000000 03000000 03000000 07000000";
    assertGolden(VlenTesting.ZEP7, VarLenType.STRING, offsets + "00".repeat(44) + "616262 64646464", allocator, ABC);
    assertGolden(VlenTesting.ZEP7, VarLenType.BYTES, offsets + "00".repeat(44) + "616262 64646464", allocator, ABC);
  }

  @Test
  void zep7LargeTypesUseInt64Offsets(BufferAllocator allocator) {
    String offsets = "0000000000000000 0100000000000000 0300000000000000 0300000000000000 0700000000000000";
    assertGolden(VlenTesting.ZEP7, VarLenType.LARGE_STRING, offsets + "00".repeat(24) + "616262 64646464", allocator, ABC);
    assertGolden(VlenTesting.ZEP7, VarLenType.LARGE_BINARY, offsets + "00".repeat(24) + "616262 64646464", allocator, ABC);
  }

  @Test
  void zep7AddsNoPaddingWhenOffsetsFillWhole64ByteBlocks(BufferAllocator allocator) {
    String[] xs = new String[15];
    StringBuilder offsets = new StringBuilder();
    for (int i = 0; i < 15; i++) {
      xs[i] = "x";
    }
    for (int i = 0; i <= 15; i++) {
      offsets.append(String.format("%02x000000", i));
    }
    assertGolden(VlenTesting.ZEP7, VarLenType.STRING, offsets + "78".repeat(15), allocator, xs);
  }

  @Test
  void zep7EmptyChunks(BufferAllocator allocator) {
    // Every element empty: offsets and padding, no data.
    assertGolden(VlenTesting.ZEP7, VarLenType.STRING, "00".repeat(64), allocator, "", "", "");
    // No elements at all: the single offset 0, padded.
    assertGolden(VlenTesting.ZEP7, VarLenType.STRING, "00".repeat(64), allocator);
  }

  // ---- vlen-utf8 / vlen-bytes (numcodecs) ----

  @Test
  void vlenUtf8AsNumcodecsWritesIt(BufferAllocator allocator) {
    String expected = "04000000 01000000 61 02000000 6262 00000000 04000000 64646464";
    assertGolden(VlenTesting.VLEN_UTF8, VarLenType.STRING, expected, allocator, ABC);
    assertGolden(VlenTesting.VLEN_UTF8, VarLenType.LARGE_STRING, expected, allocator, ABC);
    assertGolden(VlenTesting.VLEN_V2, VarLenType.BYTES, expected, allocator, ABC);
    // Multi-byte characters count bytes, not characters.
    assertGolden(VlenTesting.VLEN_UTF8, VarLenType.STRING, "02000000 02000000 c3a9 04000000 f09f9880", allocator, "é", "😀");
  }

  @Test
  void vlenBytesKeepsEveryByteValue(BufferAllocator allocator) {
    CodecPipeline p = pipeline(VlenTesting.VLEN_BYTES, VarLenType.BYTES, 3);
    byte[][] values = {{0, (byte) 0xff, (byte) 0x80}, {}, {(byte) 0xc3}};
    try (FieldVector v = Vectors.varLen(VarLenType.BYTES, allocator, values)) {
      assertEquals("03000000 03000000 00ff80 00000000 01000000 c3".replace(" ", ""), hex(p.encode(v)));
    }
  }

  // ---- zarrs.vlen ----

  @Test
  void zarrsVlenIndexAtStartOrEnd(BufferAllocator allocator) {
    String index32 = "00000000 01000000 03000000 03000000 07000000";
    String index64 = "0000000000000000 0100000000000000 0300000000000000 0300000000000000 0700000000000000";
    String data = "616262 64646464";
    for (VarLenType type : VarLenType.ALL) {
      assertGolden(VlenTesting.zarrsVlen("uint32", "start"), type, "1400000000000000" + index32 + data, allocator, ABC);
      assertGolden(VlenTesting.zarrsVlen("uint32", "end"), type, data + index32 + "1400000000000000", allocator, ABC);
      assertGolden(VlenTesting.zarrsVlen("uint64", "start"), type, "2800000000000000" + index64 + data, allocator, ABC);
      assertGolden(VlenTesting.zarrsVlen("uint64", "end"), type, data + index64 + "2800000000000000", allocator, ABC);
      // The v0.0 configuration has no index_location: the index is at the start.
      assertGolden(VlenTesting.zarrsVlen("uint32", null), type, "1400000000000000" + index32 + data, allocator, ABC);
    }
  }

  @Test
  void zarrsVlenWithEmptyDataWritesNoDataBytes(BufferAllocator allocator) {
    assertGolden(VlenTesting.zarrsVlen("uint32", "end"), VarLenType.STRING, "00000000 00000000 00000000 0c00000000000000", allocator, "", "");
  }

  @Test
  void zarrsVlenMetadataRoundTrips() {
    var codec = Registry.codecOf(VlenTesting.zarrsVlen("uint64", null));
    assertEquals("zarrs.vlen", codec.name());
    assertTrue(codec.toMetadata().configuration().get("index_location") == null);
    var built = ZarrsVlenCodec.metadata("uint32", ZarrsVlenCodec.IndexLocation.END,
        List.of(ZarrsVlenCodec.bytesCodec(true)), List.of(ZarrsVlenCodec.bytesCodec(false)));
    assertEquals("end", built.configuration().get("index_location").textValue());
  }

  // ---- round trips ----

  static Stream<Arguments> layouts() {
    List<Arguments> out = new ArrayList<>();
    for (VarLenType type : VarLenType.ALL) {
      for (String codecs : List.of(VlenTesting.ZEP7, "[{\"name\": \"crc32c\"}]", "[{\"name\": \"zstd\"}]",
          VlenTesting.interleaved(type), VlenTesting.interleaved(type).replace("]", ", {\"name\": \"gzip\", \"configuration\": {\"level\": 5}}]"), VlenTesting.VLEN_V2,
          VlenTesting.zarrsVlen("uint32", "start"), VlenTesting.zarrsVlen("uint64", "end"),
          VlenTesting.zarrsVlenCompressed("uint32", "end"), VlenTesting.zarrsVlenCompressed("uint64", "start"))) {
        out.add(Arguments.of(type, codecs));
      }
    }
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void roundTripsUnicodeAndBinary(VarLenType type, String codecs, BufferAllocator allocator) {
    Random random = Seeds.random("round trip " + type + " " + codecs);
    int[] shape = {3, 1 + random.nextInt(200)};
    int n = shape[0] * shape[1];
    byte[][] values = type.isText() ? VlenTesting.utf8(VlenTesting.randomStrings(random, n)) : VlenTesting.randomBytes(random, n);
    CodecPipeline p = pipeline(codecs, type, shape);
    try (FieldVector v = Vectors.varLen(type, allocator, values)) {
      ByteBuffer encoded = p.encode(v);
      try (FieldVector fromWritable = p.decode(direct(bytes(encoded)), allocator);
          FieldVector fromReadOnly = p.decode(direct(bytes(encoded)).asReadOnlyBuffer(), allocator);
          FieldVector fromHeap = p.decode(ByteBuffer.wrap(bytes(encoded)), allocator)) {
        assertArrayEquals(values, Vectors.byteArrays(fromWritable));
        assertArrayEquals(values, Vectors.byteArrays(fromReadOnly));
        assertArrayEquals(values, Vectors.byteArrays(fromHeap));
        assertEquals(type.field("").getType(), fromWritable.getField().getType());
      }
    }
  }

  @Test
  void encodesVectorsWhoseOffsetsDoNotStartAtZero(BufferAllocator allocator) {
    for (String codecs : List.of(VlenTesting.ZEP7, VlenTesting.VLEN_UTF8, VlenTesting.zarrsVlen("uint32", "start"))) {
      try (FieldVector all = Vectors.varLen(VarLenType.STRING, allocator, "zz", "a", "bb", "", "dddd");
          VarCharVector tail = new VarCharVector("t", VarLenType.STRING.field("t").getFieldType(), allocator)) {
        // A slice: offsets 2..9 over the shared data of the first vector.
        tail.loadFieldBuffers(new org.apache.arrow.vector.ipc.message.ArrowFieldNode(4, 0),
            List.of(allocator.getEmpty(), all.getOffsetBuffer().slice(4, 20), all.getDataBuffer()));
        CodecPipeline p = pipeline(codecs, VarLenType.STRING, 4);
        try (FieldVector back = p.decode(p.encode(tail), allocator)) {
          assertArrayEquals(ABC, Vectors.strings(back));
        }
      }
    }
  }

  // ---- zero copy ----

  @Test
  void zep7DecodesIntoTheChunkMemory(BufferAllocator allocator) {
    for (VarLenType type : VarLenType.ALL) {
      CodecPipeline p = pipeline(VlenTesting.ZEP7, type, 4);
      ByteBuffer stored;
      try (FieldVector v = Vectors.varLen(type, allocator, VlenTesting.utf8(ABC))) {
        stored = direct(bytes(p.encode(v)));
      }
      long address = MemoryUtil.getByteBufferAddress(stored);
      try (FieldVector decoded = p.decode(stored, allocator)) {
        assertEquals(address, decoded.getOffsetBuffer().memoryAddress(), type + " offsets");
        assertEquals(address + 64, decoded.getDataBuffer().memoryAddress(), type + " data");
        assertArrayEquals(VlenTesting.utf8(ABC), Vectors.byteArrays(decoded));
      }
      // Behind a checksum (which strips its suffix as a slice) the memory is still the stored chunk.
      CodecPipeline checked = pipeline("[{\"name\": \"crc32c\"}]", type, 4);
      ByteBuffer withCrc;
      try (FieldVector v = Vectors.varLen(type, allocator, VlenTesting.utf8(ABC))) {
        withCrc = direct(bytes(checked.encode(v)));
      }
      try (FieldVector decoded = checked.decode(withCrc, allocator)) {
        assertEquals(MemoryUtil.getByteBufferAddress(withCrc) + 64, decoded.getDataBuffer().memoryAddress());
      }
      // Shared read-only memory is copied, never aliased.
      try (FieldVector decoded = p.decode(stored.asReadOnlyBuffer(), allocator)) {
        assertNotEquals(address + 64, decoded.getDataBuffer().memoryAddress());
      }
    }
  }

  @Test
  void zarrsVlenWithAPlainDataChainKeepsTheChunkMemory(BufferAllocator allocator) {
    CodecPipeline p = pipeline(VlenTesting.zarrsVlen("uint32", "start"), VarLenType.STRING, 4);
    ByteBuffer stored = direct(hex("1400000000000000 00000000 01000000 03000000 03000000 07000000 616262 64646464"));
    long address = MemoryUtil.getByteBufferAddress(stored);
    try (FieldVector decoded = p.decode(stored, allocator)) {
      assertEquals(address + 8, decoded.getOffsetBuffer().memoryAddress());
      assertEquals(address + 28, decoded.getDataBuffer().memoryAddress());
      assertArrayEquals(ABC, Vectors.strings(decoded));
    }
  }

  // ---- refusals ----

  @Test
  void refusesNullsWithAdvice(BufferAllocator allocator) {
    for (String codecs : List.of(VlenTesting.ZEP7, VlenTesting.VLEN_UTF8, VlenTesting.zarrsVlen("uint32", "start"))) {
      try (VarCharVector v = new VarCharVector("x", allocator)) {
        v.allocateNew();
        v.setSafe(0, "a".getBytes());
        v.setNull(1);
        v.setValueCount(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pipeline(codecs, VarLenType.STRING, 2).encode(v));
        assertTrue(e.getMessage().contains("arrow data type"), e.getMessage());
      }
    }
  }

  @Test
  void refusesMalformedVectorsInsteadOfReadingAstray(BufferAllocator allocator) {
    for (String codecs : List.of(VlenTesting.ZEP7, VlenTesting.VLEN_UTF8, VlenTesting.zarrsVlen("uint32", "start"))) {
      try (org.apache.arrow.memory.ArrowBuf offsets = allocator.buffer(12);
          org.apache.arrow.memory.ArrowBuf data = allocator.buffer(4);
          VarCharVector v = new VarCharVector("x", VarLenType.STRING.field("x").getFieldType(), allocator)) {
        offsets.setInt(0, 0);
        offsets.setInt(4, 1 << 30); // far past the data
        offsets.setInt(8, 2);
        v.loadFieldBuffers(new org.apache.arrow.vector.ipc.message.ArrowFieldNode(2, 0), List.of(allocator.getEmpty(), offsets, data));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pipeline(codecs, VarLenType.STRING, 2).encode(v));
        assertTrue(e.getMessage().contains("malformed"), e.getMessage());
      }
    }
  }

  @Test
  void codecsRefuseTypesTheyDoNotSerialize() {
    assertThrows(CodecException.class, () -> pipeline(VlenTesting.VLEN_UTF8, VarLenType.BYTES, 2));
    assertThrows(CodecException.class, () -> pipeline(VlenTesting.VLEN_BYTES, VarLenType.LARGE_STRING, 2));
    CodecException e = assertThrows(CodecException.class, () -> pipeline("[{\"name\": \"bytes\"}]", VarLenType.STRING, 2));
    assertTrue(e.getMessage().contains("string"), e.getMessage());
    assertThrows(CodecException.class, () -> pipeline(
        "[{\"name\": \"zarrs.vlen\", \"configuration\": {\"index_codecs\": [], \"data_codecs\": [{\"name\": \"bytes\"}], \"index_data_type\": \"uint32\"}}]",
        VarLenType.STRING, 2));
    assertThrows(dev.zarrow.error.MetadataException.class, () -> pipeline(
        "[{\"name\": \"zarrs.vlen\", \"configuration\": {\"index_codecs\": [], \"data_codecs\": [], \"index_data_type\": \"uint16\"}}]",
        VarLenType.STRING, 2));
  }

  /** Registry access for single codecs. */
  private static final class Registry {
    static dev.zarrow.codec.Codec codecOf(String json) {
      return dev.zarrow.spi.Registry.defaults().codec(VlenTesting.codecs(json).get(0), dev.zarrow.codec.CodecOptions.DEFAULT);
    }
  }
}
