package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.testing.PythonPeer;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gridded datasets written by xarray (xarray_datasets.py, xarray_month.py) read as DataFrames in Spark
 * local mode (one session for the class): the rows of xarray's {@code to_dataframe().reset_index()},
 * and pushed dimension filters that read only the chunks they need, counted through a recording store.
 */
class ZarrDatasetSparkTest {
  static SparkSession spark;
  @TempDir static Path dir;
  static JsonNode tables;
  static JsonNode month;
  /** xarray's table of the month, with each row's grid position (ti, li, oi) from its coordinate values. */
  static Dataset<Row> xarrayMonth;
  static String monthLocation;

  @BeforeAll
  static void start() {
    PythonPeer.assumeXarray();
    tables = PythonPeer.run(Duration.ofMinutes(3), "xarray_datasets.py", "write", dir.toString()).get("datasets");
    month = PythonPeer.run(Duration.ofMinutes(3), "xarray_month.py", "write", dir.resolve("month.zarr").toString());
    spark = Sessions.local();
    monthLocation = RecordingStores.location(dir.resolve("month.zarr"));
    StructType schema = read(monthLocation).schema();
    xarrayMonth = frame(month, schema).selectExpr("*", "cast((unix_micros(cast(time as timestamp)) - 946684800000000) / 21600000000 as int) as ti",
        "cast((90 - latitude) / 10 as int) as li", "cast(longitude / 10 as int) as oi");
    xarrayMonth.cache();
    xarrayMonth.createOrReplaceTempView("xr");
    read(monthLocation).createOrReplaceTempView("ds");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  static Dataset<Row> read(String location) {
    return spark.read().format("zarr").load(location);
  }

  /**
   * xarray's TABLE as a DataFrame of {@code schema} (columns by name). A float NaN, pandas' missing value,
   * is null, as the dataset reader masks it in Arrow (and as SQL's aggregates and comparisons then skip
   * it as pandas does).
   */
  static Dataset<Row> frame(JsonNode table, StructType schema) {
    JsonNode values = table.get("values");
    int n = values.get(schema.fields()[0].name()).size();
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      Object[] row = new Object[schema.fields().length];
      for (int c = 0; c < row.length; c++) {
        StructField f = schema.fields()[c];
        JsonNode column = values.get(f.name());
        assertTrue(column != null, "xarray's table has column " + f.name() + ": " + table.get("columns"));
        row[c] = value(column.get(r), f.dataType());
      }
      rows.add(RowFactory.create(row));
    }
    return spark.createDataFrame(rows, schema);
  }

  private static Object value(JsonNode v, DataType type) {
    if (v == null || v.isNull() || v.isTextual() && v.textValue().equals("NaN") && type != DataTypes.StringType) {
      return null; // pandas' missing value, also where xarray made a masked int32 float64 and zarrow keeps int32
    }
    if (type == DataTypes.DoubleType) {
      return v.doubleValue();
    }
    if (type == DataTypes.FloatType) {
      return (float) v.doubleValue();
    }
    if (type == DataTypes.LongType) {
      return v.longValue();
    }
    if (type == DataTypes.IntegerType) {
      return v.intValue();
    }
    if (type == DataTypes.ShortType) {
      return (short) v.intValue();
    }
    if (type == DataTypes.ByteType) {
      return (byte) v.intValue();
    }
    if (type == DataTypes.BooleanType) {
      return v.booleanValue();
    }
    if (type == DataTypes.StringType) {
      return v.textValue();
    }
    Instant instant = Instant.ofEpochSecond(Math.floorDiv(v.longValue(), 1_000_000_000L), Math.floorMod(v.longValue(), 1_000_000_000L));
    if (type == DataTypes.TimestampNTZType) {
      return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
    if (type == DataTypes.TimestampType) {
      return Timestamp.from(instant);
    }
    throw new AssertionError("no JSON form for " + type);
  }

  /**
   * Same rows, a missing float as pandas spells it (NaN) and as Arrow and Spark do (null) taken as one:
   * the dataset reader masks CF fill values to nulls.
   */
  static void assertSameRows(Dataset<Row> expected, Dataset<Row> actual, String what) {
    expected = nullForNaN(expected);
    actual = nullForNaN(actual);
    assertEquals(expected.count(), actual.count(), what + ": rows");
    assertEquals(List.of(), expected.exceptAll(actual).limit(5).collectAsList(), what + ": rows of xarray's table not read");
    assertEquals(List.of(), actual.exceptAll(expected).limit(5).collectAsList(), what + ": rows read that xarray's table lacks");
  }

  private static Dataset<Row> nullForNaN(Dataset<Row> df) {
    return df.selectExpr(Arrays.stream(df.schema().fields()).map(f -> f.dataType() == DataTypes.DoubleType || f.dataType() == DataTypes.FloatType
        ? "CASE WHEN isnan(`" + f.name() + "`) THEN NULL ELSE `" + f.name() + "` END AS `" + f.name() + "`" : "`" + f.name() + "`")
        .toArray(String[]::new));
  }

  @Test
  void isNotNullOnADimensionIsPushed() {
    var types = java.util.Map.<String, org.apache.arrow.vector.types.pojo.ArrowType>of("time",
        new org.apache.arrow.vector.types.pojo.ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, null));
    assertTrue(DimensionFilters.pushable(new org.apache.spark.sql.sources.IsNotNull("time"), types));
    assertFalse(DimensionFilters.pushable(new org.apache.spark.sql.sources.IsNotNull("t2m"), types));
  }

  @ParameterizedTest
  @ValueSource(strings = {"reanalysis", "stations", "curvilinear", "odd"})
  void theDataFrameIsXarraysTable(String name) {
    Dataset<Row> df = read(dir.resolve(name + ".zarr").toString());
    JsonNode table = tables.get(name);
    List<String> xarrayColumns = new ArrayList<>();
    table.get("columns").forEach(c -> xarrayColumns.add(c.textValue()));
    assertEquals(new TreeSet<>(xarrayColumns), new TreeSet<>(Arrays.asList(df.columns())), "the columns of xarray's table");
    assertSameRows(frame(table, df.schema()), df, name);
  }

  /** Chunks of 900 rows handed to Spark as batches of 7 (views starting off a byte of the validity bitmaps): the same table. */
  @Test
  void batchesSmallerThanAChunkReadTheSameTable() {
    Dataset<Row> df = spark.read().format("zarr").option("batchRows", 7).load(dir.resolve("reanalysis.zarr").toString());
    assertSameRows(frame(tables.get("reanalysis"), df.schema()), df, "reanalysis in batches of 7 rows");
  }

  @Test
  void typesFollowTheArrowMapping() {
    StructType schema = read(dir.resolve("reanalysis.zarr").toString()).schema();
    assertEquals(DataTypes.TimestampNTZType, schema.apply("time").dataType(), "CF times without a zone");
    assertEquals(DataTypes.DoubleType, schema.apply("latitude").dataType());
    assertEquals(DataTypes.FloatType, schema.apply("sp").dataType(), "packed int16 decoded as xarray does");
    StructType raw = spark.read().format("zarr").option("decode", "false").load(dir.resolve("reanalysis.zarr").toString()).schema();
    assertEquals(DataTypes.LongType, raw.apply("time").dataType(), "hours since, undecoded");
    assertEquals(DataTypes.ShortType, raw.apply("sp").dataType());
    Dataset<Row> sp = spark.read().format("zarr").option("variables", "sp").load(dir.resolve("reanalysis.zarr").toString());
    assertEquals(List.of("time", "latitude", "longitude", "sp"), Arrays.asList(sp.columns()));
  }

  @Test
  void optionsThatDoNotFit() {
    String location = dir.resolve("reanalysis.zarr").toString();
    Exception noSuch = assertThrows(Exception.class,
        () -> spark.read().format("zarr").option("variables", "t2m,nope").load(location).schema());
    assertTrue(noSuch.getMessage().contains("'nope'"), noSuch.getMessage());
    Exception bad = assertThrows(Exception.class, () -> spark.read().format("zarr").option("decode", "maybe").load(location));
    assertTrue(bad.getMessage().contains("decode") && bad.getMessage().contains("maybe"), bad.getMessage());
    Exception refused = assertThrows(Exception.class, () -> spark.read().format("zarr").option("dataset", "false").load(location).count());
    assertFalse(refused.getMessage().contains("OutOfMemory"), refused.getMessage());
    spark.range(10).write().format("zarr").save(dir.resolve("table").toString());
    Exception notADataset = assertThrows(Exception.class,
        () -> spark.read().format("zarr").option("dataset", "true").load(dir.resolve("table").toString()));
    assertTrue(notADataset.getMessage().contains("no dataset"), notADataset.getMessage());
    assertEquals(10, read(dir.resolve("table").toString()).count(), "a table is still a table");
  }

  @Test
  void everyLocationOfTheSourceReadsADataset() {
    Path month = dir.resolve("month.zarr");
    long rows = 120L * 19 * 36;
    for (String location : List.of(month.toString(), month.toUri().toString(), TestFileSystem.SCHEME + "://" + month.toAbsolutePath(),
        monthLocation)) {
      assertEquals(rows, read(location).count(), location);
      assertEquals(96, read(location).rdd().getNumPartitions(), location + ": a partition per chunk, 12 x 4 x 2");
    }
  }

  /** The keys of data variable chunks read (the metadata documents aside). */
  static Set<String> chunksRead(String variable) {
    return RecordingStores.keysRead().stream().filter(k -> k.startsWith(variable + "/") && !k.substring(variable.length() + 1).startsWith("."))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * Runs {@code SELECT columns FROM ds WHERE predicate} and the same over xarray's table: the same rows,
   * t2m read in exactly the chunks that hold a row matching the predicate (from xarray's coordinate
   * values), and explain() saying so.
   */
  static void assertPrunes(String predicate, boolean pushed) {
    String columns = "time, latitude, longitude, t2m, orography";
    Dataset<Row> expected = spark.sql("SELECT " + columns + " FROM xr WHERE " + predicate);
    Set<String> needed = new TreeSet<>(spark.sql("SELECT DISTINCT concat('t2m/', floor(ti / 10), '.', floor(li / 5), '.', floor(oi / 18)) FROM xr"
        + " WHERE " + predicate).as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
    Dataset<Row> actual = spark.sql("SELECT " + columns + " FROM ds WHERE " + predicate);
    String plan = actual.queryExecution().executedPlan().toString();
    RecordingStores.reset();
    List<Row> rows = actual.collectAsList();
    Set<String> read = chunksRead("t2m");
    assertEquals(needed, read, predicate + ": the chunks of t2m read");
    assertTrue(plan.contains("reads " + needed.size() + " of 96 chunks"), predicate + ": " + plan);
    assertEquals(pushed, !plan.contains("PushedFilters: []"), predicate + ": " + plan);
    assertEquals(expected.count(), rows.size(), predicate);
    assertSameRows(expected, spark.createDataFrame(rows, actual.schema()), predicate);
  }

  @Test
  void oneDayOfOneLatitudeBandReadsTheChunksOverlappingIt() {
    // day 3 is time steps 8..11: chunks 0 (0..9) and 1 (10..19); 40..60 N is latitude positions 3..5: chunks 0 and 1
    assertPrunes("time >= timestamp_ntz'2000-01-03 00:00' AND time < timestamp_ntz'2000-01-04 00:00' AND latitude BETWEEN 40 AND 60", true);
    // day 2 is time steps 4..7: chunk 0 only
    assertPrunes("time >= timestamp_ntz'2000-01-02' AND time < timestamp_ntz'2000-01-03' AND latitude >= 40 AND latitude <= 60", true);
  }

  @Test
  void eachFilterFormPrunes() {
    assertPrunes("time = timestamp_ntz'2000-01-10 18:00'", true);
    assertPrunes("time < timestamp_ntz'2000-01-02 06:00'", true);
    assertPrunes("time <= timestamp_ntz'2000-01-02 06:00'", true);
    assertPrunes("time > timestamp_ntz'2000-01-29 06:00'", true);
    assertPrunes("time >= timestamp_ntz'2000-01-29 06:00'", true);
    assertPrunes("latitude IN (-90, 0, 30)", true);
    assertPrunes("longitude < 100 AND latitude > 75", true);
    assertPrunes("longitude = 5", true); // between grid points: nothing
    assertPrunes("time IS NOT NULL", false); // time has no nulls: Spark drops the filter before the scan sees it
    assertPrunes("t2m > 290", false); // a data variable: Spark's alone
    assertPrunes("t2m > 290 AND latitude = 0", true);
  }

  @Test
  void countReadsNoDataVariable() {
    RecordingStores.reset();
    assertEquals(120L * 19 * 36, spark.sql("SELECT count(*) FROM ds").first().getLong(0));
    assertEquals(Set.of(), chunksRead("t2m"));
    assertEquals(Set.of(), chunksRead("tp"));
    assertEquals(Set.of(), chunksRead("orography"));
    RecordingStores.reset();
    String day = "time >= timestamp_ntz'2000-01-03' AND time < timestamp_ntz'2000-01-04'";
    assertEquals(spark.sql("SELECT count(*) FROM xr WHERE " + day).first().getLong(0),
        spark.sql("SELECT count(*) FROM ds WHERE " + day).first().getLong(0));
    assertEquals(Set.of(), chunksRead("t2m"));
    assertEquals(Set.of(), chunksRead("tp"));
  }

  @Test
  void anUnselectedVariableIsNeverRead() {
    RecordingStores.reset();
    Row avg = spark.sql("SELECT avg(t2m), count(*) FROM ds WHERE latitude = 0").first();
    assertEquals(spark.sql("SELECT avg(t2m), count(*) FROM xr WHERE latitude = 0").first(), avg);
    assertEquals(Set.of(), chunksRead("tp"));
    assertEquals(Set.of(), chunksRead("orography"));
    assertEquals(12 * 2, chunksRead("t2m").size(), "latitude 0 is in one chunk along latitude");
    RecordingStores.reset();
    assertEquals(5, spark.read().format("zarr").option("variables", "tp").load(monthLocation).where("tp < 0.5").limit(5).count());
    assertEquals(Set.of(), chunksRead("t2m"));
  }

  @Test
  void aLimitReadsTheFirstChunks() {
    Dataset<Row> limited = read(monthLocation).select("time", "t2m").limit(10);
    String plan = limited.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("limit 10") && plan.contains("reads 1 of 96 chunks"), plan);
    RecordingStores.reset();
    assertEquals(10, limited.collectAsList().size());
    assertEquals(Set.of("t2m/0.0.0"), chunksRead("t2m"));
  }

  @Test
  void partitionsPreferTheHostsOfTheirChunks() throws Exception {
    Path located = dir.resolve("located/month.zarr");
    org.apache.commons.io.FileUtils.copyDirectory(dir.resolve("month.zarr").toFile(), located.toFile());
    Dataset<Row> df = read(TestFileSystem.SCHEME + "://" + located.toAbsolutePath()).select("t2m");
    var rdd = df.rdd();
    assertEquals(96, rdd.getNumPartitions());
    List<String> hosts = scala.jdk.javaapi.CollectionConverters.asJava(spark.sparkContext().getPreferredLocs(rdd, 7)).stream()
        .map(org.apache.spark.scheduler.TaskLocation::host).toList();
    assertEquals(List.of("node-0.3.1"), hosts, "partition 7 is chunk (0, 3, 1) of the grid (12 x 4 x 2), file t2m/0.3.1");
  }
}
