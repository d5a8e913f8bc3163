package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.Nginx;
import java.io.ByteArrayInputStream;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import dev.zarrow.table.TableLayout;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.table.TableReader;
import dev.zarrow.testing.NodePeer;
import dev.zarrow.testing.ReadmeSnippets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DataFrames written as group tables and read back, in Spark local mode (one session for the class). */
class ZarrSparkTest {
  static SparkSession spark;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() {
    spark = Sessions.local();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** Every Spark type zarr tables hold, with nulls where a type allows them. */
  static Dataset<Row> everyType(long rows, int partitions) {
    return spark.range(0, rows, 1, partitions).selectExpr(
        "cast(id % 100 as byte) as b",
        "cast(id as short) as s",
        "cast(id as int) as i",
        "id * 1000003 as l",
        "cast(id as float) / 3 as f",
        "cast(id as double) / 7 as d",
        "case when id % 5 = 0 then null else concat('row ', id, ' ✓') end as str",
        "cast(concat('bin', id) as binary) as bin",
        "id % 2 = 0 as bool",
        "date_add(date'2020-01-01', cast(id as int)) as date",
        "timestamp_micros(1600000000000000 + id * 1000001) as ts",
        "cast(timestamp_micros(1600000000000000 - id * 999) as timestamp_ntz) as ts_ntz",
        "cast(id / 3 as decimal(20, 4)) as dec",
        "case when id % 3 = 0 then null else cast(id as int) end as maybe",
        "case when id % 7 = 0 then null else array(id, id + 1, null) end as arr",
        "named_struct('x', cast(id as int), 'y', case when id % 4 = 0 then null else concat('y', id) end) as st",
        "map(concat('k', id), id, 'z', cast(null as bigint)) as m");
  }

  /** A form that set operations accept (they refuse map columns): maps as their sorted entries. */
  static Dataset<Row> comparable(Dataset<Row> df) {
    Column[] columns = Arrays.stream(df.schema().fields())
        .map(f -> f.dataType() instanceof MapType ? org.apache.spark.sql.functions.expr("array_sort(map_entries(" + f.name() + "))").as(f.name())
            : df.col(f.name()))
        .toArray(Column[]::new);
    return df.select(columns);
  }

  static void assertSameRows(Dataset<Row> expected, Dataset<Row> actual) {
    assertEquals(expected.count(), actual.count(), "rows");
    assertEquals(0, comparable(expected).exceptAll(comparable(actual)).count(), "rows written but not read");
    assertEquals(0, comparable(actual).exceptAll(comparable(expected)).count(), "rows read but not written");
  }

  static Dataset<Row> read(Object location) {
    return spark.read().format("zarr").load(location.toString());
  }

  @Test
  void everyTypeRoundTripsThroughShardsSharedByPartitions() {
    Dataset<Row> df = everyType(1000, 3);
    Path dir = tmp.resolve("every");
    // 3 partitions of 333 rows over shards of 128: most shards hold rows of two partitions.
    df.write().format("zarr").option("chunkRows", 32).option("shardRows", 128).save(dir.toString());
    Dataset<Row> back = read(dir);
    for (StructField f : df.schema().fields()) {
      assertEquals(f.dataType(), back.schema().apply(f.name()).dataType(), f.name());
    }
    assertSameRows(df, back);
    assertEquals(8, back.rdd().getNumPartitions(), "a partition per shard: 1000 rows in shards of 128");
  }

  @Test
  void modesErrorIgnoreOverwrite() {
    Path dir = tmp.resolve("modes");
    Dataset<Row> first = spark.range(10).toDF("a");
    first.write().format("zarr").save(dir.toString());
    Exception e = assertThrows(Exception.class, () -> spark.range(3).toDF("a").write().format("zarr").save(dir.toString()));
    assertTrue(e.getMessage().contains("already holds a Zarr node"), e.getMessage());
    spark.range(3).toDF("b").write().format("zarr").mode("ignore").save(dir.toString());
    assertSameRows(first, read(dir));
    Dataset<Row> second = spark.range(100, 120, 1, 2).selectExpr("cast(id as string) as s");
    second.write().format("zarr").mode("overwrite").option("chunkRows", 7).option("codecs", "gzip:1").save(dir.toString());
    assertSameRows(second, read(dir));
    assertFalse(Files.exists(dir.resolve("a/zarr.json")), "the old table's column is gone");
    assertThrows(Exception.class, () -> second.write().format("zarr").mode("append").save(dir.toString()));
  }

  @Test
  void projectionLimitAndPartitions() {
    Path dir = tmp.resolve("projection");
    Dataset<Row> df = everyType(500, 2);
    df.write().format("zarr").option("chunkRows", 50).save(dir.toString());
    Dataset<Row> back = read(dir);
    assertEquals(10, back.rdd().getNumPartitions(), "a partition per chunk");
    Dataset<Row> two = back.select("i", "str");
    String plan = two.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("[i, str]"), "only the two columns are scanned: " + plan);
    assertTrue(plan.contains("ColumnarToRow") && plan.contains("BatchScan"), "the scan gives Spark columnar batches: " + plan);
    assertSameRows(df.select("i", "str"), two);
    assertEquals(500, back.count());
    assertEquals(500, back.select("st").count());
    Dataset<Row> limited = back.select("i").limit(7);
    String limitedPlan = limited.queryExecution().executedPlan().toString();
    assertTrue(limitedPlan.contains("[i] limit 7"), "the limit is pushed into the scan: " + limitedPlan);
    List<Row> first = limited.collectAsList();
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), first.stream().map(r -> r.getInt(0)).toList());
  }

  /** Calls of {@link #failOnSecondPass}: the write's counting pass sees every row once, its writing pass fails. */
  static final AtomicLong CALLS = new AtomicLong();

  @Test
  void aFailedWriteLeavesNothing() throws IOException {
    long rows = 300;
    spark.udf().register("failOnSecondPass", (UDF1<Long, Long>) id -> {
      if (CALLS.incrementAndGet() > rows + 150) {
        throw new IllegalStateException("the job fails half way through writing");
      }
      return id;
    }, DataTypes.LongType);
    CALLS.set(0);
    Path dir = tmp.resolve("aborted");
    Dataset<Row> df = spark.range(0, rows, 1, 3).selectExpr("failOnSecondPass(id) as a", "cast(id as string) as s");
    Exception e = assertThrows(Exception.class, () -> df.write().format("zarr").option("chunkRows", 16).save(dir.toString()));
    assertTrue(String.valueOf(e.getMessage()).contains("half way") || String.valueOf(e.getCause()).contains("half way"), String.valueOf(e));
    try (Stream<Path> files = Files.walk(dir)) {
      assertEquals(List.of(), files.filter(Files::isRegularFile).toList(), "no table, no chunk, no staging left");
    }
  }

  @Test
  void zarrowReadsWhatSparkWrote() {
    Path dir = tmp.resolve("for-zarrow");
    Dataset<Row> df = spark.range(0, 100, 1, 3).selectExpr("cast(id as int) as n", "case when id % 2 = 0 then null else concat('v', id) end as v");
    df.write().format("zarr").option("chunkRows", 16).save(dir.toString());
    List<Row> expected = df.collectAsList();
    Path exported = tmp.resolve("for-zarrow.arrows");
    try (FileSystemStore store = FileSystemStore.open(dir); BufferAllocator allocator = new RootAllocator()) {
      ZarrGroup group = Zarr.openGroup(store, "");
      TableLayout layout = TableLayout.fromAttributes(group.attributes()).orElseThrow();
      assertEquals(List.of("n", "v"), layout.nodes());
      ZarrArray n = group.array("n");
      assertEquals("int32", n.dataType().name(), "a column without nulls has a native type");
      assertEquals("arrow", group.array("v").dataType().name(), "a column with nulls is of the arrow type");
      try (TableReader reader = TableReader.of(group, allocator);
          OutputStream out = Files.newOutputStream(exported);
          ArrowStreamWriter writer = new ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, out)) {
        writer.start();
        int row = 0;
        while (reader.loadNextBatch()) {
          VectorSchemaRoot batch = reader.getVectorSchemaRoot();
          for (int i = 0; i < batch.getRowCount(); i++, row++) {
            assertEquals(expected.get(row).getInt(0), ((IntVector) batch.getVector(0)).get(i), "row " + row);
            Object v = batch.getVector(1).getObject(i);
            assertEquals(expected.get(row).get(1), v == null ? null : v.toString(), "row " + row);
          }
          writer.writeBatch();
        }
        writer.end();
        assertEquals(100, row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    NodePeer.assumeAvailable();
    JsonNode back = NodePeer.arrowRead(exported);
    assertEquals(100, back.get("num_rows").asInt());
    JsonNode columns = back.get("columns");
    assertEquals("n", columns.get(0).get("name").asText());
    for (int row = 0; row < 100; row++) {
      assertEquals(expected.get(row).getInt(0), columns.get(0).get("values").get(row).asInt(), "apache-arrow, row " + row);
      JsonNode v = columns.get(1).get("values").get(row);
      assertEquals(expected.get(row).get(1), v.isNull() ? null : v.asText(), "apache-arrow, row " + row);
    }
  }

  @Test
  void readsTablesThatZarrowImportWrote() throws IOException {
    int n = 1000;
    Path file = tmp.resolve("import.arrows");
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector id = new BigIntVector("id", allocator);
        UInt4Vector big = new UInt4Vector("big", allocator);
        VarCharVector name = new VarCharVector("name", allocator)) {
      for (int i = 0; i < n; i++) {
        id.setSafe(i, i);
        big.setSafe(i, (int) (4_000_000_000L + i)); // above Integer.MAX_VALUE: widened to long
        if (i % 10 != 0) {
          name.setSafe(i, ("name " + i).getBytes(StandardCharsets.UTF_8));
        }
      }
      try (VectorSchemaRoot root = VectorSchemaRoot.of(id, big, name); OutputStream out = Files.newOutputStream(file);
          ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
        root.setRowCount(n);
        writer.start();
        writer.writeBatch();
        writer.end();
      }
    }
    Path store = tmp.resolve("imported");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = dev.zarrow.cli.Main.run(new String[] {"import", file.toString(), store.toString(), "table", "--chunk-rows", "100",
        "--shard-rows", "300"}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    Dataset<Row> table = read(store.resolve("table"));
    assertEquals(DataTypes.LongType, table.schema().apply("big").dataType(), "uint32 widened");
    assertEquals(4, table.rdd().getNumPartitions(), "a partition per shard of 300 rows");
    Row sums = table.selectExpr("count(*)", "sum(id)", "min(big)", "max(big)", "count(name)").first();
    assertEquals(n, sums.getLong(0));
    assertEquals((long) n * (n - 1) / 2, sums.getLong(1));
    assertEquals(4_000_000_000L, sums.getLong(2));
    assertEquals(4_000_000_000L + n - 1, sums.getLong(3));
    assertEquals(n - n / 10, sums.getLong(4));
    assertEquals("name 123", table.where("id = 123").select("name").first().getString(0));
  }

  @Test
  void hadoopFileSystemLocations() {
    String location = TestFileSystem.SCHEME + "://" + tmp.resolve("hadoop").toAbsolutePath();
    Dataset<Row> df = everyType(200, 2);
    df.write().format("zarr").option("chunkRows", 30).save(location);
    assertTrue(Files.exists(tmp.resolve("hadoop/zarr.json")));
    assertSameRows(df, read(location));
  }

  @Test
  void typesSparkLacksAreRefusedByColumn() {
    Exception e = assertThrows(Exception.class,
        () -> spark.range(1).selectExpr("make_interval(1, 2) as iv").write().format("zarr").save(tmp.resolve("refused").toString()));
    assertTrue(e.getMessage().contains("iv"), e.getMessage());
  }

  @Test
  void aHugeGridPlansFewPartitionsOfWholeChunks() throws Exception {
    // 2^40 rows in one-row chunks (issue 14): before, one partition per chunk, planned until memory ran out.
    Path dir = tmp.resolve("huge");
    Zarr.createArray(FileSystemStore.open(dir), "", dev.zarrow.ArraySpec.of(dev.zarrow.dtype.FixedType.INT8, 1L << 40).chunks(1));
    int partitions = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
        () -> read(dir).rdd().getNumPartitions());
    assertTrue(partitions <= ZarrScan.MAX_PARTITIONS, partitions + " partitions");
    assertEquals(16L << 20, ZarrScan.partitionRows(1L << 40, 1));
    assertEquals(32, ZarrScan.partitionRows(1000, 32));
  }

  @Test
  void readsA1DArrayAsOneColumn() {
    Path dir = tmp.resolve("array");
    try (FileSystemStore store = FileSystemStore.open(dir); BufferAllocator allocator = new RootAllocator();
        UInt2Vector values = new UInt2Vector("v", allocator)) {
      ZarrArray array = Zarr.createArray(store, "", ArraySpec.of(FixedType.UINT16, 100).chunks(16));
      for (int i = 0; i < 100; i++) {
        values.setSafe(i, i * 600); // up to 59400: above Short.MAX_VALUE, so widened to int
      }
      values.setValueCount(100);
      array.write(Box.of(100), values);
    }
    Dataset<Row> df = read(dir);
    assertEquals(List.of("array"), Arrays.asList(df.schema().fieldNames()), "the one column is named 'array' (a root array has no name)");
    assertEquals(DataTypes.IntegerType, df.schema().apply("array").dataType(), "uint16 widened");
    assertEquals(7, df.rdd().getNumPartitions(), "a partition per chunk of 16");
    Row sums = df.selectExpr("count(*)", "sum(array)", "max(array)").first();
    assertEquals(100, sums.getLong(0));
    assertEquals(600L * 99 * 100 / 2, sums.getLong(1));
    assertEquals(59400, sums.getInt(2));
    assertEquals(List.of(0, 600, 1200), df.limit(3).collectAsList().stream().map(r -> r.getInt(0)).toList());
  }

  @Test
  void typesSparkLacksAreRefusedByColumnOnRead() throws IOException {
    Path dir = tmp.resolve("durations");
    ByteArrayOutputStream ipc = new ByteArrayOutputStream();
    try (BufferAllocator allocator = new RootAllocator(); IntVector id = new IntVector("id", allocator);
        DurationVector wait = new DurationVector("wait", FieldType.nullable(new ArrowType.Duration(TimeUnit.SECOND)), allocator)) {
      for (int i = 0; i < 10; i++) {
        id.setSafe(i, i);
        wait.setSafe(i, i * 60L);
      }
      try (VectorSchemaRoot root = VectorSchemaRoot.of(id, wait); ArrowStreamWriter writer = new ArrowStreamWriter(root, null, ipc)) {
        root.setRowCount(10);
        writer.start();
        writer.writeBatch();
        writer.end();
      }
      try (FileSystemStore store = FileSystemStore.open(dir);
          ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator)) {
        TableWriter.write(Zarr.createGroup(store, ""), reader, TableOptions.defaults());
      }
    }
    Exception e = assertThrows(Exception.class, () -> read(dir).count());
    assertTrue(e.getMessage().contains("'wait'") && e.getMessage().contains("Spark has no such type"), e.getMessage());
  }

  @Test
  void partitionsPreferTheHostsOfTheirChunks() {
    String location = TestFileSystem.SCHEME + "://" + tmp.resolve("located/table").toAbsolutePath();
    spark.range(0, 100, 1, 2).selectExpr("id", "cast(id as string) as s").write().format("zarr").option("chunkRows", 25).save(location);
    Dataset<Row> back = read(location);
    var rdd = back.rdd();
    assertEquals(4, rdd.getNumPartitions());
    for (int i = 0; i < 4; i++) {
      List<String> hosts = scala.jdk.javaapi.CollectionConverters.asJava(spark.sparkContext().getPreferredLocs(rdd, i)).stream()
          .map(org.apache.spark.scheduler.TaskLocation::host).toList();
      assertEquals(List.of("node-" + i), hosts, "partition " + i + ": the host of id/c/" + i + " and s/c/" + i);
    }
    assertEquals(4950L, back.selectExpr("sum(id)").first().getLong(0));
  }

  @Test
  void readsZarrowLocationsThatAreNoDirectory() throws Exception {
    Path www = tmp.resolve("www");
    Path dir = www.resolve("table");
    Dataset<Row> df = everyType(300, 2);
    df.write().format("zarr").option("chunkRows", 40).option("shardRows", 80).save(dir.toString());
    Path archive = tmp.resolve("table.zip");
    Process zip = new ProcessBuilder("zip", "-q", "-r", archive.toString(), ".").directory(dir.toFile()).inheritIO().start();
    assertEquals(0, zip.waitFor(), "zip");
    for (String location : List.of(archive.toString(), "zip:" + archive)) {
      Dataset<Row> back = read(location);
      assertEquals(4, back.rdd().getNumPartitions(), location + ": a partition per shard");
      assertSameRows(df, back);
    }
    try (Nginx nginx = Nginx.serve(www, Files.createDirectories(tmp.resolve("nginx")))) {
      String url = nginx.url() + "table";
      assertSameRows(df, read(url));
      assertEquals(300, read(url).select("i").count());
      Exception e = assertThrows(Exception.class, () -> df.write().format("zarr").save(url));
      assertTrue(String.valueOf(e.getMessage()).contains("read-only"), String.valueOf(e.getMessage()));
    }
  }

  /** The example of README.md's Spark section, run; the README shows these lines, its locations for this test's. */
  @Test
  void theReadmeExampleRuns() throws IOException {
    Path dir = tmp.resolve("readme");
    spark.range(0, 50, 1, 2).selectExpr("id", "concat('name ', id) as name", "cast(id - 10 as double) as v")
        .write().format("zarr").option("chunkRows", 20).save(dir.toString());
    String table = dir.toString();
    String copy = TestFileSystem.SCHEME + "://" + tmp.resolve("readme-copy").toAbsolutePath();
    PrintStream stdout = System.out;
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    System.setOut(new PrintStream(shown, true, StandardCharsets.UTF_8));
    try {
      // README-BEGIN
      Dataset<Row> df = spark.read().format("zarr").load(table);  // a group table or a 1-D array
      df.where("v > 0").select("id", "name").show();                      // columns pruned, limits pushed
      df.write().format("zarr").mode("overwrite")                         // errorifexists (default), overwrite, ignore
          .option("chunkRows", 262144).option("shardRows", 1048576).option("codecs", "zstd:3,crc32c")
          .save(copy);
      // README-END
      assertSameRows(df, read(copy));
    } finally {
      System.setOut(stdout);
    }
    assertTrue(shown.toString(StandardCharsets.UTF_8).contains("name 11"), shown.toString(StandardCharsets.UTF_8));
    ReadmeSnippets.assertShown("spark/src/test/java/dev/zarrow/spark/ZarrSparkTest.java", lines -> lines
        .replace("load(table)", "load(\"/data/table\")").replace(".save(copy)", ".save(\"s3a://bucket/tables/t\")"));
  }
}
