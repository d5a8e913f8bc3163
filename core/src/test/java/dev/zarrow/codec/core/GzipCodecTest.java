package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.DirectMemory;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class GzipCodecTest extends CodecContract {
  /** The 64 int32 values i * i, little endian: what the streams below hold. */
  static byte[] squares() {
    ByteBuffer out = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 64; i++) {
      out.putInt(i * i);
    }
    return out.array();
  }

  // Made by GNU gzip 1.12 from squares(): `gzip -9 -n`, `gzip -1` (keeps the file name "data.bin" and
  // a time stamp in the header), and two members (`gzip -n` of the first 128 bytes, `gzip -6 -n` of the
  // rest) concatenated.
  static final String GZIP_9 =
      "H4sIAAAAAAACAyXOLQjCUBiF4aObbv5fo1FYMRptV1gxGo3CyqJxUVixzWgUVoxGo7BiNBqFFaPR5gs3POlwvu9IUgM+OjCYIMIcFmskyFDgggpvufIUMVIUuKHGuEkfO5R4wXjSCjnunnu8RI4HTEvaoMQXti0dUWMRcB8fxKF0Dt3oLSrMuuT4IelJT9i+dEU0kE4wQ+kAfyTt8Qcde28sAAEAAA==";
  static final String GZIP_1_NAMED =
      "H4sICJWEAmsEA2RhdGEuYmluABXOLQjCUBiF4aPO/79rNAori0bbHawYjUZhZdFoFFZsMxqFFeOiUVgxGo2DFaPR5nvDkw7n+44kNeChD4M5fCxhsUGMAzLcUKKCKy8QIUGGO2rMmvSxR443TEtaI8UD7nGIFE+YtrRFji9sRzqjxqrLfXwQ9aQr3OgdSgQDcvwQD6UX7Egq4I+lC8xEOsGbSkf8AR17bywAAQAA";
  static final String GZIP_TWO_MEMBERS =
      "H4sIAAAAAAAAAyXLoQ2DABAAwKdgcCCRJCzABggMkh0wSGR9B2AIDCMgSViisgmDcEnFyYuISMjIKahoaOkYmXizsnPxi3+u6ZlZObgpXz4LG1+KNGLgw8kDT6sNzIAAAAAfiwgAAAAAAAADDcktDoJgAIDhN3wIKH+HsHgEG25egsjGRdgoNI1GNi/AHShG7kAxEm2+4UkPAW4a9FEVQaO3dtUHeGrTNYaHvronMIkUWi26HH391J1gVZ3BrHMOL1UFjAol9PoDCdSVToAAAAA=";

  @Override
  protected Codec codec() {
    return new GzipCodec(5);
  }

  @Override
  protected List<ChunkSpec> supportedSpecs() {
    return CoreSpecs.all();
  }

  private static ByteBuffer decode(byte[] stored, long expected, long max) {
    return new GzipCodec(5).decode(Vectors.direct(stored), expected, max);
  }

  @Test
  void decodesStreamsOfOtherWriters() throws IOException {
    byte[] squares = squares();
    for (String stream : List.of(GZIP_9, GZIP_1_NAMED, GZIP_TWO_MEMBERS)) {
      byte[] stored = Base64.getDecoder().decode(stream);
      assertArrayEquals(squares, Vectors.toArray(decode(stored, 256, 256)), "size known");
      assertArrayEquals(squares, Vectors.toArray(decode(stored, -1, 1 << 20)), "size unknown");
    }
    // java.util.zip at levels other than ours, and with no compression at all.
    for (int level : new int[] {Deflater.NO_COMPRESSION, Deflater.BEST_SPEED, Deflater.BEST_COMPRESSION}) {
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      try (GZIPOutputStream out = new GZIPOutputStream(buffer) {
        {
          def.setLevel(level);
        }
      }) {
        out.write(squares);
      }
      assertArrayEquals(squares, Vectors.toArray(decode(buffer.toByteArray(), 256, 256)), "java.util.zip level " + level);
    }
  }

  @Test
  void decompressesStraightIntoATargetOfTheExactSize() {
    byte[] squares = squares();
    GzipCodec gzip = new GzipCodec(5);
    for (String stream : List.of(GZIP_9, GZIP_1_NAMED, GZIP_TWO_MEMBERS)) {
      ByteBuffer stored = Vectors.direct(Base64.getDecoder().decode(stream));
      ByteBuffer memory = ByteBuffer.allocateDirect(260);
      for (int i = 0; i < 260; i++) {
        memory.put(i, (byte) 0x55);
      }
      gzip.decodeInto(stored, memory.duplicate().position(2).limit(258));
      byte[] got = Vectors.toArray(memory.duplicate());
      assertArrayEquals(squares, Arrays.copyOfRange(got, 2, 258));
      assertArrayEquals(new byte[] {0x55, 0x55, 0x55, 0x55}, new byte[] {got[0], got[1], got[258], got[259]}, "nothing outside the target");
      var small = assertThrows(CorruptChunkException.class, () -> gzip.decodeInto(stored, ByteBuffer.allocateDirect(255)));
      assertTrue(small.getMessage().contains("more than the 255 bytes expected"), small.getMessage());
      var large = assertThrows(CorruptChunkException.class, () -> gzip.decodeInto(stored, ByteBuffer.allocateDirect(257)));
      assertTrue(large.getMessage().contains("decompressed to 256 bytes, expected 257"), large.getMessage());
    }
    byte[] broken = Base64.getDecoder().decode(GZIP_9);
    broken[broken.length - 8] ^= 1; // the CRC-32 of the trailer
    assertThrows(CorruptChunkException.class, () -> gzip.decodeInto(Vectors.direct(broken), ByteBuffer.allocateDirect(256)));

    // 8 MB decompressed into the target take no direct memory of their own.
    ByteBuffer big = gzip.encode(Vectors.direct(new byte[8 << 20]));
    ByteBuffer target = ByteBuffer.allocateDirect(8 << 20);
    long before = DirectMemory.used();
    gzip.decodeInto(big, target);
    assertTrue(DirectMemory.used() - before < 1 << 20, "direct memory taken: " + (DirectMemory.used() - before));
  }

  @Test
  void encodesWithTheConfiguredLevel() {
    byte[] zeros = new byte[1 << 16];
    int fast = new GzipCodec(1).encode(Vectors.direct(zeros)).remaining();
    int stored = new GzipCodec(0).encode(Vectors.direct(zeros)).remaining();
    assertTrue(stored > zeros.length, "level 0 stores: " + stored);
    assertTrue(fast < 1000, "level 1 compresses zeros: " + fast);
    // RFC 1952 header: magic 1f 8b, method 8 (deflate).
    byte[] head = Vectors.toArray(new GzipCodec(1).encode(Vectors.direct(zeros)).limit(3));
    assertEquals("1f8b08", Vectors.hex(head));
  }

  @Test
  void refusesToInflatePastTheExpectedSize() throws IOException {
    byte[] zeros = new byte[8 << 20];
    byte[] bomb = Vectors.toArray(new GzipCodec(9).encode(Vectors.direct(zeros)));
    assertTrue(bomb.length < 1 << 20);
    long before = DirectMemory.used();
    var known = assertThrows(CorruptChunkException.class, () -> decode(bomb, 1 << 20, Integer.MAX_VALUE));
    assertTrue(known.getMessage().contains("1048576"), known.getMessage());
    var capped = assertThrows(CorruptChunkException.class, () -> decode(bomb, -1, 1 << 20));
    assertTrue(capped.getMessage().contains("1048576"), capped.getMessage());
    assertTrue(DirectMemory.used() - before < 8 << 20, "no memory for the inflated size was taken");
    // Shorter than expected is as wrong as longer.
    assertThrows(CorruptChunkException.class, () -> decode(Base64.getDecoder().decode(GZIP_9), 257, 257));
  }

  @Test
  void refusesWhatIsNotGzip() {
    assertThrows(CorruptChunkException.class, () -> decode(new byte[0], -1, 100));
    assertThrows(CorruptChunkException.class, () -> decode("not gzip at all".getBytes(), -1, 100));
    byte[] stored = Base64.getDecoder().decode(GZIP_9);
    stored[stored.length - 8] ^= 1; // the CRC-32 of the trailer
    assertThrows(CorruptChunkException.class, () -> decode(stored, 256, 256));
  }

  @Test
  void parsesItsConfiguration() {
    Registry registry = Registry.defaults();
    for (String bad : List.of("{}", "{\"level\": \"5\"}", "{\"level\": 10}", "{\"level\": -1}", "{\"level\": 1.5}")) {
      var e = assertThrows(MetadataException.class, () -> registry.codec(
          NamedConfig.parse(Json.parse("{\"name\": \"gzip\", \"configuration\": " + bad + "}", "t"), "/codecs/1"),
          CodecOptions.DEFAULT), bad);
      assertTrue(e.getMessage().contains("/configuration/level"), e.getMessage());
    }
  }
}
