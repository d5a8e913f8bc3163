package dev.zarrow.codec.blosc;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Compresses the streams of blocks as c-blosc 1.x does: BloscLZ ({@link BloscLz}), LZ4 blocks (lz4hc at
 * the chunk's level), a zstd frame at level {@code 2 * clevel - 1} (22 for 9), a zlib stream at the
 * chunk's level. A stream that does
 * not fit in {@code max} bytes reports 0, so that the caller stores it as it is.
 */
final class StreamEncoder implements AutoCloseable {
  private static final int ZSTD_MAX_LEVEL = 22;

  private final BloscCompressor compressor;
  private final int clevel;
  private LZ4Compressor lz4;
  private ZstdCompressCtx zstd;
  private Deflater deflater;
  private BloscLz.Tables blosclz;

  StreamEncoder(BloscCompressor compressor, int clevel) {
    this.compressor = compressor;
    this.clevel = clevel;
  }

  /**
   * Compresses {@code length} bytes of {@code src} at {@code at} into {@code dst} at {@code to} (both
   * direct); 0 when over {@code max} (or, for BloscLZ, not worth it). {@code split}: the chunk's blocks
   * are split into a stream per byte of the element (BloscLZ tunes its matches to it).
   */
  int encode(ByteBuffer src, int at, int length, ByteBuffer dst, int to, int max, boolean split) {
    try {
      return switch (compressor) {
        case BLOSCLZ -> BloscLz.compress(clevel, MemoryUtil.getByteBufferAddress(src) + at, length,
            MemoryUtil.getByteBufferAddress(dst) + to, max, split, blosclz == null ? blosclz = new BloscLz.Tables() : blosclz);
        case LZ4, LZ4HC -> lz4().compress(src, at, length, dst, to, max);
        case ZSTD -> zstd().compressDirectByteBuffer(dst, to, max, src, at, length);
        case ZLIB -> deflate(src, at, length, dst, to, max);
        case SNAPPY -> throw new IllegalStateException("no " + compressor.cname() + " encoder");
      };
    } catch (LZ4Exception | ZstdException e) {
      return 0; // the output did not fit
    }
  }

  private LZ4Compressor lz4() {
    if (lz4 == null) {
      lz4 = compressor == BloscCompressor.LZ4 ? Lz4.FACTORY.fastCompressor() : Lz4.FACTORY.highCompressor(clevel);
    }
    return lz4;
  }

  private ZstdCompressCtx zstd() {
    if (zstd == null) {
      zstd = new ZstdCompressCtx().setLevel(clevel < 9 ? 2 * clevel - 1 : ZSTD_MAX_LEVEL);
    }
    return zstd;
  }

  /** zlib's compress2(): a complete zlib stream, or 0 when it does not fit. */
  private int deflate(ByteBuffer src, int at, int length, ByteBuffer dst, int to, int max) {
    if (deflater == null) {
      deflater = new Deflater(clevel);
    } else {
      deflater.reset();
    }
    deflater.setInput(src.slice(at, length));
    deflater.finish();
    ByteBuffer out = dst.slice(to, max);
    while (!deflater.finished()) {
      if (deflater.deflate(out) == 0 && !out.hasRemaining()) {
        return 0;
      }
    }
    return out.position();
  }

  @Override
  public void close() {
    if (zstd != null) {
      zstd.close();
    }
    if (deflater != null) {
      deflater.end();
    }
  }
}
