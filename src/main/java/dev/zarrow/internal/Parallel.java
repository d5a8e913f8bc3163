package dev.zarrow.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** Runs work per chunk on an executor, and never loses a resource or an exception on the way. */
public final class Parallel {
  private Parallel() {}

  /**
   * {@code task} applied to every item, in item order. When any task fails, every result that was
   * made is closed (when it is {@link AutoCloseable}) and the first failure is rethrown as it was.
   */
  public static <T, R> List<R> map(List<T> items, Function<T, R> task, Executor executor) {
    if (items.size() <= 1) {
      List<R> out = new ArrayList<>();
      for (T item : items) {
        out.add(task.apply(item));
      }
      return out;
    }
    List<CompletableFuture<R>> futures = new ArrayList<>(items.size());
    Throwable failure = null;
    for (T item : items) {
      try {
        futures.add(CompletableFuture.supplyAsync(() -> task.apply(item), executor));
      } catch (RuntimeException e) {
        // The executor refused (shut down, saturated): wait for what was submitted, then clean up.
        failure = e;
        break;
      }
    }
    List<R> out = new ArrayList<>(items.size());
    for (CompletableFuture<R> f : futures) {
      try {
        out.add(f.join());
      } catch (CompletionException e) {
        failure = failure == null ? e.getCause() : failure;
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      for (R r : out) {
        closeQuietly(r);
      }
      if (failure instanceof RuntimeException re) {
        throw re;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(failure);
    }
    return out;
  }

  /** {@code task} run for every item, as {@link #map} does. */
  public static <T> void forEach(List<T> items, java.util.function.Consumer<T> task, Executor executor) {
    map(items, item -> {
      task.accept(item);
      return null;
    }, executor);
  }

  private static void closeQuietly(Object o) {
    if (o instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception ignored) {
        // already failing; the first failure is what the caller needs
      }
    }
  }
}
