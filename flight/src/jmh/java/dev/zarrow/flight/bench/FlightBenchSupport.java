package dev.zarrow.flight.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What this module's benchmarks share, as core's {@code BenchSupport} gives its own (core's benchmarks
 * compile apart from its jar, into {@code target/jmh-classes}, so other modules cannot use them): a
 * throughput counter in MB/s, temporary directories, thread pools.
 */
public final class FlightBenchSupport {
  private FlightBenchSupport() {}

  /** Megabytes (10^6 bytes) per operation, reported by JMH per second: MB/s. */
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

  static Path tempDir(String name) {
    try {
      return Files.createTempDirectory("zarrow-bench-" + name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The process's minor page faults so far (Linux: {@code /proc/self/stat}, field 10), -1 elsewhere: on
   * a VM where the first touch of a page is dear, fresh memory shows here.
   */
  static long minorFaults() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[7]); // field 10 counted from 1; fields[0] here is field 3
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** A pool of {@code threads} daemon threads. */
  static ExecutorService pool(int threads) {
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "bench-" + threads);
      t.setDaemon(true);
      return t;
    });
  }
}
