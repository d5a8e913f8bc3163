package dev.zarrow.flight.bench;

import dev.zarrow.ZarrGroup;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableReader;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DuckDB's group-by over {@link BenchTable} (8M rows): {@code zarrow}, the group table's reader
 * exported through the C Data interface and registered as an Arrow stream (a fresh stream per query,
 * as the README does), against {@code parquet}, the same rows as a Parquet file that DuckDB itself
 * wrote from that table (COPY ... TO (FORMAT parquet), its defaults: snappy, 122880-row groups), the
 * format a DuckDB user would pick instead. MB/s counts the table's Arrow data (every buffer of the
 * four columns in memory) per query.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-XX:MaxDirectMemorySize=4g"})
@State(Scope.Benchmark)
public class DuckDbBench {
  static final int ROWS = 8 << 20;
  static final String QUERY = "SELECT city, count(*), sum(amount), avg(qty), max(id) FROM %s GROUP BY city ORDER BY city";

  Path dir;
  BufferAllocator allocator;
  FileSystemStore store;
  ZarrGroup group;
  DuckDBConnection duck;
  Path parquet;
  long tableBytes;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = FlightBenchSupport.tempDir("duckdb");
    allocator = new RootAllocator();
    store = FileSystemStore.open(dir.resolve("store"));
    group = BenchTable.write(store, "t", ROWS, allocator);
    duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    parquet = dir.resolve("t.parquet");
    try (TableReader reader = TableReader.of(group, allocator)) {
      while (reader.loadNextBatch()) {
        tableBytes += reader.getVectorSchemaRoot().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
      }
    }
    try (ArrowArrayStream stream = register(); Statement s = duck.createStatement()) {
      s.execute("COPY (SELECT * FROM t) TO '" + parquet + "' (FORMAT parquet)");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    duck.close();
    store.close();
    allocator.close();
    FlightBenchSupport.delete(dir);
  }

  private ArrowArrayStream register() {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    Data.exportArrayStream(allocator, TableReader.of(group, allocator), stream);
    duck.registerArrowStream("t", stream);
    return stream;
  }

  @Benchmark
  public long zarrow(FlightBenchSupport.Throughput throughput) throws Exception {
    try (ArrowArrayStream stream = register()) {
      throughput.add(tableBytes);
      return run(String.format(QUERY, "t"));
    }
  }

  @Benchmark
  public long parquet(FlightBenchSupport.Throughput throughput) throws Exception {
    throughput.add(tableBytes);
    return run(String.format(QUERY, "read_parquet('" + parquet + "')"));
  }

  private long run(String sql) throws Exception {
    long rows = 0;
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows += rs.getLong(2);
      }
    }
    if (rows != ROWS) {
      throw new IllegalStateException(sql + " counted " + rows + " rows, not " + ROWS);
    }
    return rows;
  }
}
