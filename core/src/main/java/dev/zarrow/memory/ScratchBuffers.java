package dev.zarrow.memory;

import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Buffers lent out and given back again during one operation (the stored bytes of each chunk of a
 * whole read), so that reading N chunks on T threads touches about T buffers of fresh memory instead of
 * N: fresh memory costs a page fault per 4 KiB on first touch, and {@code ByteBuffer.allocateDirect}
 * also zeroes it and frees it only at a GC. Thread-safe. The buffers live in a named child of the
 * parent allocator, released by {@link #close} once nothing is lent.
 */
public final class ScratchBuffers implements AutoCloseable {
  private final BufferAllocator allocator;
  private final ConcurrentLinkedQueue<ArrowBuf> free = new ConcurrentLinkedQueue<>();

  public ScratchBuffers(BufferAllocator parent, String name) {
    this.allocator = Buffers.temporaryAllocator(parent, name);
  }

  /** A buffer of at least {@code size} bytes (contents undefined), the caller's until {@link #give}. */
  public ArrowBuf take(long size) {
    // The smallest free buffer that fits: buffers of different sizes (a chunk's stored bytes, its
    // decoded bytes) are lent together, and each should find its own kind again.
    while (true) {
      ArrowBuf best = null;
      for (ArrowBuf candidate : free) {
        if (candidate.capacity() >= size && (best == null || candidate.capacity() < best.capacity())) {
          best = candidate;
        }
      }
      if (best == null) {
        break;
      }
      if (free.remove(best)) {
        return best;
      } // else another thread took it: look again
    }
    ArrowBuf small = free.poll();
    if (small != null) {
      if (small.capacity() >= size) {
        return small; // given back meanwhile
      }
      small.close(); // too small for this chunk: make room for a larger one
    }
    // Unzeroed memory, whose pages are only paid for when first written (the pool would zero it: a
    // buffer of megabytes is fresh memory from the JVM each time), so headroom costs nothing: a quarter,
    // so that chunks compressed to different sizes share buffers.
    return Buffers.allocateUninitialized(allocator, size + (size >> 2));
  }

  /** Gives back a buffer from {@link #take}; its contents may be overwritten at once by another taker. */
  public void give(ArrowBuf buf) {
    free.add(buf);
  }

  @Override
  public void close() {
    for (ArrowBuf buf = free.poll(); buf != null; buf = free.poll()) {
      buf.close();
    }
    allocator.close();
  }
}
