package dev.zarrow;

import dev.zarrow.codec.CodecOptions;
import dev.zarrow.plugins.BuiltInPlugins;
import dev.zarrow.spi.Registry;
import java.util.ServiceLoader;
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

  /**
   * The defaults with zarrow's own codecs and data types only (the plugins of {@code dev.zarrow.codec.*},
   * those core's {@code META-INF/services} names), made without a class-path lookup: for a program that
   * knows no other plugin can be there, such as the command line run from its own jar, where
   * {@link ServiceLoader} would open and index the whole shaded jar to find the same plugins.
   */
  public static ZarrOptions builtIn() {
    return new ZarrOptions(BuiltInPlugins.REGISTRY, CodecOptions.DEFAULT, Pool.INSTANCE);
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
