package dev.zarrow.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
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
 * A Spark scan (count and a sum over every column) of one DataFrame written by Spark twice: as a
 * zarr group table (the connector's defaults: 256K-row chunks, zstd level 3 and crc32c) and as
 * Parquet (Spark's defaults: snappy), what a Spark user would pick instead. The baseline is the
 * Parquet scan of the same run. {@link #main} runs both outside JMH, best of N wall times.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:+IgnoreUnrecognizedVMOptions", "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
    "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
    "-Djdk.reflect.useDirectMethodHandle=false", "-Dio.netty.tryReflectionSetAccessible=true"})
public class SparkScanBench {
  @Param("8000000")
  public long rows;

  private SparkSession spark;
  private Path dir;
  private String sums;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    spark = LocalSpark.start();
    dir = Files.createTempDirectory("spark-scan-bench");
    var df = spark.range(0, rows, 1, 8).selectExpr(
        "id as l", "cast(id % 1000003 as int) as i", "cast(id as double) * 0.37 as d", "cast(id % 977 as float) as f",
        "cast(id % 100 as short) as s", "id % 3 = 0 as b", "concat('name-', id % 50000) as str");
    df.write().format("zarr").save(dir.resolve("zarr").toString());
    df.write().parquet(dir.resolve("parquet").toString());
    sums = "count(*), " + Arrays.stream(df.schema().fieldNames())
        .map(c -> c.equals("b") ? "sum(cast(b as int))" : c.equals("str") ? "sum(length(str))" : "sum(" + c + ")")
        .collect(Collectors.joining(", "));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    LocalSpark.stop(spark, dir);
  }

  private Row scan(String format) {
    return spark.read().format(format).load(dir.resolve(format).toString()).selectExpr(sums.split(", (?![^(]*\\))")).first();
  }

  @Benchmark
  public Row zarr() {
    return scan("zarr");
  }

  @Benchmark
  public Row parquet() {
    return scan("parquet");
  }

  /** Both scans, alternating, best of {@code args[0]} (default 7) wall times each; prints their ratio. */
  public static void main(String[] args) throws IOException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    SparkScanBench bench = new SparkScanBench();
    bench.rows = args.length > 1 ? Long.parseLong(args[1]) : 8_000_000;
    bench.setUp();
    try {
      if (!bench.zarr().equals(bench.parquet())) {
        throw new AssertionError("the scans disagree: " + bench.zarr() + " vs " + bench.parquet());
      }
      long zarr = Long.MAX_VALUE;
      long parquet = Long.MAX_VALUE;
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        bench.zarr();
        long t1 = System.nanoTime();
        bench.parquet();
        long t2 = System.nanoTime();
        zarr = Math.min(zarr, t1 - t0);
        parquet = Math.min(parquet, t2 - t1);
      }
      System.out.printf("rows %d: zarr %.0f ms, parquet %.0f ms, zarr/parquet wall %.2f%n", bench.rows, zarr / 1e6, parquet / 1e6,
          (double) zarr / parquet);
    } finally {
      bench.tearDown();
    }
  }
}
