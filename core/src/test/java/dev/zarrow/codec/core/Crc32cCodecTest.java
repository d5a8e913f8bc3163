package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.ChecksumException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class Crc32cCodecTest extends CodecContract {
  @Override
  protected Codec codec() {
    return new Crc32cCodec(true);
  }

  @Override
  protected List<ChunkSpec> supportedSpecs() {
    return CoreSpecs.all();
  }

  @Override
  protected boolean detectsEveryCorruption() {
    return true;
  }

  @Test
  void appendsTheStandardCheckValueLittleEndian() {
    byte[] input = "123456789".getBytes(StandardCharsets.US_ASCII);
    // CRC-32C (Castagnoli) check value of "123456789": 0xE3069283 (RFC 3720, B.4).
    assertEquals(0xE3069283, Crc32cCodec.checksum(ByteBuffer.wrap(input)));
    byte[] encoded = Vectors.toArray(new Crc32cCodec(true).encode(ByteBuffer.wrap(input)));
    assertEquals(Vectors.hex(input) + "839206e3", Vectors.hex(encoded));
    // Empty input: the CRC-32C of nothing is 0.
    assertEquals("00000000", Vectors.hex(Vectors.toArray(new Crc32cCodec(true).encode(ByteBuffer.allocate(0)))));
    // 32 bytes of zeros: 0x8A9136AA (RFC 3720, B.4).
    assertEquals(0x8A9136AA, Crc32cCodec.checksum(ByteBuffer.allocate(32)));
    assertArrayEquals(input, Vectors.toArray(new Crc32cCodec(true).decode(Vectors.direct(encoded), 9, 100)));
  }

  @Test
  void refusesMismatchesUnlessTurnedOff(BufferAllocator allocator) {
    byte[] stored = Vectors.unhex("313233343536373839" + "839206e4");
    var e = assertThrows(ChecksumException.class, () -> new Crc32cCodec(true).decode(Vectors.direct(stored), -1, 100));
    assertTrue(e.getMessage().contains("0xe4069283") && e.getMessage().contains("0xe3069283"), e.getMessage());
    assertEquals(9, new Crc32cCodec(false).decode(Vectors.direct(stored), -1, 100).remaining());
    assertThrows(CorruptChunkException.class, () -> new Crc32cCodec(false).decode(Vectors.direct(new byte[3]), -1, 100));
    assertThrows(CorruptChunkException.class, () -> new Crc32cCodec(false).decode(Vectors.direct(stored), 10, 100));

    // The option reaches the codec through the registry.
    Registry registry = Registry.defaults();
    NamedConfig metadata = NamedConfig.parse(Json.parse("{\"name\": \"crc32c\"}", "t"), "/codecs/1");
    ChunkSpec spec = new ChunkSpec(new int[] {9}, FixedType.UINT8, FixedType.UINT8.defaultFill());
    CodecOptions off = CodecOptions.DEFAULT.withVerifyChecksums(false);
    CodecPipeline lax = CodecPipeline.of(List.of(BytesCodec.LITTLE, registry.codec(metadata, off)), spec, Registry.defaults().context(off));
    try (FieldVector v = lax.decode(Vectors.direct(stored), allocator)) {
      assertEquals(9, v.getValueCount());
    }
    CodecPipeline strict = CodecPipeline.of(
        List.of(BytesCodec.LITTLE, registry.codec(metadata, CodecOptions.DEFAULT)), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    assertThrows(ChecksumException.class, () -> strict.decode(Vectors.direct(stored), allocator));
  }

  @Test
  void takesNoConfiguration() {
    assertThrows(MetadataException.class, () -> Registry.defaults().codec(
        NamedConfig.parse(Json.parse("{\"name\": \"crc32c\", \"configuration\": {\"x\": 1}}", "t"), "/codecs/1"),
        CodecOptions.DEFAULT));
  }
}
