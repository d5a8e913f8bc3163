package dev.zarrow.codec.blosc;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Decodes the compressed streams of blocks with one compressor: LZ4 through lz4-java's safe decompressor,
 * Zstandard through zstd-jni, zlib through {@link Inflater}, BloscLZ through {@link BloscLz}. Holds the
 * per-thread state (a zstd context, an inflater): one per task, closed after it.
 */
final class StreamDecoder implements AutoCloseable {
  private static final LZ4SafeDecompressor LZ4 = Lz4.FACTORY.safeDecompressor();

  private final BloscCompressor compressor;
  private ZstdDecompressCtx zstd;
  private Inflater inflater;

  StreamDecoder(BloscCompressor compressor) {
    this.compressor = compressor;
  }

  /**
   * Decodes the {@code length} bytes of {@code src} (direct) at {@code at} into {@code dst} (direct) at
   * {@code to}; returns the bytes written (at most {@code max}) or -1 for a malformed stream.
   */
  int decode(ByteBuffer src, int at, int length, ByteBuffer dst, int to, int max) {
    try {
      return switch (compressor) {
        case LZ4, LZ4HC -> LZ4.decompress(src, at, length, dst, to, max);
        case ZSTD -> zstd().decompressDirectByteBuffer(dst, to, max, src, at, length);
        case ZLIB -> inflate(src, at, length, dst, to, max);
        case BLOSCLZ -> BloscLz.decompress(
            MemoryUtil.getByteBufferAddress(src) + at, length, MemoryUtil.getByteBufferAddress(dst) + to, max);
        case SNAPPY -> -1; // refused when the header is read
      };
    } catch (LZ4Exception | ZstdException e) {
      return -1;
    }
  }

  private ZstdDecompressCtx zstd() {
    if (zstd == null) {
      zstd = new ZstdDecompressCtx();
    }
    return zstd;
  }

  /** zlib's uncompress(): one complete zlib stream (header, deflate, adler32) of at most max bytes. */
  private int inflate(ByteBuffer src, int at, int length, ByteBuffer dst, int to, int max) {
    if (inflater == null) {
      inflater = new Inflater();
    } else {
      inflater.reset();
    }
    inflater.setInput(src.slice(at, length));
    ByteBuffer out = dst.slice(to, max);
    try {
      while (!inflater.finished()) {
        int n = inflater.inflate(out);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary() || !out.hasRemaining())) {
          return inflater.finished() ? out.position() : -1;
        }
      }
      return out.position();
    } catch (DataFormatException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    if (zstd != null) {
      zstd.close();
    }
    if (inflater != null) {
      inflater.end();
    }
  }
}
