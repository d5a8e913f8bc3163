package dev.zarrow.table;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;

/**
 * The batches of rows {@code [start, end)} in steps of {@code step} rows, cut at the multiples of
 * {@code step} (so a range that starts inside a chunk reads whole chunks after its first batch), decoded
 * on an executor up to
 * {@code depth} batches ahead of the consumer: while the consumer works on one batch, the next ones
 * decode. So memory holds at most {@code depth} decoded batches besides the one being consumed.
 * Not thread-safe: one consumer.
 *
 * @param <B> a decoded batch, closed by whoever takes it (or by {@link #close} when never taken)
 */
final class ReadAhead<B extends AutoCloseable> implements AutoCloseable {
  private final long end;
  private final long step;
  private final int depth;
  private final BiFunction<Long, Long, B> decode;
  private final Executor executor;
  private final Deque<CompletableFuture<B>> pending = new ArrayDeque<>();
  private long nextStart;
  private volatile boolean closed;
  private RuntimeException failure;

  /** {@code decode.apply(from, to)} decodes rows {@code [from, to)}. */
  ReadAhead(long start, long end, long step, int depth, BiFunction<Long, Long, B> decode, Executor executor) {
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
  B next() {
    if (closed) {
      throw new IllegalStateException("read-ahead closed");
    }
    if (failure != null) {
      throw failure;
    }
    CompletableFuture<B> head = pending.poll();
    if (head == null) {
      startMore();
      head = pending.poll();
      if (head == null) {
        return null;
      }
    }
    startMore(); // the next batches decode while the caller works on this one
    try {
      return head.join();
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
      CompletableFuture<B> future;
      try {
        // A batch that starts after close decodes nothing, so close only waits for running ones.
        future = CompletableFuture.supplyAsync(() -> closed ? null : decode.apply(from, to), executor);
      } catch (RejectedExecutionException e) {
        future = CompletableFuture.completedFuture(decode.apply(from, to));
      }
      pending.add(future);
    }
  }

  /** Waits for the batches under way and closes those never taken. */
  @Override
  public void close() {
    closed = true;
    for (CompletableFuture<B> future : pending) {
      try {
        B batch = future.join();
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
