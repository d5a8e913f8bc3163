package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableParts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * Writes a DataFrame as the group table at a location, in parallel, claimed last.
 *
 * <ol>
 *   <li>A first job counts the rows of each partition (and which columns hold a null), as Spark's
 *       own {@code zipWithIndex} does: rows are placed by position, so each partition must know where
 *       its rows start. Both jobs run on one RDD, so its partitions are the same.
 *   <li>The driver creates the arrays with the final row count ({@link TableParts#create}); no
 *       attribute claims them yet.
 *   <li>Each task converts its rows to Arrow and writes the write units (chunks, or shards) it holds
 *       all rows of, each encoded once, whole. The piece of a unit it shares with a neighbour goes to
 *       a staging key ({@code .zarrow-spark-ID/UNIT/PARTITION}, an Arrow IPC stream).
 *   <li>A small job writes each shared unit from its pieces, in partition order.
 *   <li>The driver writes the {@code zarrow_table} attribute, once, and removes the staging keys.
 * </ol>
 *
 * A job that fails or is cancelled before the last step claims nothing and deletes what it wrote.
 * Modes: {@code errorifexists} (the default) refuses a location that holds a Zarr node, {@code
 * ignore} leaves it as it is, {@code overwrite} deletes everything under it once the rows are
 * counted; {@code append} is refused.
 */
final class ZarrWrite {
  private ZarrWrite() {}

  /** What the counting job learns of one partition. */
  record Counted(long rows, boolean[] nulls) implements Serializable {}

  static void write(Location location, SaveMode mode, TableOptions options, Dataset<Row> data) {
    StructType sparkSchema = data.schema();
    Schema schema = SparkTypes.toArrow(sparkSchema); // refuses unsupported columns before any job runs
    try (WritableStore store = location.openWritable()) {
      boolean exists = store.exists("zarr.json");
      switch (mode) {
        case Append -> throw new UnsupportedOperationException("zarr: mode append is not supported; use overwrite");
        case ErrorIfExists -> {
          if (exists) {
            throw new IllegalStateException("zarr: " + location + " already holds a Zarr node; use mode overwrite or ignore");
          }
        }
        case Ignore -> {
          if (exists) {
            return;
          }
        }
        default -> {
          // overwrite: below
        }
      }
      JavaRDD<InternalRow> rows = data.queryExecution().toRdd().toJavaRDD();
      int columns = sparkSchema.size();
      List<Counted> counted = rows.mapPartitions((Iterator<InternalRow> it) -> List.of(count(it, columns)).iterator()).collect();
      long[] offsets = new long[counted.size() + 1];
      boolean[] nulls = new boolean[columns];
      for (int k = 0; k < counted.size(); k++) {
        offsets[k + 1] = offsets[k] + counted.get(k).rows();
        for (int i = 0; i < columns; i++) {
          nulls[i] |= counted.get(k).nulls()[i];
        }
      }
      if (exists) {
        store.deletePrefix("");
      }
      String id = UUID.randomUUID().toString();
      String staging = ".zarrow-spark-" + id;
      SparkContext context = data.sparkSession().sparkContext();
      String tag = "zarrow-write-" + id;
      String interrupt = context.getLocalProperty(INTERRUPT_ON_CANCEL);
      context.addJobTag(tag);
      context.setInterruptOnCancel(true);
      TableParts parts = TableParts.create(Zarr.createGroup(store, ""), schema, offsets[counted.size()], options, nulls);
      try {
        List<Long> shared = rows.mapPartitionsWithIndex(
            (Integer k, Iterator<InternalRow> it) -> writePartition(location, sparkSchema, staging, k, offsets[k], offsets[k + 1], it),
            true).collect();
        List<Long> units = new ArrayList<>(new TreeSet<>(shared));
        if (!units.isEmpty()) {
          JavaSparkContext spark = JavaSparkContext.fromSparkContext(context);
          spark.parallelize(units, Math.min(units.size(), spark.defaultParallelism()))
              .foreach(unit -> writeSharedUnit(location, sparkSchema, staging, unit));
        }
        parts.claim();
      } catch (Throwable e) {
        // Tasks of a failed job may still run: stop them before removing what they wrote.
        context.cancelJobsWithTag(tag, "the zarr write failed");
        awaitNoTasks(context, tag);
        parts.delete();
        store.delete("zarr.json");
        throw e;
      } finally {
        context.removeJobTag(tag);
        context.setLocalProperty(INTERRUPT_ON_CANCEL, interrupt);
        store.deletePrefix(staging + "/");
      }
    }
  }

  private static final String INTERRUPT_ON_CANCEL = "spark.job.interruptOnCancel";
  private static final long TASKS_GONE_TIMEOUT_MS = 60_000;

  /** Waits (a minute at most) until no task of the jobs tagged {@code tag} runs any more. */
  private static void awaitNoTasks(SparkContext context, String tag) {
    long deadline = System.currentTimeMillis() + TASKS_GONE_TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      int active = 0;
      for (int job : context.statusTracker().getJobIdsForTag(tag)) {
        Option<SparkJobInfo> info = context.statusTracker().getJobInfo(job);
        if (info.isDefined()) {
          for (int stage : info.get().stageIds()) {
            Option<SparkStageInfo> s = context.statusTracker().getStageInfo(stage);
            active += s.isDefined() ? s.get().numActiveTasks() : 0;
          }
        }
      }
      if (active == 0) {
        return;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static Counted count(Iterator<InternalRow> rows, int columns) {
    long n = 0;
    boolean[] nulls = new boolean[columns];
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      n++;
      for (int i = 0; i < columns; i++) {
        nulls[i] |= row.isNullAt(i);
      }
    }
    return new Counted(n, nulls);
  }

  private static TableParts open(WritableStore store, StructType sparkSchema) {
    ZarrGroup group = Zarr.openGroup(store, "");
    return TableParts.open(group, TableLayout.forSchema(SparkTypes.toArrow(sparkSchema)));
  }

  /**
   * Writes rows {@code [start, end)} of the table from partition {@code k}: its whole units, and the
   * pieces of units it shares to staging. Returns the shared units.
   */
  private static Iterator<Long> writePartition(Location location, StructType sparkSchema, String staging, int k, long start, long end,
      Iterator<InternalRow> rows) {
    List<Long> shared = new ArrayList<>();
    try (WritableStore store = location.openWritable();
        BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(SparkTypes.toArrow(sparkSchema), allocator)) {
      TableParts parts = open(store, sparkSchema);
      ArrowWriter writer = ArrowWriter.create(root);
      long unitRows = parts.unitRows();
      long row = start;
      long pieceStart = start;
      while (rows.hasNext()) {
        if (row == end) {
          throw changed(k, start, end, "more");
        }
        writer.write(rows.next());
        row++;
        if (row % unitRows == 0 || row == end) {
          writer.finish();
          long unit = pieceStart / unitRows;
          if (pieceStart == unit * unitRows && row == Math.min(parts.rows(), (unit + 1) * unitRows)) {
            parts.writeUnit(unit, List.of(root), allocator);
          } else {
            store.set(staging + "/" + unit + "/" + k, ipc(root));
            shared.add(unit);
          }
          writer.reset();
          pieceStart = row;
        }
      }
      if (row != end) {
        throw changed(k, start, end, "fewer");
      }
    }
    return shared.iterator();
  }

  private static IllegalStateException changed(int k, long start, long end, String what) {
    return new IllegalStateException("zarr: partition " + k + " gave " + what + " rows than the " + (end - start)
        + " it had when counted: the DataFrame is not deterministic; persist or checkpoint it before writing");
  }

  private static ByteBuffer ipc(VectorSchemaRoot root) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArrowStreamWriter out = new ArrowStreamWriter(root, null, Channels.newChannel(bytes))) {
      out.start();
      out.writeBatch();
      out.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteBuffer.wrap(bytes.toByteArray());
  }

  /** Writes unit {@code unit} from the pieces its partitions staged, in partition order. */
  private static void writeSharedUnit(Location location, StructType sparkSchema, String staging, long unit) {
    try (WritableStore store = location.openWritable(); BufferAllocator allocator = new RootAllocator()) {
      String prefix = staging + "/" + unit + "/";
      List<String> keys = new ArrayList<>(store.list(prefix));
      keys.sort((a, b) -> Integer.compare(partition(a), partition(b)));
      List<ArrowStreamReader> readers = new ArrayList<>();
      try {
        List<VectorSchemaRoot> pieces = new ArrayList<>();
        for (String key : keys) {
          ByteBuffer bytes = store.get(key).orElseThrow();
          byte[] array = new byte[bytes.remaining()];
          bytes.get(array);
          ArrowStreamReader reader = new ArrowStreamReader(new java.io.ByteArrayInputStream(array), allocator);
          readers.add(reader);
          reader.loadNextBatch();
          pieces.add(reader.getVectorSchemaRoot());
        }
        open(store, sparkSchema).writeUnit(unit, pieces, allocator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        for (ArrowStreamReader reader : readers) {
          try {
            reader.close();
          } catch (IOException ignored) {
            // memory is released regardless
          }
        }
      }
    }
  }

  private static int partition(String key) {
    return Integer.parseInt(key.substring(key.lastIndexOf('/') + 1));
  }
}
