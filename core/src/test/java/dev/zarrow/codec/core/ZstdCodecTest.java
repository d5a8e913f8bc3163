package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
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
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ZstdCodecTest extends CodecContract {
  // Made by the zstd CLI v1.5.4 from GzipCodecTest.squares(): `zstd -19 --no-check` (one frame that
  // declares its size), `cat | zstd -3 --check` (streamed: no content size, a checksum), and the first
  // and last 128 bytes compressed separately and concatenated (two frames).
  static final String ZSTD_19 =
      "KLUv/WAAAN0EAAbQJSOQz2azR/RexmnZ44a7OtF7GadljzXRtlRrv2BGyIRIKaVMARMAHQAeAE+99NC/Z2755N4dZ1zx7ty1Xx9npLPNmeSsG0ONgcYwY95Y4kv1Nfr6vi5fka/F1ws+CyIHVge+A48BqgGdAd4b6w30Rnnr1kxrmzXI2iM0I7QPnA/dBs8GxgXRBW/CaYLlQevB96AxV5qrzA0A";
  static final String ZSTD_STREAMED =
      "KLUv/QRYDQUA0s4kK4BrmgObaqCVpYS1spSwVnZaxlpZSlgrSwmbLYymhtIoCjURsrvtLaWUMgVTHKa0Jw9P3pKIJZUjFEekIRhDLkcdR9PRwJBmSOEh8cPys/Ez/RTsbHYgdqQdxy6zS9i928UNczNgFjPM7GD2XhmvzIvhJb0AVptVxWpaLawsKwGNaz7x6Q2/HOHSCV55wN+ht6sPA0AYirOhfIwGshCaLlil";
  static final String ZSTD_TWO_FRAMES =
      "KLUv/SSAjQIAkgcSHrAnrQGACpUITkApfQDCABRQAWzJJB8O6vBcIqVMAV/jS3yD72yPTbEdNrQtV+RiXOkyXIKrgdzxxdMRL5xw9MABZ36uPHl9AQANZAEKwTWhiCi1L/0kgP0CAALIFiKgRc0B5x5SU0ntDqlpPKBSmTmQWlSLLWVm7733lnJLCUApQ4kh9bP4iXYaO4EbyI00M5lB/AJ+00+wi+wOuy+Ol8KtcptugxllxphJL4DX42V4RSvJSrEirAYAnmlJfQ==";

  @Override
  protected Codec codec() {
    return new ZstdCodec(3, false);
  }

  @Override
  protected List<ChunkSpec> supportedSpecs() {
    return CoreSpecs.all();
  }

  /** With zstd's own content checksum. */
  @Nested
  class Checksummed extends CodecContract {
    @Override
    protected Codec codec() {
      return new ZstdCodec(-3, true);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.all();
    }
  }

  /**
   * The size a pipeline allocates Arrow memory for before decoding: a single frame's declared size;
   * nothing for frames without one, several frames or input that is no frame (decode answers those).
   */
  @Test
  void decodedSizeIsASingleFramesDeclaredSize() throws IOException {
    ZstdCodec codec = new ZstdCodec(3, false);
    byte[] data = new byte[10_000];
    Random random = new Random(3);
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) random.nextInt(7);
    }
    ByteBuffer one = codec.encode(Vectors.direct(data));
    assertEquals(java.util.OptionalLong.of(data.length), codec.decodedSize(one));
    assertEquals(java.util.OptionalLong.empty(), codec.decodedSize(Vectors.direct(streamed(data))));
    assertEquals(java.util.OptionalLong.empty(), codec.decodedSize(Vectors.direct(Base64.getDecoder().decode(ZSTD_TWO_FRAMES))));
    assertEquals(java.util.OptionalLong.empty(), codec.decodedSize(Vectors.direct(new byte[] {1, 2, 3, 4, 5, 6, 7, 8})));
    assertTrue(codec.decodesToNewMemory());
  }

  private static ByteBuffer decode(byte[] stored, long expected, long max) {
    return new ZstdCodec(0, false).decode(Vectors.direct(stored), expected, max);
  }

  /** A frame made by zstd-jni's streaming API, which writes no content size. */
  static byte[] streamed(byte[]... parts) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (ZstdOutputStream out = new ZstdOutputStream(buffer, 3)) {
      for (byte[] part : parts) {
        out.write(part);
        out.flush(); // a block boundary per part
      }
    }
    byte[] frame = buffer.toByteArray();
    assertEquals(-1, Zstd.getFrameContentSize(frame), "a streamed frame declares no content size");
    return frame;
  }

  @Test
  void heapAndDirectInputsEncodeToTheSameFrame() {
    Random random = Seeds.random("zstd heap input");
    byte[] data = new byte[200_000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (random.nextInt(16) + 'a'); // compressible, so the frame is not stored raw
    }
    ZstdCodec codec = new ZstdCodec(3, true);
    byte[] fromDirect = Vectors.toArray(codec.encode(Vectors.direct(data)));
    // A heap slice with an array offset and a position: only its remaining bytes are the input.
    byte[] padded = new byte[data.length + 20];
    System.arraycopy(data, 0, padded, 7, data.length);
    ByteBuffer slice = ByteBuffer.wrap(padded, 3, data.length + 10).slice().position(4).limit(4 + data.length);
    ByteBuffer fromHeap = codec.encode(slice);
    assertEquals(4, slice.position(), "the input is borrowed: its position is kept");
    assertArrayEquals(fromDirect, Vectors.toArray(fromHeap));
    assertArrayEquals(fromDirect, Vectors.toArray(codec.encode(ByteBuffer.wrap(data).asReadOnlyBuffer())), "read-only heap");
    assertArrayEquals(data, Vectors.toArray(codec.decode(fromHeap, data.length, data.length)));
  }

  @Test
  void decodesFramesOfOtherWriters() throws IOException {
    byte[] squares = GzipCodecTest.squares();
    for (String stream : List.of(ZSTD_19, ZSTD_STREAMED, ZSTD_TWO_FRAMES)) {
      byte[] stored = Base64.getDecoder().decode(stream);
      assertArrayEquals(squares, Vectors.toArray(decode(stored, 256, 256)), "size known");
      assertArrayEquals(squares, Vectors.toArray(decode(stored, -1, 1 << 20)), "size unknown");
      assertArrayEquals(squares, Vectors.toArray(decode(stored, -1, 256)), "size unknown, limit exactly the size");
    }
    Random random = Seeds.random("zstd streamed");
    byte[] a = new byte[300_000];
    byte[] b = new byte[5];
    random.nextBytes(a);
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    byte[] frame = streamed(a, b);
    assertArrayEquals(both, Vectors.toArray(decode(frame, -1, Integer.MAX_VALUE - 64)), "zstd-jni stream");
    assertArrayEquals(both, Vectors.toArray(decode(frame, -1, both.length)), "zstd-jni stream, limit exactly the size");
    assertArrayEquals(both, Vectors.toArray(decode(frame, both.length, both.length)), "zstd-jni stream, size known");
    // Frames of both kinds in a row.
    byte[] mixed = concat(frame, Base64.getDecoder().decode(ZSTD_19), streamed(new byte[0]));
    byte[] expected = concat(both, squares);
    assertArrayEquals(expected, Vectors.toArray(decode(mixed, -1, 1 << 20)));
    assertArrayEquals(expected, Vectors.toArray(decode(mixed, expected.length, expected.length)));
  }

  @Test
  void decodesSkippableFrames() {
    byte[] skippable = Vectors.unhex("502a4d18" + "03000000" + "abcdef"); // magic 0x184D2A50, 3 bytes of user data
    byte[] stored = concat(skippable, Base64.getDecoder().decode(ZSTD_19));
    assertArrayEquals(GzipCodecTest.squares(), Vectors.toArray(decode(stored, -1, 1 << 20)));
    assertArrayEquals(GzipCodecTest.squares(), Vectors.toArray(decode(stored, 256, 256)));
  }

  /** A frame header that declares {@code size} bytes, followed by one raw block of 4 bytes. */
  static byte[] declaring(long size) {
    ByteBuffer out = ByteBuffer.allocate(4 + 1 + 8 + 3 + 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    out.putInt(0xFD2FB528);          // magic
    out.put((byte) 0xE0);            // 8-byte content size, single segment, no checksum
    out.putLong(size);
    out.put(new byte[] {0x21, 0, 0}); // last block, raw, 4 bytes
    out.putInt(0x01020304);
    return out.array();
  }

  @Test
  void refusesDeclaredSizesOverTheLimitBeforeAllocating() {
    long before = DirectMemory.used();
    byte[] tenGigabytes = declaring(10_000_000_000L);
    assertEquals(10_000_000_000L, Zstd.getFrameContentSize(tenGigabytes));
    var e = assertThrows(CorruptChunkException.class, () -> decode(tenGigabytes, -1, Integer.MAX_VALUE - 64));
    assertTrue(e.getMessage().contains("10000000000"), e.getMessage());
    // Even with no practical limit: it cannot be one buffer.
    assertThrows(CorruptChunkException.class, () -> decode(tenGigabytes, -1, Long.MAX_VALUE));
    assertThrows(CorruptChunkException.class, () -> decode(tenGigabytes, 16, Long.MAX_VALUE));
    assertThrows(CorruptChunkException.class, () -> decode(declaring(1L << 30), -1, 1 << 20));
    assertTrue(DirectMemory.used() - before < 8 << 20, "no memory for the declared size was taken");
  }

  @Test
  void refusesStreamsThatInflatePastTheLimit() throws IOException {
    byte[] frame = streamed(new byte[8 << 20]);
    long before = DirectMemory.used();
    assertThrows(CorruptChunkException.class, () -> decode(frame, -1, 1 << 20));
    assertThrows(CorruptChunkException.class, () -> decode(frame, 1 << 20, Integer.MAX_VALUE - 64));
    assertTrue(DirectMemory.used() - before < 16 << 20, "memory stayed near the limit");
    assertThrows(CorruptChunkException.class, () -> decode(frame, (8 << 20) + 1, Integer.MAX_VALUE - 64));
    byte[] one = streamed(new byte[(1 << 20) + 1]);
    assertThrows(CorruptChunkException.class, () -> decode(one, -1, 1 << 20), "one byte over the limit");
  }

  @Test
  void truncatedStreamsEndWithAnErrorNotALoop() throws IOException {
    byte[] frame = streamed(new byte[100_000], new byte[] {1, 2, 3});
    byte[] known = Base64.getDecoder().decode(ZSTD_TWO_FRAMES);
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (byte[] stored : List.of(frame, known)) {
        long firstFrame = Zstd.findFrameCompressedSize(stored);
        for (int n = 0; n < stored.length; n += Math.max(1, stored.length / 97)) {
          if (n == firstFrame) {
            continue; // a whole first frame is a valid stream
          }
          byte[] cut = Arrays.copyOf(stored, n);
          assertThrows(CorruptChunkException.class, () -> decode(cut, -1, 1 << 20), "cut to " + n);
        }
      }
    });
    // Trailing garbage after a complete frame.
    assertThrows(CorruptChunkException.class, () -> decode(concat(known, new byte[] {1, 2, 3}), -1, 1 << 20));
  }

  @Test
  void parsesItsConfiguration() {
    Registry registry = Registry.defaults();
    Codec codec = registry.codec(NamedConfig.parse(Json.parse(
        "{\"name\": \"zstd\", \"configuration\": {\"level\": 22, \"checksum\": true}}", "t"), "/codecs/1"), CodecOptions.DEFAULT);
    assertEquals("{\"name\":\"zstd\",\"configuration\":{\"level\":22,\"checksum\":true}}", Json.compact(codec.toMetadata().toJson()));
    for (String bad : List.of("{\"level\": \"5\"}", "{\"level\": 0, \"checksum\": 1}")) {
      assertThrows(MetadataException.class, () -> registry.codec(
          NamedConfig.parse(Json.parse("{\"name\": \"zstd\", \"configuration\": " + bad + "}", "t"), "/codecs/1"),
          CodecOptions.DEFAULT), bad);
    }
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
