package dev.zarrow.codec.blosc;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 16-byte header of a Blosc 1 chunk, checked against the chunk before anything else reads it.
 *
 * <pre>
 * chunk   := header bstarts? blocks
 * header  := version:u8 (2)  versionlz:u8 (1)  flags:u8  typesize:u8
 *            nbytes:i32le  blocksize:i32le  cbytes:i32le        all sizes in bytes
 * flags   := bit 0 byte shuffle | bit 1 memcpyed | bit 2 bit shuffle | bit 3 reserved (0)
 *            | bit 4 blocks not split | bits 5-7 compressor format (0 blosclz, 1 lz4, 2 snappy, 3 zlib, 4 zstd)
 * memcpyed: the nbytes of data follow the header as they are (shuffle bits may still be set; ignored)
 * bstarts := i32le * nblocks          offset of each block from the start of the chunk
 *            nblocks = ceil(nbytes / blocksize); the last block may be short (the leftover)
 * block   := (csize:i32le stream[csize]) * nsplits
 *            a block is split into typesize streams, one per byte of the element, unless flag 4 is set,
 *            the block is the leftover, typesize &gt; 16 or blocksize / typesize &lt; 128
 *            a stream whose csize equals its decoded size is stored as is, else compressed
 * </pre>
 *
 * @param flags the flags byte (unsigned)
 * @param typesize the element size the shuffles use (1-255)
 * @param nbytes the decoded size
 * @param blocksize the decoded size of every block but the last
 * @param cbytes the size of the whole chunk
 */
public record BloscHeader(int version, int versionLz, int flags, int typesize, int nbytes, int blocksize, int cbytes) {
  public static final int SIZE = 16;
  static final int VERSION = 2;
  static final int VERSION_LZ = 1;
  static final int DOSHUFFLE = 0x1;
  static final int MEMCPYED = 0x2;
  static final int DOBITSHUFFLE = 0x4;
  static final int RESERVED = 0x8;
  static final int DONT_SPLIT = 0x10;
  /** c-blosc splits blocks only for element sizes up to this. */
  static final int MAX_SPLITS = 16;
  /** ... and only when a split stream has at least this many bytes (also the smallest chunk compressed). */
  static final int MIN_BUFFERSIZE = 128;
  /** The largest block c-blosc 1.x accepts. */
  static final int MAX_BLOCKSIZE = (Integer.MAX_VALUE - 255 * 4) / 3;
  /** The largest decoded size: the encoded chunk must fit in 2^31 - 1 bytes with its header. */
  static final int MAX_NBYTES = Integer.MAX_VALUE - SIZE;

  /** The header at the start of {@code chunk} (from its position), checked against the chunk's length. */
  public static BloscHeader read(ByteBuffer chunk) {
    int length = chunk.remaining();
    if (length < SIZE) {
      throw corrupt("a chunk of " + length + " bytes is shorter than the 16-byte Blosc header");
    }
    ByteBuffer b = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int p = b.position();
    BloscHeader h = new BloscHeader(
        b.get(p) & 0xff, b.get(p + 1) & 0xff, b.get(p + 2) & 0xff, b.get(p + 3) & 0xff,
        b.getInt(p + 4), b.getInt(p + 8), b.getInt(p + 12));
    h.check(length);
    return h;
  }

  private void check(int length) {
    if (version != VERSION) {
      throw corrupt("header byte 0 (format version) is " + version + "; only version 2 (c-blosc 1.x) is read");
    }
    if ((flags & RESERVED) != 0) {
      throw corrupt("header byte 2 (flags) 0x" + Integer.toHexString(flags) + " has the reserved bit 3 set");
    }
    if (cbytes != length) {
      throw corrupt("header bytes 12-15 (cbytes) say " + Integer.toUnsignedString(cbytes) + " bytes, the chunk has " + length);
    }
    if (nbytes < 0 || nbytes > MAX_NBYTES) {
      throw corrupt("header bytes 4-7 (nbytes) " + Integer.toUnsignedString(nbytes) + " is not a size Blosc 1 writes");
    }
    if (memcpyed()) {
      if ((long) nbytes + SIZE != cbytes) {
        throw corrupt("a memcpyed chunk of " + cbytes + " bytes cannot hold the " + nbytes + " bytes its header (nbytes) declares");
      }
      return;
    }
    if (nbytes == 0) {
      return; // nothing to decode; c-blosc writes these as 16 bytes
    }
    if (typesize == 0) {
      throw corrupt("header byte 3 (typesize) is 0");
    }
    if (blocksize <= 0 || blocksize > MAX_BLOCKSIZE) {
      throw corrupt("header bytes 8-11 (blocksize) " + Integer.toUnsignedString(blocksize) + " is not a block size Blosc 1 writes");
    }
    BloscCompressor c = compressor();
    if (versionLz != VERSION_LZ) {
      throw corrupt("header byte 1 (" + c.cname() + " format version) is " + versionLz + ", expected 1");
    }
    if ((long) nblocks() * 4 > cbytes - SIZE) {
      throw corrupt("a chunk of " + cbytes + " bytes cannot hold the offsets of its " + nblocks() + " blocks ("
          + nbytes + " bytes in blocks of " + blocksize + ")");
    }
  }

  /** The compressor of the blocks; snappy and unknown codes are refused by name. */
  public BloscCompressor compressor() {
    int format = flags >>> 5;
    BloscCompressor c = BloscCompressor.byFormat(format)
        .orElseThrow(() -> corrupt("header byte 2 (flags) names compressor format " + format + ", which Blosc 1 does not have"));
    if (!c.decodable()) {
      throw new UnsupportedExtensionException("blosc: the chunk is compressed with " + c.cname()
          + ", which zarrow does not read (it reads " + BloscCompressor.names(BloscCompressor::decodable) + ")");
    }
    return c;
  }

  /** The data follows the header uncompressed. */
  public boolean memcpyed() {
    return (flags & MEMCPYED) != 0;
  }

  /**
   * The shuffle the blocks carry, as c-blosc decides it: byte shuffle (which needs typesize &gt; 1) before
   * bit shuffle (which needs a block of at least one element: see the decoder).
   */
  BloscShuffle shuffle() {
    if ((flags & DOSHUFFLE) != 0 && typesize > 1) {
      return BloscShuffle.SHUFFLE;
    }
    return (flags & DOBITSHUFFLE) != 0 ? BloscShuffle.BITSHUFFLE : BloscShuffle.NOSHUFFLE;
  }

  /** The number of blocks; the last is {@link #leftover()} bytes when that is not 0. */
  public int nblocks() {
    return nbytes / blocksize + (leftover() > 0 ? 1 : 0);
  }

  int leftover() {
    return nbytes % blocksize;
  }

  /** The decoded size of block {@code j}. */
  int blockSize(int j) {
    return j == nblocks() - 1 && leftover() > 0 ? leftover() : blocksize;
  }

  /** How many streams block {@code j} is split into (c-blosc 1.x's rule, split flag or not). */
  int splits(int j) {
    boolean split = (flags & DONT_SPLIT) == 0 && typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE
        && !(j == nblocks() - 1 && leftover() > 0);
    return split ? typesize : 1;
  }

  /** The 16 bytes of this header, little-endian. */
  ByteBuffer write(ByteBuffer out, int at) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.put(at, (byte) version).put(at + 1, (byte) versionLz).put(at + 2, (byte) flags).put(at + 3, (byte) typesize);
    b.putInt(at + 4, nbytes).putInt(at + 8, blocksize).putInt(at + 12, cbytes);
    return out;
  }

  static CorruptChunkException corrupt(String message) {
    return new CorruptChunkException("blosc: " + message);
  }
}
