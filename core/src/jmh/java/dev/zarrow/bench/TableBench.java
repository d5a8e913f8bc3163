package dev.zarrow.bench;

import dev.zarrow.table.TableWriter;
import dev.zarrow.table.TableReader;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Issue 5's table benchmark: a 10M-row table (int64, float64, utf8, list&lt;int32&gt;,
 * struct{int64, utf8}; 5% nulls in every column) written to and read from a group with every column
 * of the {@code arrow} data type (codec {@code arrow} + zstd level 3, no checksum), next to the same
 * batches through Arrow Java's ArrowStreamWriter/ArrowStreamReader with Arrow's own ZSTD compression of
 * IPC bodies (level 3, arrow-compression) into one stream file. Both sides take the batches from an
 * {@link ArrowReader} over the same in-memory record batches and write to / read from files in a temp
 * dir; MB/s counts the Arrow data in memory (every buffer of every batch).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// An operation takes seconds: an iteration of 1 s runs one, so each figure is 3 whole operations.
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms3g", "-Xmx3g",
    "-XX:MaxDirectMemorySize=4g"})
public class TableBench {
  static final int ROWS = 10_000_000;
  /** Rows per source batch: the tables' default chunk rows, so neither side re-slices batches. */
  static final int BATCH = 1 << 18;
  static final int ZSTD_LEVEL = 3;

  /** What zarrow writes: the arrow codec + zstd for every column, like the baseline's compressed IPC. */
  static final TableOptions OPTIONS = TableOptions.defaults()
      .withChunkRows(BATCH)
      .withNativeTypes(false)
      .withCompressors(List.of(ArraySpec.zstd(ZSTD_LEVEL)));

  /** The table in memory (generated once per trial) and both sides' files of it. */
  @State(Scope.Benchmark)
  public static class Data {
    BufferAllocator allocator;
    Schema schema;
    List<VectorSchemaRoot> batches;
    long bytes;
    Path dir;
    Path streamFile;
    FileSystemStore store;

    @Setup(Level.Trial)
    public void generate() throws IOException {
      allocator = new RootAllocator();
      schema = Table.schema();
      batches = Table.generate(schema, allocator, ROWS, BATCH, 5);
      for (VectorSchemaRoot b : batches) {
        for (FieldVector v : b.getFieldVectors()) {
          bytes += v.getBufferSize();
        }
      }
      dir = BenchSupport.tempDir("table");
      streamFile = dir.resolve("baseline.arrows");
      store = FileSystemStore.open(dir.resolve("zarr"));
      // Both sides' files, for the reads (the writes replace them with the same bytes).
      baselineWrite(this);
      zarrowWrite(this, Zarr.createGroup(store, "t", ZarrOptions.defaults()));
      System.out.printf("%n[TableBench] %d rows in %d batches, %.1f MB in memory; stored: baseline %.1f MB, zarrow %.1f MB%n",
          ROWS, batches.size(), bytes / 1e6, Files.size(streamFile) / 1e6, sizeOf(dir.resolve("zarr")) / 1e6);
    }

    /** A reader over the batches, loading each into its root without copying. */
    ArrowReader source() {
      return new BatchesReader(allocator, schema, batches);
    }

    @TearDown(Level.Trial)
    public void delete() {
      batches.forEach(VectorSchemaRoot::close);
      store.close();
      allocator.close();
      BenchSupport.delete(dir);
    }
  }

  /** zarrow's group with an executor of {@code threads} threads (1: the calling thread alone). */
  @State(Scope.Benchmark)
  public static class Zarrow {
    @Param({"1", "2"})
    public int threads;

    BenchSupport.ChunkThreads executor;
    ZarrGroup group;

    @Setup(Level.Trial)
    public void open(Data data) {
      executor = new BenchSupport.ChunkThreads(threads);
      group = Zarr.openGroup(data.store, "t", executor.options());
    }

    @TearDown(Level.Trial)
    public void close() {
      executor.close();
    }
  }

  @Benchmark
  public void baselineWrite(Data data, BenchSupport.Throughput mb) throws IOException {
    baselineWrite(data);
    mb.add(data.bytes);
  }

  @Benchmark
  public void baselineRead(Data data, BenchSupport.Throughput mb, Blackhole bh) throws IOException {
    try (FileChannel in = FileChannel.open(data.streamFile);
        ArrowStreamReader reader = new ArrowStreamReader(in, data.allocator, CommonsCompressionFactory.INSTANCE)) {
      bh.consume(consume(reader));
    }
    mb.add(data.bytes);
  }

  @Benchmark
  public void zarrowWrite(Data data, Zarrow zarrow, BenchSupport.Throughput mb) throws IOException {
    zarrowWrite(data, zarrow.group);
    mb.add(data.bytes);
  }

  @Benchmark
  public void zarrowRead(Data data, Zarrow zarrow, BenchSupport.Throughput mb, Blackhole bh) throws IOException {
    try (ArrowReader reader = TableReader.of(zarrow.group, data.allocator)) {
      bh.consume(consume(reader));
    }
    mb.add(data.bytes);
  }

  static void baselineWrite(Data data) throws IOException {
    try (ArrowReader source = data.source();
        FileChannel out = FileChannel.open(data.streamFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        ArrowStreamWriter writer = new ArrowStreamWriter(source.getVectorSchemaRoot(), null, out, IpcOption.DEFAULT,
            CommonsCompressionFactory.INSTANCE, CompressionUtil.CodecType.ZSTD, Optional.of(ZSTD_LEVEL))) {
      writer.start();
      while (source.loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
  }

  static void zarrowWrite(Data data, ZarrGroup group) throws IOException {
    try (ArrowReader source = data.source()) {
      TableWriter.write(group, source, OPTIONS);
    }
  }

  /** Reads every batch; returns the rows seen plus one value of each batch, so nothing is skipped. */
  static long consume(ArrowReader reader) throws IOException {
    long seen = 0;
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    while (reader.loadNextBatch()) {
      seen += root.getRowCount();
      BigIntVector first = (BigIntVector) root.getVector(0);
      seen += first.isNull(0) ? 0 : first.get(0);
    }
    return seen;
  }

  /** Reads the zarrow table back and compares each batch with the source (schema and values). */
  static void verify(Data data, ZarrGroup group) throws IOException {
    try (ArrowReader reader = TableReader.of(group, data.allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      if (!root.getSchema().equals(data.schema)) {
        throw new AssertionError("schema read back: " + root.getSchema() + ", written " + data.schema);
      }
      int i = 0;
      while (reader.loadNextBatch()) {
        if (i >= data.batches.size() || !root.equals(data.batches.get(i))) {
          throw new AssertionError("batch " + i + " reads back different");
        }
        i++;
      }
      if (i != data.batches.size()) {
        throw new AssertionError(i + " batches read back, " + data.batches.size() + " written");
      }
    }
  }

  static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  /**
   * Outside JMH: {@code args[0]} rounds (default 3) of each operation, printing its process CPU time
   * (GC and JIT threads included), the calling thread's CPU time and the wall time, best of the rounds,
   * and each one's ratio to the baseline of the same direction. {@code args[1]}, optional, picks the
   * zarrow operations by name (comma-separated, spaces as dashes: {@code zarrow-write-threads=1}). The zarrow table is
   * verified against the source once first.
   */
  public static void main(String[] args) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    List<String> only = args.length > 1 ? List.of(args[1].split(",")) : List.of();
    TableBench bench = new TableBench();
    Data data = new Data();
    data.generate();
    Zarrow one = new Zarrow();
    one.threads = 1;
    one.open(data);
    Zarrow two = new Zarrow();
    two.threads = 2;
    two.open(data);
    verify(data, one.group);
    BenchSupport.Throughput mb = new BenchSupport.Throughput();
    Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    String[] names = {"baseline write", "zarrow write threads=1", "zarrow write threads=2", "baseline read",
        "zarrow read threads=1", "zarrow read threads=2"};
    long[] cpu = new long[names.length];
    long[] wall = new long[names.length];
    long[] own = new long[names.length];
    java.util.Arrays.fill(own, Long.MAX_VALUE);
    java.util.Arrays.fill(cpu, Long.MAX_VALUE);
    java.util.Arrays.fill(wall, Long.MAX_VALUE);
    try {
      for (int round = 0; round < rounds; round++) {
        for (int op = 0; op < names.length; op++) {
          if (!only.isEmpty() && op % 3 != 0 && !only.contains(names[op].replace(' ', '-'))) {
            continue;
          }
          long c = os.getProcessCpuTime();
          long t = threads.getCurrentThreadCpuTime();
          long w = System.nanoTime();
          switch (op) {
            case 0 -> bench.baselineWrite(data, mb);
            case 1 -> bench.zarrowWrite(data, one, mb);
            case 2 -> bench.zarrowWrite(data, two, mb);
            case 3 -> bench.baselineRead(data, mb, bh);
            case 4 -> bench.zarrowRead(data, one, mb, bh);
            default -> bench.zarrowRead(data, two, mb, bh);
          }
          own[op] = Math.min(own[op], threads.getCurrentThreadCpuTime() - t);
          cpu[op] = Math.min(cpu[op], os.getProcessCpuTime() - c);
          wall[op] = Math.min(wall[op], System.nanoTime() - w);
        }
      }
      System.out.printf("load average %.2f%n", os.getSystemLoadAverage());
      for (int op = 0; op < names.length; op++) {
        if (cpu[op] == Long.MAX_VALUE) {
          continue;
        }
        int base = op < 3 ? 0 : 3;
        System.out.printf("%-24s cpu %6.0f ms (%4.0f MB/s, %.2fx)  calling thread %6.0f ms (%.2fx)  wall %6.0f ms (%4.0f MB/s, %.2fx)%n",
            names[op], cpu[op] / 1e6, data.bytes / (cpu[op] / 1e3), cpu[op] / (double) cpu[base],
            own[op] / 1e6, own[op] / (double) own[base],
            wall[op] / 1e6, data.bytes / (wall[op] / 1e3), wall[op] / (double) wall[base]);
      }
    } finally {
      one.close();
      two.close();
      data.delete();
    }
  }

  /** An ArrowReader over record batches in memory: each is loaded into the reader's root, sharing its buffers. */
  static final class BatchesReader extends ArrowReader {
    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private int next;

    BatchesReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
      super(allocator);
      this.schema = schema;
      this.batches = batches;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (next == batches.size()) {
        return false;
      }
      try (ArrowRecordBatch batch = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
        loadRecordBatch(batch);
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
      return schema;
    }
  }

  /** The table: its schema and deterministic data. */
  static final class Table {
    private Table() {}

    static Schema schema() {
      return new Schema(List.of(
          new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
          new Field("price", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
          new Field("title", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
          new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
              List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null))),
          new Field("owner", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
              new Field("uid", FieldType.nullable(new ArrowType.Int(64, true)), null),
              new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)))));
    }

    /**
     * {@code rows} rows in batches of {@code batchRows}, {@code nullPercent}% nulls in each column (the
     * struct's children too): ids rising with jitter, prices to the cent, titles of 1-8 words from a
     * 5000-word vocabulary (about 30 bytes), 0-4 tags below 1000, owners with a word as name.
     */
    static List<VectorSchemaRoot> generate(Schema schema, BufferAllocator allocator, int rows, int batchRows,
        int nullPercent) {
      Random random = new Random(20261123);
      byte[][] words = vocabulary(random, 5000);
      List<VectorSchemaRoot> out = new ArrayList<>();
      byte[] text = new byte[256];
      for (int start = 0; start < rows; start += batchRows) {
        int n = Math.min(batchRows, rows - start);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        out.add(root);
        BigIntVector id = (BigIntVector) root.getVector(0);
        Float8Vector price = (Float8Vector) root.getVector(1);
        VarCharVector title = (VarCharVector) root.getVector(2);
        ListVector tags = (ListVector) root.getVector(3);
        StructVector owner = (StructVector) root.getVector(4);
        BigIntVector uid = (BigIntVector) owner.getChild("uid");
        VarCharVector name = (VarCharVector) owner.getChild("name");
        id.allocateNew(n);
        price.allocateNew(n);
        title.allocateNew(32L * n, n);
        tags.allocateNew();
        owner.allocateNew();
        IntVector items = (IntVector) tags.addOrGetVector(FieldType.nullable(new ArrowType.Int(32, true))).getVector();
        for (int i = 0; i < n; i++) {
          long row = start + i;
          if (!isNull(random, nullPercent)) {
            id.set(i, 1_000_000_000L + row * 8 + random.nextInt(8));
          }
          if (!isNull(random, nullPercent)) {
            price.set(i, random.nextInt(1_000_000) / 100.0);
          }
          if (!isNull(random, nullPercent)) {
            int length = 0;
            for (int w = 1 + random.nextInt(8); w > 0; w--) {
              byte[] word = words[zipf(random, words.length)];
              if (length > 0) {
                text[length++] = ' ';
              }
              System.arraycopy(word, 0, text, length, word.length);
              length += word.length;
            }
            title.setSafe(i, text, 0, length);
          }
          if (!isNull(random, nullPercent)) {
            int at = tags.startNewValue(i);
            int count = random.nextInt(5);
            for (int k = 0; k < count; k++) {
              items.setSafe(at + k, random.nextInt(1000));
            }
            tags.endValue(i, count);
          }
          if (!isNull(random, nullPercent)) {
            owner.setIndexDefined(i);
            if (!isNull(random, nullPercent)) {
              uid.setSafe(i, random.nextInt(100_000));
            }
            if (!isNull(random, nullPercent)) {
              name.setSafe(i, words[zipf(random, words.length)]);
            }
          }
        }
        uid.setValueCount(n);
        name.setValueCount(n);
        root.setRowCount(n);
      }
      return out;
    }

    private static boolean isNull(Random random, int nullPercent) {
      return random.nextInt(100) < nullPercent;
    }

    /** An index in [0, n) skewed toward small ones, as word frequencies are. */
    private static int zipf(Random random, int n) {
      return (int) Math.min(n - 1, Math.floor(Math.exp(random.nextDouble() * Math.log(n))) - 1);
    }

    /** {@code n} lowercase words of 2-10 letters. */
    private static byte[][] vocabulary(Random random, int n) {
      byte[][] words = new byte[n][];
      for (int i = 0; i < n; i++) {
        StringBuilder w = new StringBuilder();
        for (int k = 2 + random.nextInt(9); k > 0; k--) {
          w.append((char) ('a' + random.nextInt(26)));
        }
        words[i] = w.toString().getBytes(StandardCharsets.US_ASCII);
      }
      return words;
    }
  }
}
