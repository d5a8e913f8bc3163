package dev.zarrow.codec.blosc;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Working memory for one block at a time: two direct buffers that grow to the largest block seen. Kept
 * in a {@link Pool} and reused across chunks, because fresh memory costs a page fault per 4 KiB on first
 * touch (about 20 us each here: more than decoding the block).
 */
final class Scratch {
  private ByteBuffer first = ByteBuffer.allocateDirect(0);
  private ByteBuffer second = ByteBuffer.allocateDirect(0);

  /** A buffer of at least {@code size} bytes (contents undefined). */
  ByteBuffer first(int size) {
    if (first.capacity() < size) {
      first = ByteBuffer.allocateDirect(size);
    }
    return first;
  }

  /** A second buffer of at least {@code size} bytes, apart from {@link #first}. */
  ByteBuffer second(int size) {
    if (second.capacity() < size) {
      second = ByteBuffer.allocateDirect(size);
    }
    return second;
  }

  static long address(ByteBuffer direct) {
    return MemoryUtil.getByteBufferAddress(direct);
  }

  int bytes() {
    return first.capacity() + second.capacity();
  }

  /**
   * Scratch memory to share between the threads of one codec: at most one entry per core is kept, and
   * none larger than {@link #MAX_KEPT}, so the pool holds little when idle.
   */
  static final class Pool {
    private static final int MAX_KEPT = 16 << 20;
    private static final int MAX_ENTRIES = Runtime.getRuntime().availableProcessors();

    private final ConcurrentLinkedQueue<Scratch> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger kept = new AtomicInteger();

    Scratch take() {
      Scratch s = free.poll();
      if (s == null) {
        return new Scratch();
      }
      kept.decrementAndGet();
      return s;
    }

    void give(Scratch s) {
      if (s.bytes() <= MAX_KEPT && kept.incrementAndGet() <= MAX_ENTRIES) {
        free.offer(s);
      } else if (s.bytes() <= MAX_KEPT) {
        kept.decrementAndGet();
      }
    }
  }
}
