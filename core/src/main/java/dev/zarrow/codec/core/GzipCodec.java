package dev.zarrow.codec.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.NamedConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * {@code gzip}: RFC 1952 gzip (deflate) with the JDK's zlib; several members in a row decode as one.
 *
 * <p>Spec: zarr-specs v3 codecs/gzip. Configuration: {@code {"level": 0..9}}.
 */
public final class GzipCodec implements BytesToBytesCodec {
  /** The most bytes one direct buffer holds. */
  private static final long MAX_BUFFER = Integer.MAX_VALUE - 8;
  /** Deflate's largest expansion is 1032:1 (a 258-byte match per two bits); 1040 leaves room for headers. */
  private static final long MAX_RATIO = 1040;

  private final int level;

  public GzipCodec(int level) {
    if (level < 0 || level > 9) {
      throw new MetadataException("/configuration/level: gzip level must be 0..9, got " + level);
    }
    this.level = level;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of("gzip", JsonNodeFactory.instance.objectNode().put("level", level));
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    byte[] in = new byte[bytes.remaining()];
    bytes.duplicate().get(in);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(in.length / 2 + 64);
    try (GZIPOutputStream out = new GZIPOutputStream(buffer, 1 << 16) {
      {
        def.setLevel(level);
      }
    }) {
      out.write(in);
    } catch (IOException e) {
      throw new IllegalStateException("gzip into memory failed", e);
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
    // A buffer holds at most 2^31 - 1 bytes, and deflate cannot expand past its ratio.
    long possible = Math.min(MAX_BUFFER, MAX_RATIO * bytes.remaining());
    if (expectedSize > possible) {
      throw new CorruptChunkException("codec gzip: " + bytes.remaining() + " bytes cannot decompress to the "
          + expectedSize + " bytes expected");
    }
    long cap = expectedSize >= 0 ? expectedSize : Math.min(Math.max(0, maxSize), possible);
    String what = expectedSize >= 0 ? "expected" : "allowed";
    int initial = (int) Math.min(cap, expectedSize >= 0 ? expectedSize : Math.max(1024, 4L * bytes.remaining()));
    ByteBuffer out = inflate(bytes, ByteBuffer.allocateDirect(Math.max(initial, 1)), cap, what);
    if (expectedSize >= 0 && out.position() != expectedSize) {
      throw new CorruptChunkException("codec gzip: decompressed to " + out.position() + " bytes, expected " + expectedSize);
    }
    return out.flip();
  }

  /** A stream decompresses into memory of its own: the stored bytes may go as soon as it is decoded. */
  @Override
  public boolean decodesToNewMemory() {
    return true;
  }

  /**
   * Decompresses straight into {@code target} (Arrow memory of the chunk): no buffer of its own, which
   * would be zeroed, copied from and left for a GC to free.
   */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    int size = target.remaining();
    ByteBuffer out = inflate(bytes, target.duplicate(), size, "expected");
    int written = out.position() - target.position();
    if (written != size) {
      throw new CorruptChunkException("codec gzip: decompressed to " + written + " bytes, expected " + size);
    }
  }

  /**
   * The gzip members of {@code bytes} decompressed into {@code out} from its position, which grows (by
   * copying) while its limit is under {@code cap}; more than {@code cap} bytes is corrupt. Returns the
   * buffer written, its position after the last byte.
   */
  private static ByteBuffer inflate(ByteBuffer bytes, ByteBuffer out, long cap, String what) {
    // Small chunks get small buffers: the JDK's default of 64 KiB each dominates their cost.
    int step = (int) Math.max(512, Math.min(1 << 16, Math.max(cap + 1, bytes.remaining())));
    try (InputStream in = new GZIPInputStream(Buffers.inputStream(bytes.duplicate()), step)) {
      byte[] chunk = new byte[step];
      long total = 0;
      int n;
      while ((n = in.read(chunk)) > 0) {
        total += n;
        if (total > cap) {
          throw new CorruptChunkException("codec gzip: decompresses to more than the " + cap + " bytes " + what);
        }
        if (out.remaining() < n) {
          long grown = Math.min(cap, Math.max(2L * out.capacity(), total));
          out = ByteBuffer.allocateDirect((int) grown).put(out.flip());
        }
        out.put(chunk, 0, n);
      }
      return out;
    } catch (IOException e) {
      throw new CorruptChunkException("codec gzip: not a valid gzip stream: " + e.getMessage(), e);
    }
  }

  /** Makes {@code gzip} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of("gzip");
    }

    @Override
    public GzipCodec create(NamedConfig metadata, CodecContext context) {
      JsonNode level = metadata.config().get("level");
      if (level == null || !level.isInt()) {
        throw new MetadataException("/configuration/level: codec gzip needs an integer level 0..9");
      }
      return new GzipCodec(level.intValue());
    }
  }
}
