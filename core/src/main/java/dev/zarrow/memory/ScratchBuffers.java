package dev.zarrow.memory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Buffers lent out and given back again during one operation (the stored bytes of each chunk of a
 * whole read, the decoded chunks of a stream), so that reading N chunks on T threads touches about T
 * buffers of fresh memory instead of N: fresh memory costs a page fault per 4 KiB on first touch, and
 * {@code ByteBuffer.allocateDirect} also zeroes it and frees it only at a GC. Thread-safe. The buffers
 * live in a named child of the parent allocator ({@link #allocator}), released by {@link #close} once
 * nothing is lent.
 *
 * <p>Two ways to lend: {@link #take} and {@link #give} for a buffer used and given back by one task;
 * {@link #lend} for memory that vectors keep (a decoded chunk), which comes back by itself once every
 * holder has released it: a buffer is only lent again when this holds its one reference, so memory
 * somebody still holds is never overwritten.
 *
 * <p>One lock for all of it: a reclaim that found a buffer at one reference must not move it to the free
 * ones after another thread took it and lent it again (its check and its removal are two steps, and a
 * lend's take and retain are two more). Without the lock, two holders got one buffer under load (a
 * dataset's broadcast variable read back another variable's values). The lock is held per chunk, not per
 * value.
 */
public final class ScratchBuffers implements AutoCloseable {
  private final BufferAllocator allocator;
  private final List<ArrowBuf> free = new ArrayList<>();
  /** Buffers given by {@link #lend}, each with this object's reference; free again at reference count 1. */
  private final List<ArrowBuf> lent = new ArrayList<>();
  private final long maxFreeBytes;
  private long freeBytes;

  /** Buffers in a child of {@code parent} named {@code name}, every one kept until {@link #close}. */
  public ScratchBuffers(BufferAllocator parent, String name) {
    this(parent, name, Long.MAX_VALUE);
  }

  /**
   * As above, keeping at most {@code maxFreeBytes} of buffers nobody holds: one given back beyond that
   * is freed at once. For a long-lived instance that readers borrow one after another (an engine's
   * tasks), whose free buffers would otherwise grow with every size of chunk it ever saw.
   */
  public ScratchBuffers(BufferAllocator parent, String name, long maxFreeBytes) {
    if (maxFreeBytes < 0) {
      throw new IllegalArgumentException("maxFreeBytes " + maxFreeBytes + " is negative");
    }
    this.allocator = Buffers.temporaryAllocator(parent, name);
    this.maxFreeBytes = maxFreeBytes;
  }

  /**
   * The allocator the buffers come from. Vectors over {@link #lend}'s buffers must be made in it: a
   * vector of another allocator takes a reference this one cannot count, so the buffer could be lent
   * again while that vector holds it.
   */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** A buffer of at least {@code size} bytes (contents undefined), the caller's until {@link #give}. */
  public synchronized ArrowBuf take(long size) {
    reclaim();
    int best = -1; // the smallest that is large enough: buffers of other sizes stay for their takers
    for (int i = 0; i < free.size(); i++) {
      long capacity = free.get(i).capacity();
      if (capacity >= size && (best < 0 || capacity < free.get(best).capacity())) {
        best = i;
      }
    }
    if (best >= 0) {
      ArrowBuf buf = free.remove(best);
      freeBytes -= buf.capacity();
      return buf;
    }
    // None is large enough: a new one. The smaller ones stay for takers of their size (a stream takes
    // buffers of two sizes, stored and decoded chunks: closing one for the other would make both fresh
    // again and again), so this holds at most what was lent at once at the peak, until closed.
    // Unzeroed (the taker writes before it reads): no zeroing pass over megabytes of fresh pages, and
    // headroom costs nothing until written: a quarter, so that chunks compressed to different sizes share buffers.
    return Buffers.allocateUninitialized(allocator, size + (size >> 2));
  }

  /** Gives back a buffer from {@link #take}; its contents may be overwritten at once by another taker. */
  public synchronized void give(ArrowBuf buf) {
    keep(buf);
  }

  /** {@code buf} made free, or freed when the free buffers would exceed {@code maxFreeBytes}. */
  private void keep(ArrowBuf buf) {
    if (freeBytes + buf.capacity() > maxFreeBytes) {
      buf.close();
    } else {
      freeBytes += buf.capacity();
      free.add(buf);
    }
  }

  /** A loan of one buffer, for a read whose bytes are done with before the loan closes. */
  public Loan loan() {
    return new Loan();
  }

  /**
   * One buffer, taken when a read asks for it ({@link #apply}: what {@code ByteSource.readAll} and
   * {@code read(range, scratch)} take) and given back by {@link #close}.
   */
  public final class Loan implements LongFunction<ByteBuffer>, AutoCloseable {
    private ArrowBuf buf;

    private Loan() {}

    /** A little-endian view of exactly {@code n} bytes of a taken buffer (contents undefined); one per loan. */
    @Override
    public ByteBuffer apply(long n) {
      if (buf != null) {
        throw new IllegalStateException("a loan lends one buffer");
      }
      buf = take(n);
      return Buffers.view(buf, 0, n);
    }

    @Override
    public void close() {
      if (buf != null) {
        give(buf);
        buf = null;
      }
    }
  }

  /**
   * A buffer of at least {@code size} bytes (contents undefined) with a reference of the caller's, who
   * closes it (typically after a vector of {@link #allocator} took its own). It is lent again only once
   * every reference but this object's is released.
   */
  public synchronized ArrowBuf lend(long size) {
    ArrowBuf buf = take(size);
    buf.getReferenceManager().retain();
    lent.add(buf);
    return buf;
  }

  /** Lent buffers nobody holds any more become free. */
  private void reclaim() {
    for (Iterator<ArrowBuf> it = lent.iterator(); it.hasNext(); ) {
      ArrowBuf buf = it.next();
      if (buf.getReferenceManager().getRefCount() == 1) { // stays 1 under the lock: only lend retains
        it.remove();
        keep(buf);
      }
    }
  }

  /** Frees the buffers. Every vector over a lent buffer must be closed first (the allocator reports it otherwise). */
  @Override
  public synchronized void close() {
    lent.forEach(ArrowBuf::close);
    lent.clear();
    free.forEach(ArrowBuf::close);
    free.clear();
    freeBytes = 0;
    allocator.close();
  }
}
