package dev.zarrow.codec.blosc;

import static dev.zarrow.codec.blosc.BloscHeader.corrupt;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.internal.Shuffles;
import dev.zarrow.internal.WorkSharing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Decodes Blosc 1 chunks (see {@link BloscHeader} for the layout). Everything read from the chunk is
 * checked before use: block offsets and stream sizes against the chunk, decoded sizes against the
 * blocks, the whole against the size the caller expects; a bad chunk is a {@link CorruptChunkException},
 * never an exception of a library, an out-of-bounds access or an allocation the chunk cannot justify.
 *
 * <p>The header's typesize decides the shuffle (writers disagree with metadata). A memcpyed chunk is
 * copied whatever shuffle flags it carries (c-blosc 1.21 leaves them set). Blocks of large chunks are
 * decoded in parallel on the executor when it has idle threads. Thread-safe; one per codec, so that its
 * working memory is reused across chunks.
 */
public final class BloscDecoder {
  /** Chunks smaller than this decode on the calling thread: splitting them costs more than it saves. */
  static final int PARALLEL_BYTES = 2 << 20;
  /**
   * The most bytes one compressed byte can stand for, per compressor (LZ4 and BloscLZ: a 255-byte
   * length extension per byte; deflate 1032; a zstd RLE block 32768), to refuse chunks that declare
   * more than they can hold before allocating for them.
   */
  private static final long MAX_RATIO_LZ = 256;
  private static final long MAX_RATIO_ZLIB = 1040;
  private static final long MAX_RATIO_ZSTD = 32768;

  private final Scratch.Pool scratch = new Scratch.Pool();

  /**
   * The decoded chunk in new direct memory. {@code expectedSize} is the exact decoded size when known
   * (else -1); a chunk may not decode to more than {@code maxSize} bytes.
   */
  public ByteBuffer decode(ByteBuffer chunk, long expectedSize, long maxSize, Executor executor) {
    ByteBuffer in = direct(chunk);
    BloscHeader h = BloscHeader.read(in);
    if (expectedSize >= 0 && h.nbytes() != expectedSize) {
      throw corrupt("the chunk decodes to " + h.nbytes() + " bytes (header nbytes), expected " + expectedSize);
    }
    if (h.nbytes() > maxSize) {
      throw corrupt("the chunk decodes to " + h.nbytes() + " bytes (header nbytes), more than the limit of " + maxSize);
    }
    if (expectedSize < 0 && !h.memcpyed() && h.nbytes() > maxRatio(h.compressor()) * h.cbytes()) {
      throw corrupt("a chunk of " + h.cbytes() + " bytes cannot decode to the " + h.nbytes()
          + " bytes its header (nbytes) declares with " + h.compressor().cname());
    }
    ByteBuffer out = ByteBuffer.allocateDirect(h.nbytes());
    decode(in, h, out, executor);
    return out;
  }

  /**
   * Decodes {@code chunk} into the remaining space of {@code target} (neither position is moved), which
   * must be exactly the decoded size. Direct, writable targets are written in place.
   */
  public void decodeInto(ByteBuffer chunk, ByteBuffer target, Executor executor) {
    ByteBuffer in = direct(chunk);
    BloscHeader h = BloscHeader.read(in);
    if (h.nbytes() != target.remaining()) {
      throw corrupt("the chunk decodes to " + h.nbytes() + " bytes (header nbytes), expected " + target.remaining());
    }
    if (target.isDirect() && !target.isReadOnly()) {
      decode(in, h, target.slice(), executor);
    } else {
      ByteBuffer out = ByteBuffer.allocateDirect(h.nbytes());
      decode(in, h, out, executor);
      target.put(target.position(), out, 0, h.nbytes());
    }
  }

  /**
   * Checks that {@code chunk} decodes to exactly {@code size} bytes, with every check {@link #decodeInto}
   * makes, without producing them: the streams are decompressed into working memory reused from block
   * to block, and the shuffle, a permutation that cannot fail, is skipped.
   */
  public void verify(ByteBuffer chunk, int size, Executor executor) {
    ByteBuffer in = direct(chunk);
    BloscHeader h = BloscHeader.read(in);
    if (h.nbytes() != size) {
      throw corrupt("the chunk decodes to " + h.nbytes() + " bytes (header nbytes), expected " + size);
    }
    decode(in, h, null, executor);
  }

  private static long maxRatio(BloscCompressor c) {
    return switch (c) {
      case ZSTD -> MAX_RATIO_ZSTD;
      case ZLIB -> MAX_RATIO_ZLIB;
      default -> MAX_RATIO_LZ;
    };
  }

  /**
   * Decodes the checked chunk {@code in} (index 0 is its start) into {@code out} (index 0, nbytes long);
   * with every check but no output when {@code out} is null.
   */
  private void decode(ByteBuffer in, BloscHeader h, ByteBuffer out, Executor executor) {
    if (h.nbytes() == 0) {
      return;
    }
    if (h.memcpyed()) {
      if (out != null) { // the header's check of its size is all there is to verify
        MemoryUtil.copyMemory(MemoryUtil.getByteBufferAddress(in) + BloscHeader.SIZE, MemoryUtil.getByteBufferAddress(out), h.nbytes());
      }
      return;
    }
    int nblocks = h.nblocks();
    if (nblocks > 1 && h.nbytes() >= PARALLEL_BYTES && hasIdleThreads(executor)) {
      // Tasks of several blocks each: a block is ~1 MB at most, so a few per task keep the overhead small.
      int perTask = Math.max(1, nblocks / (4 * Runtime.getRuntime().availableProcessors()));
      int tasks = (nblocks + perTask - 1) / perTask;
      WorkSharing.forEachIndex(tasks, t -> decodeBlocks(in, h, out, t * perTask, Math.min(nblocks, (t + 1) * perTask)), executor);
    } else {
      decodeBlocks(in, h, out, 0, nblocks);
    }
  }

  /** True unless the executor is known to be busy (a pool whose threads all run). */
  private static boolean hasIdleThreads(Executor executor) {
    if (executor instanceof ThreadPoolExecutor pool) {
      return pool.getActiveCount() < pool.getMaximumPoolSize();
    }
    if (executor instanceof ForkJoinPool pool) {
      return pool.getActiveThreadCount() < pool.getParallelism();
    }
    return true;
  }

  private void decodeBlocks(ByteBuffer in, BloscHeader h, ByteBuffer out, int from, int to) {
    Scratch s = scratch.take();
    try (StreamDecoder streams = new StreamDecoder(h.compressor())) {
      for (int j = from; j < to; j++) {
        decodeBlock(in, h, out, j, streams, s);
      }
    } finally {
      scratch.give(s);
    }
  }

  private static void decodeBlock(ByteBuffer in, BloscHeader h, ByteBuffer out, int j, StreamDecoder streams, Scratch s) {
    int cbytes = h.cbytes();
    int bsize = h.blockSize(j);
    int ts = h.typesize();
    int to = j * h.blocksize(); // < nbytes: no overflow
    long src = MemoryUtil.getByteBufferAddress(in);
    boolean verifyOnly = out == null; // streams decoded into the scratch, nothing written out
    long dst = verifyOnly ? 0 : MemoryUtil.getByteBufferAddress(out) + to;
    int offset = MemoryUtil.getInt(src + BloscHeader.SIZE + 4L * j);
    offset = MemoryUtil.LITTLE_ENDIAN ? offset : Integer.reverseBytes(offset);
    BloscShuffle shuffle = h.shuffle();
    boolean bit = shuffle == BloscShuffle.BITSHUFFLE && bsize >= ts;
    boolean shuffled = shuffle == BloscShuffle.SHUFFLE || bit;
    int nsplits = h.splits(j);
    if (bsize % nsplits != 0) {
      throw corrupt("block " + j + " of " + bsize + " bytes cannot split into " + nsplits + " streams (typesize)");
    }
    int neblock = bsize / nsplits;
    ByteBuffer tmp = shuffled || verifyOnly ? s.first(bsize) : out;
    int tmpAt = shuffled || verifyOnly ? 0 : to;
    long tmpAddr = MemoryUtil.getByteBufferAddress(tmp) + tmpAt;
    long[] parts = new long[nsplits]; // where each decoded stream is: in place when stored raw
    for (int k = 0; k < nsplits; k++) {
      if (offset < 0 || offset > cbytes - 4) {
        throw corrupt("block " + j + " stream " + k + " starts at " + offset + ", outside the chunk of " + cbytes + " bytes");
      }
      int csize = MemoryUtil.getInt(src + offset);
      csize = MemoryUtil.LITTLE_ENDIAN ? csize : Integer.reverseBytes(csize);
      offset += 4;
      if (csize < 0 || csize > cbytes - offset) {
        throw corrupt("block " + j + " stream " + k + " at " + (offset - 4) + " declares " + Integer.toUnsignedString(csize)
            + " bytes, more than the chunk of " + cbytes + " holds");
      }
      long part = tmpAddr + (long) k * neblock;
      if (csize == neblock) {
        if (shuffled) {
          part = src + offset; // the shuffle reads it where it is
        } else if (!verifyOnly) {
          MemoryUtil.copyMemory(src + offset, part, neblock);
        }
      } else {
        int n = streams.decode(in, offset, csize, tmp, tmpAt + k * neblock, neblock);
        if (n != neblock) {
          throw corrupt("block " + j + " stream " + k + " (" + csize + " bytes of " + h.compressor().cname() + ") "
              + (n < 0 ? "is malformed" : "decodes to " + n + " bytes") + ", expected " + neblock);
        }
      }
      parts[k] = part;
      offset += csize;
    }
    if (!shuffled || verifyOnly) {
      return;
    }
    int n = bsize / ts;
    if (bit && n % 8 != 0) { // c-blosc leaves such blocks unshuffled
      copyParts(parts, neblock, dst);
      return;
    }
    long[] planes = nsplits == ts ? parts : Shuffles.planes(parts[0], ts, n);
    if (bit) {
      Shuffles.bitUnshuffle(ts, n, planes, dst, Scratch.address(s.second(n * ts)));
    } else {
      Shuffles.unshuffle(ts, n, planes, dst);
    }
    int tail = bsize - n * ts; // only in unsplit blocks: the bytes after the last whole element
    if (tail > 0) {
      MemoryUtil.copyMemory(parts[0] + (long) n * ts, dst + (long) n * ts, tail);
    }
  }

  private static void copyParts(long[] parts, int length, long dst) {
    for (int k = 0; k < parts.length; k++) {
      MemoryUtil.copyMemory(parts[k], dst + (long) k * length, length);
    }
  }

  /** The chunk in direct memory, index 0 at its start: heap input is copied once. */
  private static ByteBuffer direct(ByteBuffer chunk) {
    if (chunk.isDirect()) {
      return chunk.slice().order(ByteOrder.LITTLE_ENDIAN);
    }
    return ByteBuffer.allocateDirect(chunk.remaining()).put(chunk.duplicate()).flip();
  }
}
