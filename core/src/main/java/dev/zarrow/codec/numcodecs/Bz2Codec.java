package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.NamedConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/**
 * {@code numcodecs.bz2}: numcodecs' {@code BZ2}, a bzip2 stream as Python's {@code bz2.compress} writes it
 * (streams in a row decode as one, as {@code bz2.decompress} does), with
 * Apache Commons Compress. Configuration: {@code {"level": 1..9}} (the block size in 100 kB; default 1).
 */
final class Bz2Codec implements BytesToBytesCodec {
  static final String NAME = "numcodecs.bz2";

  private final int level;

  Bz2Codec(int level) {
    this.level = level;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("level", level));
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    byte[] in = new byte[bytes.remaining()];
    bytes.duplicate().get(in);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(in.length / 2 + 64);
    try (BZip2CompressorOutputStream out = new BZip2CompressorOutputStream(buffer, level)) {
      out.write(in);
    } catch (IOException e) {
      throw new CodecException("codec " + NAME + ": bzip2 into memory failed: " + e.getMessage(), e);
    }
    byte[] compressed = buffer.toByteArray();
    return ByteBuffer.allocateDirect(compressed.length).put(compressed).flip();
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return OptionalLong.of(BytesToBytesCodec.compressedBound(decodedSize));
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    // bzip2's run-length stages expand past any fixed ratio worth trusting: only the chunk limit bounds it.
    long cap = Sizes.cap(NAME, bytes.remaining(), Long.MAX_VALUE, expectedSize, maxSize);
    String what = expectedSize >= 0 ? "expected" : "allowed";
    if (!bytes.hasRemaining()) { // Python reads no bytes as nothing, but numcodecs never writes them: a lost chunk
      throw new CorruptChunkException("codec " + NAME + ": no bytes, not even a bzip2 header (bzip2 writes 14 bytes for nothing)");
    }
    try (InputStream in = new BZip2CompressorInputStream(Buffers.inputStream(bytes.duplicate()), true)) {
      ByteBuffer out = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(cap, expectedSize >= 0 ? expectedSize : 4L * bytes.remaining() + 64)));
      byte[] chunk = new byte[(int) Math.min(1 << 16, cap + 1)];
      int n;
      while ((n = in.read(chunk)) > 0) {
        if ((long) out.position() + n > cap) {
          throw new CorruptChunkException("codec " + NAME + ": decompresses to more than the " + cap + " bytes " + what);
        }
        while (out.remaining() < n) {
          out = Sizes.grow(out, cap);
        }
        out.put(chunk, 0, n);
      }
      return check(out.flip(), expectedSize);
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptChunkException c) {
        throw c;
      }
      throw new CorruptChunkException("codec " + NAME + ": not a valid bzip2 stream: " + e.getMessage(), e);
    }
  }

  private static ByteBuffer check(ByteBuffer out, long expectedSize) {
    if (expectedSize >= 0 && out.remaining() != expectedSize) {
      throw new CorruptChunkException("codec " + NAME + ": decompressed to " + out.remaining() + " bytes, expected " + expectedSize);
    }
    return out;
  }

  /** Makes {@code numcodecs.bz2} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public Bz2Codec create(NamedConfig metadata, CodecContext context) {
      return new Bz2Codec(Configs.integer(metadata, "level", 1, 1, 9));
    }
  }
}
