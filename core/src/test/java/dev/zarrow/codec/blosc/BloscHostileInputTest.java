package dev.zarrow.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.scalableminds.bloscjava.Blosc;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Every header field and offset checked before use: each lie is a CorruptChunkException naming what is wrong. */
class BloscHostileInputTest {
  private final BloscDecoder decoder = new BloscDecoder();

  private static final int SIZE = 200_000;

  /** A c-blosc chunk of 200000 bytes: lz4 level 1, byte shuffle, typesize 4, four blocks split in four streams. */
  private static byte[] chunk() {
    byte[] data = BloscCases.random(SIZE, new Random(1));
    for (int i = 0; i < SIZE; i += 4) {
      data[i + 2] = 0;
      data[i + 3] = 0x40;
    }
    byte[] c = Blosc.compress(data, 4, Blosc.Compressor.LZ4, 1, Blosc.Shuffle.BYTE_SHUFFLE, 0, 1);
    assertEquals(4, BloscHeader.read(ByteBuffer.wrap(c)).nblocks());
    return c;
  }

  private static byte[] with(byte[] chunk, Consumer<ByteBuffer> change) {
    byte[] copy = chunk.clone();
    change.accept(ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN));
    return copy;
  }

  private void refused(byte[] chunk, long expected, String mustMention) {
    ZarrException e = assertThrows(ZarrException.class,
        () -> decoder.decode(ByteBuffer.wrap(chunk), expected, 1 << 20, Runnable::run));
    assertTrue(e.getMessage().contains(mustMention), "'" + e.getMessage() + "' should mention '" + mustMention + "'");
    if (expected >= 0) { // zarrow check verifies without decoding into an output: it must refuse alike
      ZarrException v = assertThrows(ZarrException.class,
          () -> decoder.verify(ByteBuffer.wrap(chunk), (int) expected, Runnable::run));
      assertEquals(e.getMessage(), v.getMessage());
    }
  }

  @Test
  void headerFields() {
    byte[] c = chunk();
    refused(new byte[15], SIZE, "shorter than the 16-byte Blosc header");
    refused(with(c, b -> b.put(0, (byte) 3)), SIZE, "format version");
    refused(with(c, b -> b.put(2, (byte) (b.get(2) | 0x08))), SIZE, "reserved bit 3");
    refused(with(c, b -> b.put(1, (byte) 2)), SIZE, "lz4 format version");
    refused(with(c, b -> b.putInt(12, c.length + 1)), SIZE, "cbytes");
    refused(java.util.Arrays.copyOf(c, c.length - 1), SIZE, "cbytes");
    refused(with(c, b -> b.putInt(4, -5)), -1, "nbytes");
    refused(with(c, b -> b.putInt(4, SIZE + 1)), SIZE, "expected " + SIZE);
    refused(with(c, b -> b.putInt(4, 1 << 29).putInt(8, 1 << 29)), -1, "more than the limit");
    refused(with(c, b -> b.put(3, (byte) 0)), SIZE, "typesize");
    refused(with(c, b -> b.putInt(8, 0)), SIZE, "blocksize");
    refused(with(c, b -> b.putInt(8, Integer.MAX_VALUE)), SIZE, "blocksize");
    refused(with(c, b -> b.putInt(8, 1)), SIZE, "offsets of its " + SIZE + " blocks");
    refused(with(c, b -> b.put(2, (byte) ((b.get(2) & 0x1f) | (6 << 5)))), SIZE, "compressor format 6");
    refused(with(c, b -> b.put(3, (byte) 3)), SIZE, "cannot split into 3 streams");
  }

  @Test
  void snappyIsRefusedByName() {
    byte[] c = with(chunk(), b -> b.put(2, (byte) ((b.get(2) & 0x1f) | (2 << 5))));
    UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class,
        () -> decoder.decode(ByteBuffer.wrap(c), SIZE, SIZE, Runnable::run));
    assertTrue(e.getMessage().contains("snappy"), e.getMessage());
  }

  @Test
  void blockOffsetsAndStreamSizes() {
    byte[] c = chunk();
    refused(with(c, b -> b.putInt(16, -1)), SIZE, "block 0 stream 0 starts at -1");
    refused(with(c, b -> b.putInt(20, c.length - 3)), SIZE, "block 1 stream 0 starts at");
    int first = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).getInt(16);
    refused(with(c, b -> b.putInt(first, c.length)), SIZE, "block 0 stream 0 at " + first + " declares");
    refused(with(c, b -> b.putInt(first, -7)), SIZE, "declares");
    // Garbage in place of an LZ4 stream: stream 2 (the zero bytes) is compressed, streams 0 and 1 are stored.
    ByteBuffer b = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
    int third = first + 4 + b.getInt(first);
    third += 4 + b.getInt(third);
    int at = third;
    refused(with(c, x -> {
      for (int i = at + 4; i < at + 12; i++) {
        x.put(i, (byte) 0xff);
      }
    }), SIZE, "block 0 stream 2");
  }

  @Test
  void memcpyedSizeMustMatch() {
    byte[] data = new byte[100];
    byte[] c = Blosc.compress(data, 4, Blosc.Compressor.LZ4, 5, Blosc.Shuffle.BYTE_SHUFFLE, 0, 1);
    refused(with(c, b -> b.putInt(4, 99)), -1, "memcpyed");
    refused(with(c, b -> b.putInt(4, 99)), 99, "memcpyed");
  }

  @Test
  void bloscLzStreamsAreCheckedToo() {
    byte[] data = BloscCases.structured(8000, 2, new Random(2));
    byte[] c = Blosc.compress(data, 2, Blosc.Compressor.BLOSCLZ, 5, Blosc.Shuffle.BYTE_SHUFFLE, 0, 1);
    assertEquals(0, c[2] & BloscHeader.MEMCPYED, "compressed");
    int first = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).getInt(16);
    Random random = new Random(3);
    for (int i = 0; i < 2000; i++) {
      byte[] bad = c.clone();
      int at = first + 4 + random.nextInt(c.length - first - 4);
      bad[at] = (byte) random.nextInt();
      String decoded = null;
      try {
        decoder.decode(ByteBuffer.wrap(bad), 8000, 8000, Runnable::run);
      } catch (CorruptChunkException expected) {
        decoded = expected.getMessage(); // refused; other exceptions fail the test
      }
      String verified = null;
      try {
        decoder.verify(ByteBuffer.wrap(bad), 8000, Runnable::run);
      } catch (CorruptChunkException expected) {
        verified = expected.getMessage();
      }
      assertEquals(decoded, verified, "verify refuses exactly what decode refuses");
    }
  }

  @Test
  void verifyAcceptsEveryIntactChunk() {
    byte[] data = BloscCases.structured(300_000, 4, new Random(4));
    for (Blosc.Compressor compressor : new Blosc.Compressor[] {Blosc.Compressor.LZ4, Blosc.Compressor.ZSTD, Blosc.Compressor.BLOSCLZ}) {
      for (Blosc.Shuffle shuffle : Blosc.Shuffle.values()) {
        for (int clevel : new int[] {0, 5}) {
          byte[] c = Blosc.compress(data, 4, compressor, clevel, shuffle, 0, 1);
          decoder.verify(ByteBuffer.wrap(c), data.length, Runnable::run);
          decoder.verify(ByteBuffer.allocateDirect(c.length).put(c).flip(), data.length, Runnable::run);
          ZarrException e = assertThrows(ZarrException.class,
              () -> decoder.verify(ByteBuffer.wrap(c), data.length + 1, Runnable::run));
          assertTrue(e.getMessage().contains("expected " + (data.length + 1)), e.getMessage());
        }
      }
    }
  }
}
