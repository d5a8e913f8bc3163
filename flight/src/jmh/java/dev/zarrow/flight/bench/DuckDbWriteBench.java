package dev.zarrow.flight.bench;

import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
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
 * Writing one 5M-row table to files: {@code zarrow}, {@link TableWriter} with the table defaults
 * (256K-row chunks, zstd 3 + crc32c) into a directory store, from the table's Arrow batches (64K rows,
 * in memory), against {@code duckdb}, DuckDB (JDBC, in process) writing the same rows, loaded once into
 * a DuckDB table, with {@code COPY t TO 'f.parquet' (FORMAT parquet, COMPRESSION zstd)}. Columns: id
 * (int64), x (float64), s (utf8, 12 distinct prefixes and a row number, 10% null), l (list&lt;int32&gt;,
 * 0-4 items, 5% null). Both use every core (DuckDB's threads setting is its default, the cores; zarrow's
 * executor is the default pool). Each call writes to a path removed before the next.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-XX:MaxDirectMemorySize=4g"})
@State(Scope.Benchmark)
public class DuckDbWriteBench {
  static final int ROWS = 5_000_000;
  static final int BATCH = 1 << 16;

  Path dir;
  BufferAllocator allocator;
  final List<VectorSchemaRoot> batches = new ArrayList<>();
  DuckDBConnection duck;
  Path target;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = FlightBenchSupport.tempDir("write");
    allocator = new RootAllocator();
    Random random = new Random(29);
    for (int from = 0; from < ROWS; from += BATCH) {
      batches.add(batch(from, Math.min(BATCH, ROWS - from), random));
    }
    duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator); Statement s = duck.createStatement()) {
      Data.exportArrayStream(allocator, new Batches(allocator, batches), stream);
      duck.registerArrowStream("source", stream);
      s.execute("CREATE TABLE t AS SELECT * FROM source");
      try (ResultSet rs = s.executeQuery("SELECT count(*), count(s), count(l) FROM t")) {
        rs.next();
        if (rs.getLong(1) != ROWS) {
          throw new IllegalStateException("DuckDB loaded " + rs.getLong(1) + " rows");
        }
      }
    }
  }

  private VectorSchemaRoot batch(int from, int n, Random random) {
    BigIntVector id = new BigIntVector("id", allocator);
    Float8Vector x = new Float8Vector("x", allocator);
    VarCharVector s = new VarCharVector("s", allocator);
    ListVector l = ListVector.empty("l", allocator);
    id.allocateNew(n);
    x.allocateNew(n);
    s.allocateNew(16L * n, n);
    l.allocateNew();
    IntVector items = (IntVector) l.addOrGetVector(org.apache.arrow.vector.types.pojo.FieldType.nullable(
        org.apache.arrow.vector.types.Types.MinorType.INT.getType())).getVector();
    int item = 0;
    for (int i = 0; i < n; i++) {
      long row = from + i;
      id.set(i, row * 7919);
      x.set(i, Math.round(random.nextGaussian() * 10000) / 100.0);
      if (random.nextInt(10) != 0) {
        s.setSafe(i, ("item-" + (char) ('a' + random.nextInt(12)) + "-" + row).getBytes(StandardCharsets.UTF_8));
      }
      if (random.nextInt(20) == 0) {
        l.setNull(i);
      } else {
        l.startNewValue(i);
        int count = random.nextInt(5);
        for (int k = 0; k < count; k++) {
          items.setSafe(item++, random.nextInt(1000));
        }
        l.endValue(i, count);
      }
    }
    items.setValueCount(item);
    id.setValueCount(n);
    x.setValueCount(n);
    s.setValueCount(n);
    l.setValueCount(n);
    VectorSchemaRoot root = VectorSchemaRoot.of(id, x, s, l);
    root.setRowCount(n);
    return root;
  }

  @Setup(Level.Invocation)
  public void clean() throws Exception {
    if (target != null && Files.exists(target)) {
      FlightBenchSupport.delete(target);
    }
    target = dir.resolve("out-" + System.nanoTime());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    duck.close();
    batches.forEach(VectorSchemaRoot::close);
    allocator.close();
    FlightBenchSupport.delete(dir);
  }

  @Benchmark
  public long zarrow() throws Exception {
    try (FileSystemStore store = FileSystemStore.open(target);
        TableWriter writer = TableWriter.create(Zarr.createGroup(store, "t"), batches.get(0).getSchema(),
            TableOptions.defaults(), allocator)) {
      for (VectorSchemaRoot b : batches) {
        writer.append(b, null);
      }
      writer.finish();
      return writer.rows();
    }
  }

  @Benchmark
  public long duckdb() throws Exception {
    try (Statement s = duck.createStatement()) {
      return s.executeUpdate("COPY t TO '" + target + ".parquet' (FORMAT parquet, COMPRESSION zstd)");
    }
  }

  /**
   * Outside JMH, for a shared machine: {@code rounds} (default 5) interleaved rounds of both writes
   * after one warm-up round; per side the best wall time and the process CPU time of that call, and
   * their ratios. A second argument, {@code zarrow} or {@code duckdb}, runs that side alone (for a
   * profiler).
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    DuckDbWriteBench b = new DuckDbWriteBench();
    b.setUp();
    double[][] best = {{Double.MAX_VALUE, 0}, {Double.MAX_VALUE, 0}};
    for (int round = 0; round < rounds + 1; round++) {
      for (int side = 0; side < 2; side++) {
        if (args.length > 1 && !args[1].equals(side == 0 ? "zarrow" : "duckdb")) {
          continue;
        }
        b.clean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long rows = side == 0 ? b.zarrow() : b.duckdb();
        double wall = (System.nanoTime() - t0) / 1e6;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e6;
        if (rows != ROWS) {
          throw new IllegalStateException((side == 0 ? "zarrow" : "duckdb") + " wrote " + rows + " rows");
        }
        if (round >= 1 && wall < best[side][0]) {
          best[side] = new double[] {wall, cpu};
        }
      }
    }
    System.out.printf("zarrow %.0f ms (cpu %.0f ms), duckdb %.0f ms (cpu %.0f ms): zarrow takes %.2fx duckdb's time, %.2fx its CPU%n",
        best[0][0], best[0][1], best[1][0], best[1][1], best[0][0] / best[1][0], best[0][1] / best[1][1]);
    b.clean();
    b.tearDown();
  }

  /** The batches (borrowed) as a reader: each loaded into the reader's root, sharing its buffers. */
  static final class Batches extends ArrowReader {
    private final List<VectorSchemaRoot> batches;
    private int next;

    Batches(BufferAllocator allocator, List<VectorSchemaRoot> batches) {
      super(allocator);
      this.batches = batches;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (next == batches.size()) {
        return false;
      }
      prepareLoadNextBatch();
      VectorSchemaRoot from = batches.get(next++);
      try (ArrowRecordBatch batch = new VectorUnloader(from).getRecordBatch()) {
        new VectorLoader(getVectorSchemaRoot()).load(batch);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return batches.get(0).getSchema();
    }
  }
}
