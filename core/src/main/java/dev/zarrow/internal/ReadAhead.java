package dev.zarrow.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

/**
 * The batches of rows {@code [start, end)} in steps of {@code step} rows, cut at the multiples of
 * {@code step} (so a range that starts inside a chunk reads whole chunks after its first batch), decoded
 * on an executor up to {@code depth} batches ahead of the consumer: while the consumer works on one batch, the next ones
 * decode. So memory holds at most {@code depth} decoded batches besides the one being consumed.
 * Not thread-safe: one consumer.
 *
 * <p>Safe on any executor, also when the consumer itself runs in a task of it (a 1-thread pool): a
 * batch is decoded by whichever thread claims it first, a pool thread or the consumer. The consumer
 * claims the batch it needs when no thread has started it, so it only ever waits for a batch that a
 * running thread is decoding, never for a task still queued behind it ({@code WorkSharing}'s rule).
 *
 * @param <B> a decoded batch, closed by whoever takes it (or by {@link #close} when never taken)
 */
public final class ReadAhead<B extends AutoCloseable> implements AutoCloseable {
  private final long end;
  private final long step;
  private final int depth;
  private final BiFunction<Long, Long, B> decode;
  private final Executor executor;
  private final Deque<Task> pending = new ArrayDeque<>();
  private long nextStart;
  private boolean closed;
  private RuntimeException failure;

  /** One batch: decoded once, by the first thread that claims it. */
  private final class Task implements Runnable {
    final long from;
    final long to;
    final AtomicBoolean claimed = new AtomicBoolean();
    final CompletableFuture<B> result = new CompletableFuture<>();

    Task(long from, long to) {
      this.from = from;
      this.to = to;
    }

    @Override
    public void run() {
      if (!claimed.compareAndSet(false, true)) {
        return; // the consumer (or close) got here first
      }
      try {
        result.complete(decode.apply(from, to));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    }

    /** Claims the task for nobody: a batch never started is never decoded. True when that worked. */
    boolean cancel() {
      if (claimed.compareAndSet(false, true)) {
        result.complete(null);
        return true;
      }
      return false;
    }
  }

  /** Batches decoded ahead of the consumer by default: one per core, at least 2 and at most 8. */
  public static int defaultDepth() {
    return Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));
  }

  /** {@code decode.apply(from, to)} decodes rows {@code [from, to)}. */
  public ReadAhead(long start, long end, long step, int depth, BiFunction<Long, Long, B> decode, Executor executor) {
    if (step <= 0 || depth <= 0) {
      throw new IllegalArgumentException("step " + step + " and depth " + depth + " must be positive");
    }
    this.nextStart = start;
    this.end = end;
    this.step = step;
    this.depth = depth;
    this.decode = decode;
    this.executor = executor;
  }

  /**
   * The next batch (the caller owns and closes it), or null after the last. Rethrows its failure, and
   * the same failure on every later call: skipping to the batch after a bad one would hand out a
   * stream with rows missing.
   */
  public B next() {
    if (closed) {
      throw new IllegalStateException("read-ahead closed");
    }
    if (failure != null) {
      throw failure;
    }
    startMore();
    Task head = pending.poll();
    if (head == null) {
      return null;
    }
    startMore(); // the next batches decode while the caller works on this one
    head.run(); // decodes it here unless a running thread already has it
    try {
      return head.result.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      failure = e.getCause() instanceof RuntimeException r ? r : e;
      throw failure;
    }
  }

  private void startMore() {
    while (pending.size() < depth && nextStart < end) {
      long from = nextStart;
      long to = Math.min(end, (from / step + 1) * step);
      nextStart = to;
      Task task = new Task(from, to);
      pending.add(task);
      try {
        executor.execute(task);
      } catch (RejectedExecutionException e) {
        // a saturated or shut-down executor: the consumer decodes the batch when it gets to it
      }
    }
  }

  /**
   * Closes the batches decoded and never taken. A batch no thread has started is never decoded; close
   * waits only for those a running thread is decoding, so it never waits for a queued task.
   */
  @Override
  public void close() {
    closed = true;
    for (Task task : pending) {
      if (task.cancel()) {
        continue;
      }
      try {
        B batch = task.result.join();
        if (batch != null) {
          batch.close();
        }
      } catch (Exception ignored) {
        // a batch that failed holds nothing: its decoder closed what it made
      }
    }
    pending.clear();
  }
}
