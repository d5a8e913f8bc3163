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
  static String shardedLocation;

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
    shardedCopy(dir.resolve("month.zarr"), dir.resolve("sharded.zarr"));
    shardedLocation = RecordingStores.location(dir.resolve("sharded.zarr"));
    read(shardedLocation).createOrReplaceTempView("sharded");
  }

  /** Inner chunks of the sharded month: one day (4 steps) of a chunk of xarray's (5 latitudes, 18 longitudes). */
  static final int[] INNER = {4, 5, 18};
  /** Shards of t2m (5 days) and of tp (6 days: another shard grid than t2m's); orography unsharded. */
  static final java.util.Map<String, int[]> SHARDS = java.util.Map.of("t2m", new int[] {20, 5, 18}, "tp", new int[] {24, 5, 18});

  /**
   * The month as a Zarr v3 dataset (dimension_names, attributes as xarray keeps them) with t2m and tp in
   * shards of {@link #SHARDS} of one-day inner chunks ({@link #INNER}, zstd), the same values.
   */
  static void shardedCopy(Path from, Path to) {
    try (var in = dev.zarrow.store.FileSystemStore.open(from); var out = dev.zarrow.store.FileSystemStore.open(to);
        var allocator = new org.apache.arrow.memory.RootAllocator()) {
      dev.zarrow.ZarrGroup source = dev.zarrow.Zarr.openGroup(in, "");
      dev.zarrow.ZarrGroup copy = dev.zarrow.Zarr.createGroup(out, "");
      for (var child : source.children().all().entrySet()) {
        dev.zarrow.ZarrArray array = (dev.zarrow.ZarrArray) child.getValue();
        var attributes = array.attributes().deepCopy();
        List<String> dims = new ArrayList<>();
        attributes.remove(dev.zarrow.metadata.V2Metadata.DIMENSIONS_ATTRIBUTE).forEach(d -> dims.add(d.textValue()));
        var spec = dev.zarrow.ArraySpec.of(array.dataType(), array.shape()).fillValue(array.fillValue()).dimensionNames(dims)
            .attributes(attributes);
        int[] shards = SHARDS.get(child.getKey());
        spec = shards == null ? spec.chunks(array.grid().chunkShape()) : spec.chunks(shards).codecs(List.of(
            dev.zarrow.ArraySpec.shardingIndexed(INNER, List.of(dev.zarrow.ArraySpec.bytes("little"), dev.zarrow.ArraySpec.zstd(1)))));
        try (dev.zarrow.NdVector values = array.read(allocator)) {
          copy.createArray(child.getKey(), spec).write(new long[array.rank()], values);
        }
      }
    }
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

  // ---- the month sharded: a partition per shard, and only the inner chunks a filter leaves read ----

  /**
   * The inner chunks of {@code variable} read since the last reset, as {@code KEY#INDEX}: a whole-shard
   * get reads them all, a ranged get those whose bytes it covers (the shard's index, read from the
   * stored shard, says where each is); a suffix get is the index.
   */
  static Set<String> innerChunksRead(String variable) throws java.io.IOException {
    Set<String> out = new TreeSet<>();
    for (var r : RecordingStores.requests()) {
      if (!r.key().startsWith(variable + "/c/") || r.range() instanceof dev.zarrow.store.ByteRange.Suffix) {
        continue;
      }
      java.nio.ByteBuffer shard = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(dir.resolve("sharded.zarr").resolve(r.key())))
          .order(java.nio.ByteOrder.LITTLE_ENDIAN);
      int n = SHARDS.get(variable)[0] / INNER[0];
      int index = shard.capacity() - 4 - 16 * n; // n (offset, nbytes) pairs, then a crc32c
      long from = r.range() == null ? 0 : ((dev.zarrow.store.ByteRange.FromStart) r.range()).offset();
      long to = r.range() == null ? shard.capacity() : from + ((dev.zarrow.store.ByteRange.FromStart) r.range()).length();
      for (int i = 0; i < n; i++) {
        long offset = shard.getLong(index + 16 * i);
        long nbytes = shard.getLong(index + 16 * i + 8);
        if (offset != -1 && offset >= from && offset + nbytes <= to) {
          out.add(r.key() + "#" + i);
        }
      }
    }
    return out;
  }

  /** The inner chunks of {@code variable} that hold a row of xarray's table matching {@code predicate}. */
  static Set<String> innerChunksNeeded(String variable, String predicate) {
    int steps = SHARDS.get(variable)[0];
    return new TreeSet<>(spark.sql("SELECT DISTINCT concat('" + variable + "/c/', floor(ti / " + steps + "), '/', floor(li / 5), '/', floor(oi / 18),"
        + " '#', floor(ti % " + steps + " / 4)) FROM xr WHERE " + predicate).as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
  }

  /**
   * {@code SELECT ... FROM sharded WHERE predicate} gives xarray's rows, reads exactly the inner chunks
   * of t2m and tp that hold a matching row, and explain() says how many of t2m's (the grid's) it reads
   * and in how many of its 48 shards.
   */
  static void assertPrunesInnerChunks(String predicate) throws java.io.IOException {
    String columns = "time, latitude, longitude, t2m, tp, orography";
    Dataset<Row> actual = spark.sql("SELECT " + columns + " FROM sharded WHERE " + predicate);
    String plan = actual.queryExecution().executedPlan().toString();
    RecordingStores.reset();
    List<Row> rows = actual.collectAsList();
    Set<String> t2m = innerChunksNeeded("t2m", predicate);
    assertEquals(t2m, innerChunksRead("t2m"), predicate + ": the inner chunks of t2m read");
    assertEquals(innerChunksNeeded("tp", predicate), innerChunksRead("tp"), predicate + ": the inner chunks of tp read (its own shards)");
    long shards = t2m.stream().map(k -> k.substring(0, k.indexOf('#'))).distinct().count();
    assertTrue(plan.contains("reads " + t2m.size() + " of 240 chunks in " + shards + " of 48 shards"), predicate + ": " + plan);
    assertSameRows(spark.sql("SELECT " + columns + " FROM xr WHERE " + predicate), spark.createDataFrame(rows, actual.schema()), predicate);
  }

  @Test
  void aShardedDatasetIsXarraysTableReadShardByShard() throws java.io.IOException {
    Dataset<Row> df = read(shardedLocation);
    assertEquals(48, df.rdd().getNumPartitions(), "a partition per shard of t2m, 6 x 4 x 2");
    assertTrue(df.queryExecution().executedPlan().toString().contains("reads 240 of 240 chunks in 48 of 48 shards"),
        df.queryExecution().executedPlan().toString());
    RecordingStores.reset();
    assertSameRows(xarrayMonth.drop("ti", "li", "oi"), df, "the sharded month");
    assertEquals(240, innerChunksRead("t2m").size(), "every inner chunk of t2m");
    // a shard is read with one request; one clipped at the grid's edge (latitudes 15..18 of 5) with two: its index, then
    // its inner chunks in one range
    var t2m = RecordingStores.requests().stream().filter(r -> r.key().startsWith("t2m/c/")).toList();
    assertTrue(t2m.stream().allMatch(r -> r.range() == null || r.key().split("/")[3].equals("3")), "whole shards: " + t2m);
  }

  @Test
  void oneDayReadsOnlyThatDaysInnerChunksOfEachShard() throws java.io.IOException {
    // day 3 is steps 8..11: inner chunk 2 of the first shard along time of t2m (steps 0..19) and of tp (0..23)
    assertPrunesInnerChunks("time >= timestamp_ntz'2000-01-03' AND time < timestamp_ntz'2000-01-04'");
    assertEquals(8, innerChunksNeeded("t2m", "time >= timestamp_ntz'2000-01-03' AND time < timestamp_ntz'2000-01-04'").size(),
        "one inner chunk in each of the day's 4 x 2 shards, not the shards' five");
    // steps 18..25 (day 5 18:00 to day 7 06:00): inner chunks 4 of t2m's first shard, 0 and 1 of its second; 4, 5, 0 of tp's
    assertPrunesInnerChunks("time >= timestamp_ntz'2000-01-05 12:00' AND time <= timestamp_ntz'2000-01-07 06:00' AND latitude BETWEEN 40 AND 60");
    assertPrunesInnerChunks("time IN (timestamp_ntz'2000-01-02 06:00', timestamp_ntz'2000-01-04 00:00') AND longitude < 100");
    assertPrunesInnerChunks("latitude = 0");
    assertPrunesInnerChunks("time > timestamp_ntz'2000-01-29 06:00'");
  }

  @Test
  void aLimitOnAShardedDatasetReadsItsFirstInnerChunk() throws java.io.IOException {
    Dataset<Row> limited = read(shardedLocation).select("time", "t2m").limit(10);
    String plan = limited.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("limit 10") && plan.contains("reads 1 of 240 chunks in 1 of 48 shards"), plan);
    RecordingStores.reset();
    assertEquals(10, limited.collectAsList().size());
    assertEquals(Set.of("t2m/c/0/0/0#0"), innerChunksRead("t2m"));
  }

  @Test
  void countOfADayOfAShardedDatasetReadsNoShard() {
    String day = "time >= timestamp_ntz'2000-01-03' AND time < timestamp_ntz'2000-01-04'";
    RecordingStores.reset();
    assertEquals(spark.sql("SELECT count(*) FROM xr WHERE " + day).first().getLong(0),
        spark.sql("SELECT count(*) FROM sharded WHERE " + day).first().getLong(0));
    assertEquals(List.of(), RecordingStores.requests().stream().filter(r -> r.key().startsWith("t2m/") || r.key().startsWith("tp/"))
        .filter(r -> !r.key().endsWith("zarr.json")).toList());
  }
}
