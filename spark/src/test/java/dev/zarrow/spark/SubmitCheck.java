package dev.zarrow.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The application {@link SparkSubmitTest} submits: writes and reads a table with the {@code zarr}
 * data source and prints {@code ok ROWS JACKSON}, the Jackson version it ran on.
 */
public final class SubmitCheck {
  private SubmitCheck() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("zarrow-submit-check").getOrCreate();
    try {
      Dataset<Row> df = spark.range(0, 1000, 1, 3).selectExpr("id", "cast(id as string) as s", "named_struct('x', id) as st");
      df.write().format("zarr").option("chunkRows", 100).save(args[0]);
      Dataset<Row> back = spark.read().format("zarr").load(args[0]);
      if (back.exceptAll(df).count() != 0 || df.exceptAll(back).count() != 0) {
        throw new AssertionError("the table read back differs");
      }
      System.out.println("ok " + back.count() + " " + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION);
    } finally {
      spark.stop();
    }
  }
}
