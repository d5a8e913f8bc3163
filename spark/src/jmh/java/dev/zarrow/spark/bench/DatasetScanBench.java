package dev.zarrow.spark.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code SELECT latitude, avg(t2m) FROM ds GROUP BY latitude} over a reanalysis-like dataset (hourly
 * time over {@code days} days, latitude 90 to -90 by 1, longitude by 2 degrees: 23.5M rows for 30
 * days), as xarray lays it out (Zarr v3, dimension names, time in "hours since", t2m float32 in chunks
 * of a day of the whole globe, blosc lz4 with shuffle), read through the zarr source as a dataset,
 * against the same tidy table written as Parquet by Spark (what these users do today: convert first).
 * Also one day of them ({@code time} in a day: the zarr scan prunes to one chunk, Parquet skips row
 * groups by their statistics). {@link #main} runs all four outside JMH, best of N, and prints the ratios.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 10)
@Measurement(iterations = 5, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:+IgnoreUnrecognizedVMOptions", "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
    "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
    "-Djdk.reflect.useDirectMethodHandle=false", "-Dio.netty.tryReflectionSetAccessible=true"})
public class DatasetScanBench {
  static final int LATITUDES = 181;
  static final int LONGITUDES = 180;
  static final String QUERY = "SELECT latitude, avg(t2m) FROM %s %s GROUP BY latitude";
  static final String ONE_DAY = "WHERE time >= timestamp_ntz'2000-01-15' AND time < timestamp_ntz'2000-01-16'";

  @Param("30")
  public int days;

  private SparkSession spark;
  private Path dir;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    spark = LocalSpark.start();
    dir = Files.createTempDirectory("dataset-scan-bench");
    write(dir.resolve("zarr"), days * 24);
    spark.read().format("zarr").load(dir.resolve("zarr").toString()).select("time", "latitude", "longitude", "t2m")
        .write().parquet(dir.resolve("parquet").toString());
    spark.read().format("zarr").load(dir.resolve("zarr").toString()).createOrReplaceTempView("ds");
    spark.read().parquet(dir.resolve("parquet").toString()).createOrReplaceTempView("pq");
  }

  /** The dataset as xarray writes one: index coordinates, dimension names, CF time units. */
  static void write(Path path, int times) throws IOException {
    Files.createDirectories(path);
    try (FileSystemStore store = FileSystemStore.open(path); BufferAllocator allocator = new RootAllocator()) {
      ZarrGroup group = Zarr.createGroup(store, "");
      ZarrArray time = group.createArray("time", ArraySpec.of(FixedType.INT64, times).chunks(times).dimensionNames(List.of("time"))
          .attributes(JsonNodeFactory.instance.objectNode().put("units", "hours since 2000-01-01").put("calendar", "proleptic_gregorian")));
      try (BigIntVector v = new BigIntVector("time", allocator)) {
        v.allocateNew(times);
        for (int i = 0; i < times; i++) {
          v.set(i, i);
        }
        v.setValueCount(times);
        time.write(0, v);
      }
      ZarrArray lat = group.createArray("latitude", ArraySpec.of(FixedType.FLOAT64, LATITUDES).chunks(LATITUDES)
          .dimensionNames(List.of("latitude")).attributes(JsonNodeFactory.instance.objectNode().put("units", "degrees_north")));
      try (Float8Vector v = new Float8Vector("latitude", allocator)) {
        v.allocateNew(LATITUDES);
        for (int i = 0; i < LATITUDES; i++) {
          v.set(i, 90.0 - i);
        }
        v.setValueCount(LATITUDES);
        lat.write(0, v);
      }
      ZarrArray lon = group.createArray("longitude", ArraySpec.of(FixedType.FLOAT64, LONGITUDES).chunks(LONGITUDES)
          .dimensionNames(List.of("longitude")).attributes(JsonNodeFactory.instance.objectNode().put("units", "degrees_east")));
      try (Float8Vector v = new Float8Vector("longitude", allocator)) {
        v.allocateNew(LONGITUDES);
        for (int i = 0; i < LONGITUDES; i++) {
          v.set(i, 2.0 * i);
        }
        v.setValueCount(LONGITUDES);
        lon.write(0, v);
      }
      ZarrArray t2m = group.createArray("t2m", ArraySpec.of(FixedType.FLOAT32, times, LATITUDES, LONGITUDES).chunks(24, LATITUDES, LONGITUDES)
          .compressors(List.of(ArraySpec.blosc("lz4", 5, "shuffle"))).dimensionNames(List.of("time", "latitude", "longitude"))
          .attributes(JsonNodeFactory.instance.objectNode().put("units", "K")));
      SplittableRandom random = new SplittableRandom(26);
      int cells = 24 * LATITUDES * LONGITUDES;
      for (int t = 0; t < times; t += 24) {
        try (Float4Vector v = new Float4Vector("t2m", allocator)) {
          v.allocateNew(cells);
          for (int i = 0; i < cells; i++) {
            int la = i / LONGITUDES % LATITUDES;
            // a smooth field plus noise, as temperatures are (compresses like real data, not like zeros)
            v.set(i, (float) (300 - Math.abs(90 - la) * 0.6 + Math.round(random.nextDouble() * 400) / 100.0));
          }
          v.setValueCount(cells);
          t2m.write(new Box(new long[] {t, 0, 0}, new long[] {24, LATITUDES, LONGITUDES}), v);
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    LocalSpark.stop(spark, dir);
  }

  private List<Row> query(String table, String where) {
    return spark.sql(String.format(QUERY, table, where)).collectAsList();
  }

  @Benchmark
  public List<Row> zarrFull() {
    return query("ds", "");
  }

  @Benchmark
  public List<Row> parquetFull() {
    return query("pq", "");
  }

  @Benchmark
  public List<Row> zarrOneDay() {
    return query("ds", ONE_DAY);
  }

  @Benchmark
  public List<Row> parquetOneDay() {
    return query("pq", ONE_DAY);
  }

  /** The same averages by latitude from both (sums in other orders: equal to 1e-9). */
  static void assertSame(List<Row> a, List<Row> b) {
    var x = a.stream().sorted(Comparator.comparingDouble(r -> r.getDouble(0))).toList();
    var y = b.stream().sorted(Comparator.comparingDouble(r -> r.getDouble(0))).toList();
    if (x.size() != y.size()) {
      throw new AssertionError("the queries disagree: " + x.size() + " vs " + y.size() + " rows");
    }
    for (int i = 0; i < x.size(); i++) {
      if (x.get(i).getDouble(0) != y.get(i).getDouble(0) || Math.abs(x.get(i).getDouble(1) - y.get(i).getDouble(1)) > 1e-9 * Math.abs(y.get(i).getDouble(1))) {
        throw new AssertionError("the queries disagree: " + x.get(i) + " vs " + y.get(i));
      }
    }
  }

  /** Executor time of the tasks that ended since {@link #reset}, summed: where a query's time goes. */
  static final class TaskTotals extends SparkListener {
    private final AtomicLongArray sums = new AtomicLongArray(6);

    void reset() {
      for (int i = 0; i < sums.length(); i++) {
        sums.set(i, 0);
      }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      TaskMetrics m = end.taskMetrics();
      sums.incrementAndGet(0);
      sums.addAndGet(1, m.executorRunTime());
      sums.addAndGet(2, m.executorCpuTime() / 1_000_000);
      sums.addAndGet(3, m.executorDeserializeTime());
      sums.addAndGet(4, m.shuffleWriteMetrics().writeTime() / 1_000_000);
      sums.addAndGet(5, m.jvmGCTime());
    }

    @Override
    public String toString() {
      return String.format("%d tasks, run %d ms, cpu %d ms, deserialize %d ms, shuffle write %d ms, gc %d ms (sums)",
          sums.get(0), sums.get(1), sums.get(2), sums.get(3), sums.get(4), sums.get(5));
    }
  }

  /** All four, alternating, best of {@code args[0]} (default 5) wall times each; prints the ratios. */
  public static void main(String[] args) throws IOException, TimeoutException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    DatasetScanBench bench = new DatasetScanBench();
    bench.days = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    bench.setUp();
    try {
      assertSame(bench.zarrFull(), bench.parquetFull());
      assertSame(bench.zarrOneDay(), bench.parquetOneDay());
      System.out.println(bench.spark.sql(String.format(QUERY, "ds", ONE_DAY)).queryExecution().executedPlan());
      System.out.printf("partitions of the full scan: zarr %d, parquet %d%n", bench.spark.table("ds").rdd().getNumPartitions(),
          bench.spark.table("pq").rdd().getNumPartitions());
      long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        bench.zarrFull();
        long t1 = System.nanoTime();
        bench.parquetFull();
        long t2 = System.nanoTime();
        bench.zarrOneDay();
        long t3 = System.nanoTime();
        bench.parquetOneDay();
        long t4 = System.nanoTime();
        best[0] = Math.min(best[0], t1 - t0);
        best[1] = Math.min(best[1], t2 - t1);
        best[2] = Math.min(best[2], t3 - t2);
        best[3] = Math.min(best[3], t4 - t3);
      }
      System.out.printf("rows %d: zarr full %.0f ms, parquet full %.0f ms, zarr one day %.0f ms, parquet one day %.0f ms%n",
          (long) bench.days * 24 * LATITUDES * LONGITUDES, best[0] / 1e6, best[1] / 1e6, best[2] / 1e6, best[3] / 1e6);
      System.out.printf("zarr/parquet full %.2f; zarr full/one day %.1fx%n", (double) best[0] / best[1], (double) best[0] / best[2]);
      TaskTotals totals = new TaskTotals();
      bench.spark.sparkContext().addSparkListener(totals);
      for (String table : List.of("ds", "pq")) {
        totals.reset();
        bench.query(table, "");
        bench.spark.sparkContext().listenerBus().waitUntilEmpty();
        System.out.println("tasks of the full scan over " + table + ": " + totals);
      }
    } finally {
      bench.tearDown();
    }
  }
}
