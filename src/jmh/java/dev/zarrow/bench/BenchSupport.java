package dev.zarrow.bench;

import dev.zarrow.ZarrOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the benchmarks in this folder share: a temporary directory, a throughput counter in MB/s, and
 * executors of a given number of threads. Every benchmark reports {@code megabytes} (decoded MB per
 * second) next to JMH's own ops/s, and measures its baseline in the same run.
 */
public final class BenchSupport {
  private BenchSupport() {}

  /** JVM options every fork needs (Arrow on JDK 17) plus room for large arrays. */
  public static final String[] JVM_ARGS = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED",
    "-Xms2g", "-Xmx2g", "-XX:MaxDirectMemorySize=8g"
  };

  /** Decoded megabytes (10^6 bytes) per operation, reported by JMH per second: MB/s. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Throughput {
    public double megabytes;

    @Setup(Level.Iteration)
    public void reset() {
      megabytes = 0;
    }

    public void add(long bytes) {
      megabytes += bytes / 1e6;
    }
  }

  public static Path tempDir(String name) {
    try {
      return Files.createTempDirectory("zarrow-bench-" + name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A pool of {@code threads} daemon threads. */
  public static ExecutorService pool(int threads) {
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "bench-" + threads);
      t.setDaemon(true);
      return t;
    };
    return Executors.newFixedThreadPool(threads, factory);
  }

  /**
   * The chunk executor of a zarrow benchmark: the calling thread alone for 1 thread (a direct
   * executor), else a pool of that many threads, shut down by {@link #close}.
   */
  public static final class ChunkThreads implements AutoCloseable {
    private final ExecutorService pool;

    public ChunkThreads(int threads) {
      pool = threads > 1 ? pool(threads) : null;
    }

    /** Default options with this executor. */
    public ZarrOptions options() {
      return ZarrOptions.defaults().withExecutor(pool != null ? pool : Runnable::run);
    }

    @Override
    public void close() {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }
}
