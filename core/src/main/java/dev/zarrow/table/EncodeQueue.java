package dev.zarrow.table;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Write units of a table encoded in the background, so that a writer keeps taking batches (and both
 * cores keep encoding) while earlier units compress: at most {@code limit} units queued or running.
 * Past it, {@link #submit} makes the caller encode queued units itself, as {@link
 * dev.zarrow.internal.WorkSharing} does: a unit is taken only by a thread that is running, so a caller
 * that is itself a task of the executor never waits for a task queued behind it. The first failure is
 * kept (a unit names its column itself); later units are dropped (their memory released) and the
 * failure is rethrown by {@link #check} or {@link #await}.
 */
final class EncodeQueue {
  /** One unit: {@code encode} writes it; {@code owned} is released after, encoded or not. */
  record Unit(Runnable encode, AutoCloseable owned) {}

  private final Executor executor;
  private final int limit;
  private final ConcurrentLinkedQueue<Unit> queued = new ConcurrentLinkedQueue<>();
  /** Units queued or running. */
  private final AtomicInteger unfinished = new AtomicInteger();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Object progress = new Object();

  EncodeQueue(Executor executor, int limit) {
    this.executor = executor;
    this.limit = Math.max(1, limit);
  }

  /** Queues {@code unit} (its memory now belongs to the queue), then helps while too many are unfinished. */
  void submit(Unit unit) {
    queued.add(unit);
    unfinished.incrementAndGet();
    try {
      executor.execute(this::runOne);
    } catch (RejectedExecutionException e) {
      // the caller encodes it below or in await
    }
    while (unfinished.get() > limit) {
      if (!runOne()) {
        waitForProgress();
      }
    }
  }

  /** Rethrows the first failure of a unit, if any. */
  void check() {
    rethrow();
  }

  /** Waits until every unit submitted is written (encoding queued ones itself); rethrows the first failure. */
  void await() {
    drain();
    rethrow();
  }

  /** Waits until every unit is written or dropped; keeps any failure for {@link #await}. */
  void drain() {
    while (unfinished.get() > 0) {
      if (!runOne()) {
        waitForProgress();
      }
    }
  }

  private boolean runOne() {
    Unit unit = queued.poll();
    if (unit == null) {
      return false;
    }
    try (AutoCloseable owned = unit.owned()) {
      if (failure.get() == null) {
        unit.encode().run();
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    } finally {
      unfinished.decrementAndGet();
      synchronized (progress) {
        progress.notifyAll();
      }
    }
    return true;
  }

  /** Waits a little for a unit running elsewhere to end (nothing is queued for this thread to take). */
  private void waitForProgress() {
    synchronized (progress) {
      if (queued.isEmpty() && unfinished.get() > 0) {
        try {
          progress.wait(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while chunks were being written", e);
        }
      }
    }
  }

  private void rethrow() {
    Throwable t = failure.get();
    if (t instanceof RuntimeException re) {
      throw re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    if (t != null) {
      throw new IllegalStateException(t);
    }
  }
}
