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
 * time over {@code days} days, {@code longitudes} longitudes over the globe and latitudes 90 to -90 by
 * the same step: by half a degree, 187M rows for 30 days, by default; 360, by 1 degree, 46.9M rows),
 * as xarray lays it out (Zarr v3, dimension names, time in "hours since", t2m float32 in chunks of a
 * day of the whole globe, blosc lz4 with shuffle), read through the zarr source as a dataset,
 * against the same tidy table written as Parquet by Spark (what these users do today: convert first);
 * and the same dataset sharded as a v3 dataset of this size is usually written ({@code shardDays} days
 * a shard of the same one-day inner chunks: a partition per shard). Also one day of them ({@code time}
 * in a day: the zarr scans prune to one chunk, or one inner chunk of one shard; Parquet skips row groups
 * by their statistics). {@link #main} runs all six outside JMH, best of N, and prints the ratios.
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
  static final String QUERY = "SELECT latitude, avg(t2m) FROM %s %s GROUP BY latitude";
  static final String ONE_DAY = "WHERE time >= timestamp_ntz'2000-01-15' AND time < timestamp_ntz'2000-01-16'";

  @Param("30")
  public int days;

  /** Days per shard of the sharded dataset: 5 divides the 30 days into 6 shards, 3 even waves of tasks on local[2]. */
  @Param("5")
  public int shardDays;

  /**
   * Longitudes of the globe, which set the grid's step and so its latitudes ({@link #latitudes}): 720 is
   * the half-degree grid (361 x 720, a quarter of ERA5's 0.25-degree cells), 360 the 1-degree grid (181 x
   * 360), used before: there a day is 1.56M rows, and Spark's fixed cost per query (100-150 ms here) is
   * most of a one-day query's time.
   */
  @Param("720")
  public int longitudes;

  /** The latitudes from pole to pole of a grid of {@code longitudes} around the globe (the same step both ways). */
  static int latitudes(int longitudes) {
    return longitudes / 2 + 1;
  }

  private SparkSession spark;
  private Path dir;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    spark = LocalSpark.start();
    dir = Files.createTempDirectory("dataset-scan-bench");
    write(dir.resolve("zarr"), days * 24, 0, longitudes);
    write(dir.resolve("sharded"), days * 24, shardDays, longitudes);
    spark.read().format("zarr").load(dir.resolve("zarr").toString()).select("time", "latitude", "longitude", "t2m")
        .write().parquet(dir.resolve("parquet").toString());
    spark.read().format("zarr").load(dir.resolve("zarr").toString()).createOrReplaceTempView("ds");
    spark.read().format("zarr").load(dir.resolve("sharded").toString()).createOrReplaceTempView("dss");
    spark.read().parquet(dir.resolve("parquet").toString()).createOrReplaceTempView("pq");
  }

  /**
   * The dataset as xarray writes one: index coordinates, dimension names, CF time units; t2m in one-day
   * chunks, or with {@code shardDays > 0} in shards of that many days of one-day inner chunks (the same
   * values either way).
   */
  static void write(Path path, int times, int shardDays, int longitudes) throws IOException {
    Files.createDirectories(path);
    int latitudes = latitudes(longitudes);
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
      ZarrArray lat = group.createArray("latitude", ArraySpec.of(FixedType.FLOAT64, latitudes).chunks(latitudes)
          .dimensionNames(List.of("latitude")).attributes(JsonNodeFactory.instance.objectNode().put("units", "degrees_north")));
      try (Float8Vector v = new Float8Vector("latitude", allocator)) {
        v.allocateNew(latitudes);
        for (int i = 0; i < latitudes; i++) {
          v.set(i, 90.0 - 180.0 * i / (latitudes - 1));
        }
        v.setValueCount(latitudes);
        lat.write(0, v);
      }
      ZarrArray lon = group.createArray("longitude", ArraySpec.of(FixedType.FLOAT64, longitudes).chunks(longitudes)
          .dimensionNames(List.of("longitude")).attributes(JsonNodeFactory.instance.objectNode().put("units", "degrees_east")));
      try (Float8Vector v = new Float8Vector("longitude", allocator)) {
        v.allocateNew(longitudes);
        for (int i = 0; i < longitudes; i++) {
          v.set(i, 360.0 * i / longitudes);
        }
        v.setValueCount(longitudes);
        lon.write(0, v);
      }
      ArraySpec spec = ArraySpec.of(FixedType.FLOAT32, times, latitudes, longitudes).dimensionNames(List.of("time", "latitude", "longitude"))
          .attributes(JsonNodeFactory.instance.objectNode().put("units", "K"));
      int[] day = {24, latitudes, longitudes};
      spec = shardDays > 0 ? spec.chunks(24 * shardDays, latitudes, longitudes).codecs(List.of(ArraySpec.shardingIndexed(day,
          List.of(ArraySpec.bytes("little"), ArraySpec.blosc("lz4", 5, "shuffle"))))) : spec.chunks(day).compressors(List.of(ArraySpec.blosc("lz4", 5, "shuffle")));
      ZarrArray t2m = group.createArray("t2m", spec);
      SplittableRandom random = new SplittableRandom(26);
      int cells = 24 * latitudes * longitudes;
      for (int t = 0; t < times; t += 24) {
        try (Float4Vector v = new Float4Vector("t2m", allocator)) {
          v.allocateNew(cells);
          for (int i = 0; i < cells; i++) {
            double la = 180.0 * (i / longitudes % latitudes) / (latitudes - 1);
            // a smooth field plus noise, as temperatures are (compresses like real data, not like zeros)
            v.set(i, (float) (300 - Math.abs(90 - la) * 0.6 + Math.round(random.nextDouble() * 400) / 100.0));
          }
          v.setValueCount(cells);
          t2m.write(new Box(new long[] {t, 0, 0}, new long[] {24, latitudes, longitudes}), v);
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
  public List<Row> shardedFull() {
    return query("dss", "");
  }

  @Benchmark
  public List<Row> shardedOneDay() {
    return query("dss", ONE_DAY);
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

  /** All six, alternating, best of {@code args[0]} (default 5) wall times each; prints the ratios. */
  public static void main(String[] args) throws IOException, TimeoutException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    DatasetScanBench bench = new DatasetScanBench();
    bench.days = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    bench.shardDays = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    bench.longitudes = args.length > 3 ? Integer.parseInt(args[3]) : 720;
    bench.setUp();
    try {
      List<Row> parquetFull = bench.parquetFull();
      List<Row> parquetOneDay = bench.parquetOneDay();
      assertSame(bench.zarrFull(), parquetFull);
      assertSame(bench.zarrOneDay(), parquetOneDay);
      assertSame(bench.shardedFull(), parquetFull);
      assertSame(bench.shardedOneDay(), parquetOneDay);
      for (String table : List.of("ds", "dss")) {
        System.out.println(bench.spark.sql(String.format(QUERY, table, ONE_DAY)).queryExecution().executedPlan());
      }
      System.out.printf("partitions of the full scan: zarr %d, zarr sharded (%d days a shard) %d, parquet %d%n",
          bench.spark.table("ds").rdd().getNumPartitions(), bench.shardDays, bench.spark.table("dss").rdd().getNumPartitions(),
          bench.spark.table("pq").rdd().getNumPartitions());
      String[] names = {"zarr full", "parquet full", "zarr one day", "parquet one day", "sharded full", "sharded one day"};
      List<java.util.function.Supplier<List<Row>>> queries = List.of(bench::zarrFull, bench::parquetFull, bench::zarrOneDay,
          bench::parquetOneDay, bench::shardedFull, bench::shardedOneDay);
      long[] best = new long[queries.size()];
      java.util.Arrays.fill(best, Long.MAX_VALUE);
      for (int r = 0; r < rounds; r++) {
        for (int q = 0; q < queries.size(); q++) {
          long t0 = System.nanoTime();
          queries.get(q).get();
          best[q] = Math.min(best[q], System.nanoTime() - t0);
        }
      }
      StringBuilder line = new StringBuilder("rows " + (long) bench.days * 24 * latitudes(bench.longitudes) * bench.longitudes + ":");
      for (int q = 0; q < queries.size(); q++) {
        line.append(String.format(" %s %.0f ms%s", names[q], best[q] / 1e6, q + 1 < queries.size() ? "," : ""));
      }
      System.out.println(line);
      System.out.printf("unsharded: zarr/parquet full %.2f; zarr full/one day %.1fx%n", (double) best[0] / best[1], (double) best[0] / best[2]);
      System.out.printf("sharded:   zarr/parquet full %.2f; zarr full/one day %.1fx%n", (double) best[4] / best[1], (double) best[4] / best[5]);
      TaskTotals totals = new TaskTotals();
      bench.spark.sparkContext().addSparkListener(totals);
      for (String table : List.of("ds", "dss", "pq")) {
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
