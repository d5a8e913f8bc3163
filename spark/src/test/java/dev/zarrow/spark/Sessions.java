package dev.zarrow.spark;

import org.apache.spark.sql.SparkSession;

/** The Spark session of a test class: local[2], on the loopback address, no UI, UTC. */
final class Sessions {
  private Sessions() {}

  static SparkSession local() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("zarrow-spark-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.hadoop.fs." + TestFileSystem.SCHEME + ".impl", TestFileSystem.class.getName())
        .getOrCreate();
  }
}
