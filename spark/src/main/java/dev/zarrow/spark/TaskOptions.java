package dev.zarrow.spark;

import dev.zarrow.ZarrOptions;

/**
 * The {@link ZarrOptions} a task opens its arrays with: {@link ZarrOptions#defaults()}, found once per
 * context class loader rather than once per task. The defaults look the context loader's plugins up
 * with {@link java.util.ServiceLoader} on every call, and in a Spark executor that loader is the job's:
 * each task would scan every jar on its class path again. Only the last loader's options are kept, so
 * this pins at most one loader (the job's, which outlives its tasks).
 */
final class TaskOptions {
  private record Cached(ClassLoader loader, ZarrOptions options) {}

  private static volatile Cached last;

  private TaskOptions() {}

  static ZarrOptions current() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Cached cached = last;
    if (cached == null || cached.loader() != loader) {
      cached = new Cached(loader, ZarrOptions.defaults());
      last = cached;
    }
    return cached.options();
  }
}
