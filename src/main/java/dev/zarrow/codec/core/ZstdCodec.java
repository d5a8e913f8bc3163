package dev.zarrow.codec.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.zarrow.CodecException;
import dev.zarrow.CorruptChunkException;
import dev.zarrow.MetadataException;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * {@code zstd}: Zstandard through zstd-jni, direct buffer to direct buffer. When the decoded size is
 * known (fixed-size chunks) the output is allocated once at that size and a frame that would exceed it
 * is refused; otherwise the frame's declared size is checked against the cap before allocating, and
 * frames without one are streamed into a buffer that may grow only up to the cap.
 *
 * <p>Spec: zarr-specs v3 codecs/zstd. Configuration: {@code {"level": int, "checksum": bool}}.
 */
public final class ZstdCodec implements BytesToBytesCodec {
  /** The most bytes one ByteBuffer can hold (with room for the one-past-the-limit probe). */
  private static final long MAX_BUFFER = Integer.MAX_VALUE - 16;

  private final int level;
  private final boolean checksum;

  public ZstdCodec(int level, boolean checksum) {
    this.level = level;
    this.checksum = checksum;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(
        "zstd", JsonNodeFactory.instance.objectNode().put("level", level).put("checksum", checksum));
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    ByteBuffer src = direct(bytes);
    ByteBuffer dst = ByteBuffer.allocateDirect((int) Zstd.compressBound(src.remaining()));
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      ctx.setLevel(level).setChecksum(checksum);
      int n = ctx.compressDirectByteBuffer(dst, 0, dst.capacity(), src, src.position(), src.remaining());
      return dst.limit(n);
    }
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    if (!bytes.hasRemaining()) {
      throw new CorruptChunkException("codec zstd: no frame (0 bytes)");
    }
    long limit = Math.max(0, Math.min(maxSize, MAX_BUFFER));
    ByteBuffer src = direct(bytes);
    try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
      if (expectedSize >= 0) {
        if (expectedSize > limit) {
          throw new CodecException("codec zstd: cannot decode a chunk of " + expectedSize + " bytes, more than the limit of " + limit);
        }
        return exact(ctx, src, expectedSize);
      }
      long declared = Zstd.getDirectByteBufferFrameContentSize(src, src.position(), src.remaining());
      boolean oneFrame =
          declared >= 0
              && Zstd.findDirectByteBufferFrameCompressedSize(src, src.position(), src.remaining()) == src.remaining();
      if (oneFrame) {
        if (declared > limit) {
          throw new CorruptChunkException("codec zstd: frame declares " + declared + " bytes, more than the limit of " + limit);
        }
        return exact(ctx, src, declared);
      }
      return streamed(ctx, src, limit);
    } catch (ZstdException e) {
      throw new CorruptChunkException("codec zstd: " + e.getMessage(), e);
    }
  }

  /** Decompresses straight into the target (Arrow memory on the read path): no buffer of its own, no copy. */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    if (!target.isDirect() || target.isReadOnly()) {
      BytesToBytesCodec.super.decodeInto(bytes, target);
      return;
    }
    if (!bytes.hasRemaining()) {
      throw new CorruptChunkException("codec zstd: no frame (0 bytes)");
    }
    ByteBuffer src = direct(bytes);
    int size = target.remaining();
    try (ZstdDecompressCtx ctx = new ZstdDecompressCtx()) {
      int n = ctx.decompressDirectByteBuffer(target, target.position(), size, src, src.position(), src.remaining());
      if (n != size) {
        throw new CorruptChunkException("codec zstd: decompressed to " + n + " bytes, expected " + size);
      }
    } catch (ZstdException e) {
      throw new CorruptChunkException("codec zstd: " + e.getMessage(), e);
    }
  }

  private static ByteBuffer exact(ZstdDecompressCtx ctx, ByteBuffer src, long size) {
    ByteBuffer dst = ByteBuffer.allocateDirect(Math.toIntExact(size));
    int n = ctx.decompressDirectByteBuffer(dst, 0, dst.capacity(), src, src.position(), src.remaining());
    if (n != size) {
      throw new CorruptChunkException("codec zstd: decompressed to " + n + " bytes, expected " + size);
    }
    return dst;
  }

  /**
   * Frames without a declared size (or several frames): decompress into a buffer that grows up to one
   * byte past {@code limit}, so that a stream of exactly the limit is told from a longer one.
   */
  private static ByteBuffer streamed(ZstdDecompressCtx ctx, ByteBuffer input, long limit) {
    ByteBuffer src = input.duplicate();
    long cap = limit + 1;
    ByteBuffer dst = ByteBuffer.allocateDirect((int) Math.min(cap, Math.max(4096, 4L * src.remaining())));
    while (true) {
      int consumed = src.position();
      int produced = dst.position();
      boolean flushed = ctx.decompressDirectByteBufferStream(dst, src);
      if (dst.position() > limit) {
        throw new CorruptChunkException("codec zstd: decompresses to more than the limit of " + limit + " bytes");
      }
      if (flushed && !src.hasRemaining()) {
        return dst.flip();
      }
      if (!dst.hasRemaining()) {
        dst = ByteBuffer.allocateDirect((int) Math.min(cap, 2L * dst.capacity())).put(dst.flip());
      } else if (!src.hasRemaining() || (src.position() == consumed && dst.position() == produced)) {
        // Room to write and nothing left (or nothing taken) to read: the frame ends early.
        throw new CorruptChunkException("codec zstd: truncated frame");
      }
    }
  }

  /** zstd-jni needs direct memory; heap input is copied once. */
  private static ByteBuffer direct(ByteBuffer bytes) {
    if (bytes.isDirect()) {
      return bytes;
    }
    return ByteBuffer.allocateDirect(bytes.remaining()).put(bytes.duplicate()).flip();
  }

  /** Makes {@code zstd} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of("zstd");
    }

    @Override
    public ZstdCodec create(NamedConfig metadata, CodecContext context) {
      JsonNode level = metadata.config().get("level");
      JsonNode checksum = metadata.config().get("checksum");
      if (level != null && !level.isInt()) {
        throw new MetadataException("/configuration/level: codec zstd needs an integer level");
      }
      if (checksum != null && !checksum.isBoolean()) {
        throw new MetadataException("/configuration/checksum: codec zstd needs a boolean");
      }
      return new ZstdCodec(level == null ? 0 : level.intValue(), checksum != null && checksum.booleanValue());
    }
  }
}
