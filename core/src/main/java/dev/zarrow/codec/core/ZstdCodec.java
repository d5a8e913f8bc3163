package dev.zarrow.codec.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code zstd}: Zstandard through zstd-jni, direct buffer to direct buffer. When the decoded size is
 * known (fixed-size chunks) the output is allocated once at that size and a frame that would exceed it
 * is refused; otherwise the frame's declared size is checked against the cap before allocating, and
 * frames without one are streamed into a buffer that may grow only up to the cap. Sizes that no input
 * of the given length can decode to (more than 32768 bytes per input byte) are refused up front.
 *
 * <p>Spec: zarr-specs v3 codecs/zstd. Configuration: {@code {"level": int, "checksum": bool}}.
 */
public final class ZstdCodec implements BytesToBytesCodec {
  /** The most bytes one direct buffer holds. */
  private static final long MAX_BUFFER = Integer.MAX_VALUE - 8;
  /**
   * The most bytes one input byte can decode to: an RLE block (3-byte header and 1 byte) repeats its
   * byte for at most a full block of 128 KiB.
   */
  private static final long MAX_RATIO = (128 << 10) / 4;

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
    try (Contexts.Lease<ZstdCompressCtx> lease = Contexts.compressor()) {
      ZstdCompressCtx ctx = lease.context().setLevel(level).setChecksum(checksum);
      if (bytes.hasArray()) {
        // Heap in (serializers such as arrow write to the heap), heap out: copying the input into fresh
        // direct memory first cost a zeroing and a copy of the whole chunk (TableBench).
        byte[] dst = new byte[(int) Zstd.compressBound(bytes.remaining())];
        int n = ctx.compressByteArray(dst, 0, dst.length, bytes.array(), bytes.arrayOffset() + bytes.position(),
            bytes.remaining());
        return ByteBuffer.wrap(dst, 0, n);
      }
      ByteBuffer src = direct(bytes);
      ByteBuffer dst = ByteBuffer.allocateDirect((int) Zstd.compressBound(src.remaining()));
      int n = ctx.compressDirectByteBuffer(dst, 0, dst.capacity(), src, src.position(), src.remaining());
      return dst.limit(n);
    }
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return OptionalLong.of(BytesToBytesCodec.compressedBound(decodedSize));
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    ByteBuffer src = direct(bytes);
    // A buffer holds at most 2^31 - 1 bytes, and a frame cannot expand past the RLE-block ratio.
    long cap = Math.min(Math.min(maxSize, MAX_BUFFER), MAX_RATIO * src.remaining());
    try (Contexts.Lease<ZstdDecompressCtx> lease = Contexts.decompressor()) {
      ZstdDecompressCtx ctx = lease.context();
      long declared = Zstd.getDirectByteBufferFrameContentSize(src, src.position(), src.remaining());
      boolean oneFrame =
          declared >= 0
              && Zstd.findDirectByteBufferFrameCompressedSize(src, src.position(), src.remaining()) == src.remaining();
      if (oneFrame && declared > cap) {
        throw new CorruptChunkException("codec zstd: a frame of " + src.remaining() + " bytes declares "
            + declared + " decoded bytes, more than the limit of " + cap);
      }
      if (expectedSize >= 0) {
        if (expectedSize > cap || (oneFrame && declared != expectedSize)) {
          throw new CorruptChunkException("codec zstd: " + src.remaining() + " bytes"
              + (oneFrame ? " declaring " + declared : "") + " cannot decode to the " + expectedSize + " bytes expected");
        }
        // Frames without a declared size take the streaming decoder whether or not the size is known:
        // libzstd's one-shot decoder refuses some frames its streaming decoder accepts, and a chunk must
        // not decode or fail depending on which caller asks.
        ByteBuffer out = oneFrame ? exact(ctx, src, expectedSize) : streamed(ctx, src, expectedSize, expectedSize);
        if (out.remaining() != expectedSize) {
          throw new CorruptChunkException("codec zstd: decompressed to " + out.remaining() + " bytes, expected " + expectedSize);
        }
        return out;
      }
      if (oneFrame) {
        return exact(ctx, src, declared);
      }
      return streamed(ctx, src, Math.max(4096, 4L * src.remaining()), cap);
    } catch (ZstdException e) {
      throw new CorruptChunkException("codec zstd: " + e.getMessage(), e);
    }
  }

  /**
   * Decompresses straight into the target (Arrow memory on the read path) when the frame declares
   * exactly the target's size; any other input takes {@link #decode}'s checked path and a copy, so a
   * chunk decodes (or fails) the same way whichever path reads it.
   */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    int size = target.remaining();
    ByteBuffer src = bytes.hasRemaining() ? direct(bytes) : bytes;
    boolean oneShot =
        target.isDirect()
            && !target.isReadOnly()
            && src.hasRemaining()
            && Zstd.getDirectByteBufferFrameContentSize(src, src.position(), src.remaining()) == size
            && Zstd.findDirectByteBufferFrameCompressedSize(src, src.position(), src.remaining()) == src.remaining();
    if (!oneShot) {
      BytesToBytesCodec.super.decodeInto(bytes, target);
      return;
    }
    try (Contexts.Lease<ZstdDecompressCtx> lease = Contexts.decompressor()) {
      int n = lease.context().decompressDirectByteBuffer(target, target.position(), size, src, src.position(), src.remaining());
      if (n != size) {
        throw new CorruptChunkException("codec zstd: decompressed to " + n + " bytes, expected " + size);
      }
    } catch (ZstdException e) {
      throw new CorruptChunkException("codec zstd: " + e.getMessage(), e);
    }
  }

  /** A single frame's declared content size, within the limits {@link #decode} sets from the input alone. */
  @Override
  public OptionalLong decodedSize(ByteBuffer bytes) {
    if (!bytes.isDirect() || !bytes.hasRemaining()) {
      return OptionalLong.empty();
    }
    try {
      long declared = Zstd.getDirectByteBufferFrameContentSize(bytes, bytes.position(), bytes.remaining());
      boolean oneFrame = declared >= 0
          && Zstd.findDirectByteBufferFrameCompressedSize(bytes, bytes.position(), bytes.remaining()) == bytes.remaining();
      return oneFrame && declared <= Math.min(MAX_BUFFER, MAX_RATIO * bytes.remaining())
          ? OptionalLong.of(declared) : OptionalLong.empty();
    } catch (ZstdException e) {
      return OptionalLong.empty(); // not a frame: decode says why
    }
  }

  @Override
  public boolean decodesToNewMemory() {
    return true;
  }

  private static ByteBuffer exact(ZstdDecompressCtx ctx, ByteBuffer src, long size) {
    ByteBuffer dst = ByteBuffer.allocateDirect(Math.toIntExact(size));
    int n = ctx.decompressDirectByteBuffer(dst, 0, dst.capacity(), src, src.position(), src.remaining());
    if (n != size) {
      throw new CorruptChunkException("codec zstd: decompressed to " + n + " bytes, expected " + size);
    }
    return dst;
  }

  private static ByteBuffer streamed(ZstdDecompressCtx ctx, ByteBuffer input, long initial, long maxSize) {
    ByteBuffer src = input.duplicate();
    ByteBuffer dst = ByteBuffer.allocateDirect((int) Math.min(maxSize, initial));
    while (true) {
      int before = src.position() + dst.position();
      boolean frameDone = ctx.decompressDirectByteBufferStream(dst, src);
      if (frameDone && !src.hasRemaining()) {
        return dst.flip();
      }
      // A call with a full output may still finish the frame (its checksum): grow only when stuck.
      boolean progressed = src.position() + dst.position() != before;
      if (!progressed && !dst.hasRemaining()) {
        if (dst.capacity() >= maxSize) {
          throw new CorruptChunkException("codec zstd: decompresses to more than the limit of " + maxSize + " bytes");
        }
        dst = ByteBuffer.allocateDirect((int) Math.min(maxSize, 2L * dst.capacity())).put(dst.flip());
      } else if (!progressed) {
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
