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
    ArrowBuf buf = free.poll();
    if (buf != null && buf.capacity() >= size) {
      return buf;
    }
    if (buf != null) {
      buf.close(); // too small for this chunk: make room for a larger one
    }
    // A little headroom, so that chunks compressed to slightly different sizes share buffers.
    return allocator.buffer(size + (size >> 4));
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
