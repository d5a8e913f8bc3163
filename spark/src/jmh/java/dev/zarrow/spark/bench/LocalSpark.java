package dev.zarrow.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.apache.spark.sql.SparkSession;

/** What the Spark benchmarks share: a local session on two threads, on loopback, quiet; and their scratch directory. */
final class LocalSpark {
  private LocalSpark() {}

  /** A local[2] session (UI off, loopback, UTC), logging errors only. */
  static SparkSession start() {
    SparkSession spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC").getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    return spark;
  }

  /** Stops {@code spark} and deletes {@code dir} with all it holds. */
  static void stop(SparkSession spark, Path dir) throws IOException {
    spark.stop();
    try (var files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
