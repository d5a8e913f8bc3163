package dev.zarrow.bench;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.WritableStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
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

  /**
   * Creates the 1-D float32 array {@code a} of {@code elements} temperatures to 0.01 (a slow wave plus
   * noise, the kind of float data zstd gets ~0.4-0.6 on) in chunks of {@code chunk}, compressed with
   * zstd level 3, writing it chunk by chunk; the same data for every seed-42 run.
   */
  public static ZarrArray temperatures(WritableStore store, int elements, int chunk, BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, elements).chunks(chunk)
        .compressors(List.of(ArraySpec.zstd(3))));
    Random random = new Random(42);
    try (Float4Vector values = new Float4Vector("x", allocator)) {
      values.allocateNew(chunk);
      for (int c = 0; c < elements / chunk; c++) {
        for (int i = 0; i < chunk; i++) {
          long at = (long) c * chunk + i;
          double t = 15 + 10 * Math.sin(at * 1e-6) + 3 * Math.sin(at * 1e-3) + random.nextGaussian() * 0.5;
          values.set(i, Math.round(t * 100) / 100f);
        }
        values.setValueCount(chunk);
        array.writeChunk(new long[] {c}, values);
      }
    }
    return array;
  }

  /** A pool of {@code threads} daemon threads. */
  public static ExecutorService pool(int threads) {
    return pool(threads, new java.util.concurrent.CopyOnWriteArrayList<>());
  }

  /** A pool of {@code threads} daemon threads, each added to {@code created} when it starts. */
  public static ExecutorService pool(int threads, List<Thread> created) {
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "bench-" + threads);
      t.setDaemon(true);
      created.add(t);
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
    private final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();

    public ChunkThreads(int threads) {
      pool = threads > 1 ? pool(threads, this.threads) : null;
    }

    /** The CPU time (ns) each pool thread has used so far, in the order they started; none for 1 thread. */
    public long[] cpuTimes() {
      var mx = java.lang.management.ManagementFactory.getThreadMXBean();
      return threads.stream().mapToLong(t -> Math.max(0, mx.getThreadCpuTime(t.getId()))).toArray();
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
