package dev.zarrow;

import dev.zarrow.spi.Registry;
import dev.zarrow.codec.CodecOptions;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * How arrays are opened and worked on.
 *
 * @param registry the codecs and data types known
 * @param codecs options of decoding (checksums, UTF-8 validation, size caps)
 * @param executor where chunks are decoded and encoded in parallel
 */
public record ZarrOptions(Registry registry, CodecOptions codecs, Executor executor) {

  /** The defaults: every plugin on the class path, checks on, a pool with one thread per core. */
  public static ZarrOptions defaults() {
    return new ZarrOptions(Registry.defaults(), CodecOptions.DEFAULT, Pool.INSTANCE);
  }

  public ZarrOptions withRegistry(Registry newRegistry) {
    return new ZarrOptions(newRegistry, codecs, executor);
  }

  public ZarrOptions withCodecOptions(CodecOptions newCodecs) {
    return new ZarrOptions(registry, newCodecs, executor);
  }

  /** Chunks run on {@code newExecutor}; a direct executor ({@code Runnable::run}) makes work sequential. */
  public ZarrOptions withExecutor(Executor newExecutor) {
    return new ZarrOptions(registry, codecs, newExecutor);
  }

  /** The default pool: daemon threads, one per core (the common pool has one fewer). */
  private static final class Pool {
    // Numbered here: the worker's pool index is not assigned yet when the factory names it.
    private static final java.util.concurrent.atomic.AtomicInteger THREADS = new java.util.concurrent.atomic.AtomicInteger();
    static final ForkJoinPool INSTANCE =
        new ForkJoinPool(Runtime.getRuntime().availableProcessors(), pool -> {
          var thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
          thread.setName("zarrow-" + THREADS.getAndIncrement());
          thread.setDaemon(true);
          return thread;
        }, null, false);
  }
}
