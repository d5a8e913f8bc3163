package dev.zarrow.codec.blosc;

import dev.zarrow.error.CodecException;
import dev.zarrow.internal.Shuffles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Writes Blosc 1 chunks (header version 2) as c-blosc 1.x does, so that any Blosc reader reads them: the
 * block size it would choose, blocks split into one stream per byte of the element where it would split
 * them, streams that do not compress stored as they are, and the whole chunk copied after the header
 * (memcpyed) when it is small, at level 0, or does not compress.
 *
 * @param compressor blosclz, lz4, lz4hc, zlib or zstd
 * @param clevel 0 (copy) to 9
 * @param typesize the element size the shuffle works on (1 or more; over 255 is treated as 1, as c-blosc does)
 * @param blocksize the block size, or 0 for c-blosc's choice
 */
public record BloscEncoder(BloscCompressor compressor, int clevel, BloscShuffle shuffle, int typesize, int blocksize) {
  private static final int L1 = 32 << 10;

  public BloscEncoder {
    if (!compressor.encodable()) {
      throw new CodecException("blosc: zarrow cannot encode with " + compressor.cname() + " (it encodes with "
          + BloscCompressor.names(BloscCompressor::encodable) + ")");
    }
    if (clevel < 0 || clevel > 9) {
      throw new CodecException("blosc: clevel must be 0..9, got " + clevel);
    }
    if (typesize < 1) {
      throw new CodecException("blosc: typesize must be 1 or more, got " + typesize);
    }
    if (blocksize < 0) {
      throw new CodecException("blosc: blocksize must be 0 (automatic) or more, got " + blocksize);
    }
  }

  /** The Blosc chunk of the remaining bytes of {@code data} (borrowed), in new direct memory. */
  public ByteBuffer encode(ByteBuffer data) {
    int nbytes = data.remaining();
    if (nbytes > BloscHeader.MAX_NBYTES) {
      throw new CodecException("blosc: " + nbytes + " bytes are more than one Blosc 1 chunk holds");
    }
    ByteBuffer in = data.isDirect() ? data.slice() : ByteBuffer.allocateDirect(nbytes).put(data.duplicate()).flip();
    int ts = typesize > 255 ? 1 : typesize;
    int bs = chooseBlocksize(compressor, clevel, ts, nbytes, blocksize);
    int nblocks = nbytes / bs + (nbytes % bs > 0 ? 1 : 0);
    int flags = (compressor.format() << 5) | (split(compressor, ts, bs) ? 0 : BloscHeader.DONT_SPLIT);
    if (shuffle == BloscShuffle.SHUFFLE) {
      flags |= BloscHeader.DOSHUFFLE;
    } else if (shuffle == BloscShuffle.BITSHUFFLE) {
      flags |= BloscHeader.DOBITSHUFFLE;
    }
    ByteBuffer out = ByteBuffer.allocateDirect(nbytes + BloscHeader.SIZE).order(ByteOrder.LITTLE_ENDIAN);
    BloscHeader h = new BloscHeader(BloscHeader.VERSION, BloscHeader.VERSION_LZ, flags, ts, nbytes, bs, 0);
    int cbytes = clevel == 0 || nbytes < BloscHeader.MIN_BUFFERSIZE ? 0 : compress(in, h, out);
    if (cbytes == 0) { // copy: c-blosc keeps the shuffle flags it set
      h = new BloscHeader(h.version(), h.versionLz(), flags | BloscHeader.MEMCPYED, ts, nbytes, bs, nbytes + BloscHeader.SIZE);
      MemoryUtil.copyMemory(MemoryUtil.getByteBufferAddress(in), MemoryUtil.getByteBufferAddress(out) + BloscHeader.SIZE, nbytes);
      cbytes = h.cbytes();
    } else {
      h = new BloscHeader(h.version(), h.versionLz(), flags, ts, nbytes, bs, cbytes);
    }
    h.write(out, 0);
    return out.limit(cbytes);
  }

  /** Writes the block offsets and blocks after the header; the chunk's size, or 0 when it does not fit. */
  private int compress(ByteBuffer in, BloscHeader h, ByteBuffer out) {
    int max = out.capacity();
    int nblocks = h.nblocks();
    int ntbytes = BloscHeader.SIZE + 4 * nblocks;
    ByteBuffer tmp = ByteBuffer.allocateDirect(h.blocksize());
    ByteBuffer tmp2 = shuffle == BloscShuffle.BITSHUFFLE ? ByteBuffer.allocateDirect(h.blocksize()) : null;
    try (StreamEncoder streams = new StreamEncoder(compressor, clevel)) {
      for (int j = 0; j < nblocks; j++) {
        out.putInt(BloscHeader.SIZE + 4 * j, ntbytes);
        int n = compressBlock(in, h, j, out, ntbytes, max, streams, tmp, tmp2);
        if (n == 0) {
          return 0;
        }
        ntbytes += n;
      }
    }
    return ntbytes;
  }

  private int compressBlock(
      ByteBuffer in, BloscHeader h, int j, ByteBuffer out, int ntbytes, int max, StreamEncoder streams,
      ByteBuffer tmp, ByteBuffer tmp2) {
    int bsize = h.blockSize(j);
    int from = j * h.blocksize();
    int ts = h.typesize();
    long src = MemoryUtil.getByteBufferAddress(in) + from;
    ByteBuffer block = in;
    int blockAt = from;
    if (shuffle == BloscShuffle.SHUFFLE && ts > 1) {
      int n = bsize / ts;
      long t = MemoryUtil.getByteBufferAddress(tmp);
      Shuffles.shuffle(ts, n, src, Shuffles.planes(t, ts, n));
      MemoryUtil.copyMemory(src + (long) n * ts, t + (long) n * ts, bsize - (long) n * ts);
      block = tmp;
      blockAt = 0;
    } else if (shuffle == BloscShuffle.BITSHUFFLE && bsize >= ts) {
      int n = bsize / ts;
      long t = MemoryUtil.getByteBufferAddress(tmp);
      if (n % 8 == 0) {
        Shuffles.bitShuffle(ts, n, src, t, MemoryUtil.getByteBufferAddress(tmp2));
        MemoryUtil.copyMemory(src + (long) n * ts, t + (long) n * ts, bsize - (long) n * ts);
      } else {
        MemoryUtil.copyMemory(src, t, bsize);
      }
      block = tmp;
      blockAt = 0;
    }
    int nsplits = h.splits(j);
    int neblock = bsize / nsplits;
    int written = 0;
    for (int k = 0; k < nsplits; k++) {
      ntbytes += 4;
      written += 4;
      int maxout = Math.min(neblock, max - ntbytes);
      if (maxout <= 0) {
        return 0;
      }
      int cbytes = streams.encode(block, blockAt + k * neblock, neblock, out, ntbytes, maxout,
          (h.flags() & BloscHeader.DONT_SPLIT) == 0);
      if (cbytes == 0 || cbytes >= neblock) {
        if (ntbytes + neblock > max) {
          return 0;
        }
        out.put(ntbytes, block, blockAt + k * neblock, neblock);
        cbytes = neblock;
      }
      out.putInt(ntbytes - 4, cbytes);
      ntbytes += cbytes;
      written += cbytes;
    }
    return written;
  }

  /** c-blosc 1.x's choice of block size ({@code compute_blocksize}). */
  public static int chooseBlocksize(BloscCompressor c, int clevel, int ts, int nbytes, int forced) {
    if (nbytes < ts) {
      return 1;
    }
    int bs = nbytes;
    boolean hcr = c == BloscCompressor.LZ4HC || c == BloscCompressor.ZLIB || c == BloscCompressor.ZSTD;
    if (forced > 0) {
      bs = Math.min(Math.max(forced, BloscHeader.MIN_BUFFERSIZE), BloscHeader.MAX_BLOCKSIZE);
    } else if (nbytes >= L1) {
      bs = hcr ? 2 * L1 : L1;
      bs = switch (clevel) {
        case 0 -> bs / 4;
        case 1 -> bs / 2;
        case 2 -> bs;
        case 3 -> bs * 2;
        case 4, 5 -> bs * 4;
        case 6, 7, 8 -> bs * 8;
        default -> hcr ? bs * 16 : bs * 8;
      };
    }
    if (clevel > 0 && split(c, ts, bs)) {
      bs = Math.min(bs, 1 << 18) * ts;
      bs = Math.min(Math.max(bs, 1 << 16), 1 << 20);
    }
    bs = Math.min(bs, nbytes);
    if (bs > ts) {
      bs = bs / ts * ts;
    }
    return bs;
  }

  /** c-blosc 1.x's default split mode (forward compatible): every compressor but zstd, for small elements. */
  static boolean split(BloscCompressor c, int ts, int blocksize) {
    return c != BloscCompressor.ZSTD && ts <= BloscHeader.MAX_SPLITS && blocksize / ts >= BloscHeader.MIN_BUFFERSIZE;
  }
}
