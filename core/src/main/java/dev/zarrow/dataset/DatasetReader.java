package dev.zarrow.dataset;

import dev.zarrow.dataset.DatasetTable.ChunkColumn;
import dev.zarrow.dataset.DatasetTable.GridColumn;
import dev.zarrow.grid.Box;
import dev.zarrow.internal.ReadAhead;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.ipc.SchemaRootReader;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.vector.Move;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link DatasetTable} (or some of its chunks, or regions) as an {@link org.apache.arrow.vector.ipc.ArrowReader}:
 * the chunks (or regions) in the order given, each in one or more batches, the cells in C order. Chunks decode ahead
 * on the group's executor ({@link ReadAhead}, about 2 to 8 batches' worth of rows and at least one chunk
 * besides the current one), each chunk's
 * columns in parallel, so memory holds a few chunks whatever the dataset's size.
 *
 * <p><b>Batches.</b> A chunk comes as consecutive parts of at most {@code batchRows} rows (0: the whole
 * chunk), each made of whole slabs along the chunk's outermost dimension that allows it: a chunk of
 * {@code (24, 181, 360)} in batches of 2^17 rows comes as 12 batches of 2 time steps; where one slab is
 * larger, the slab is cut along its next dimension, and so on. A batch's dimension columns are still
 * runs of repeated values.
 *
 * <p><b>Memory.</b> A chunk's variables decode into memory lent by the reader's {@link ScratchBuffers}
 * and used again by later chunks; each batch is copied out of it by runs ({@link
 * dev.zarrow.vector.Broadcast}) into new buffers of the caller's allocator, small enough (about 1 MB a
 * column) that the memory freed with the previous batches comes back (the C heap's free lists, the
 * allocator's pool) instead of fresh pages, each a page fault on first touch. The
 * consumer may keep a batch's buffers (retain them: a C Data export, gRPC) as long as it likes: the
 * reader never writes memory it handed out, and decoded chunks never leave it.
 *
 * <p><b>The reader reuses one root for every batch</b>: {@link #loadNextBatch} replaces what the root
 * held. The caller owns the reader and must close it, which releases the root and the chunks decoded
 * ahead. Made by {@link DatasetTable#reader}.
 */
public final class DatasetReader extends SchemaRootReader {
  private final DatasetTable table;
  private final List<Box> chunks;
  private final int batchRows;
  private final ScratchBuffers scratch;
  private final boolean ownsScratch;
  private final ReadAhead<Chunk> readAhead;
  private final Executor executor;
  private Chunk current;
  private Box batchBox;
  private long bytesLoaded;

  /** One decoded chunk of the grid: a column's values each, and the next of its parts to load. */
  private static final class Chunk implements AutoCloseable {
    final Box box;
    final List<ChunkColumn> columns;
    final Parts parts;
    long next;

    Chunk(Box box, List<ChunkColumn> columns, int batchRows) {
      this.box = box;
      this.columns = columns;
      this.parts = new Parts(box, batchRows);
    }

    @Override
    public void close() {
      columns.forEach(ChunkColumn::close);
    }
  }

  DatasetReader(BufferAllocator allocator, DatasetTable table, List<Box> chunks, int batchRows) {
    this(allocator, table, chunks, batchRows, null);
  }

  /** As above, decoding into memory {@code scratch} lends when not null (borrowed: closing the reader leaves it open). */
  DatasetReader(BufferAllocator allocator, DatasetTable table, List<Box> chunks, int batchRows, ScratchBuffers scratch) {
    super(allocator);
    this.table = table;
    this.chunks = chunks;
    this.batchRows = batchRows;
    this.executor = table.dataset().group().options().executor();
    for (Box c : chunks.isEmpty() ? List.<Box>of() : List.of(chunks.get(0))) {
      if (c.size() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a chunk of the grid " + table + " has more cells than one vector holds");
      }
    }
    this.ownsScratch = scratch == null;
    this.scratch = scratch == null ? new ScratchBuffers(allocator, "dataset reader's decoded chunks") : scratch;
    this.readAhead = new ReadAhead<>(0, chunks.size(), 1, depth(chunks.isEmpty() ? 0 : chunks.get(0).size(),
        batchRows), (from, to) -> decode(from.intValue()), executor);
  }

  /**
   * Chunks decoded ahead: about {@link ReadAhead#defaultDepth} batches' worth of rows, at least one
   * chunk. A chunk of many batches keeps the decoder busy while the consumer takes them, and each chunk
   * held ahead is memory the scratch buffers cannot lend again yet (first touches of fresh pages).
   */
  static int depth(long chunkCells, int batchRows) {
    int most = ReadAhead.defaultDepth();
    if (batchRows == 0 || chunkCells <= batchRows) {
      return most;
    }
    return (int) Math.max(1, Math.min(most, (long) most * batchRows / chunkCells));
  }

  /** The table this reader reads. */
  public DatasetTable table() {
    return table;
  }

  /**
   * The cells of the grid the batch last loaded holds (in C order), or null before the first: for a
   * consumer that computes columns of its own per batch (Spark's dimension columns).
   */
  public Box batchBox() {
    return batchBox;
  }

  private Chunk decode(int i) {
    Box box = chunks.get(i);
    List<ChunkColumn> columns = WorkSharing.map(table.columns(), c -> table.chunkColumn(c, box, scratch), executor);
    return new Chunk(box, columns, batchRows);
  }

  @Override
  protected Schema readSchema() {
    return table.schema();
  }

  /**
   * Loads the next batch into the root (the same root every time: its previous contents are released).
   * Returns false after the last. A chunk that cannot be read throws the {@link
   * dev.zarrow.error.ZarrException} naming the dataset, variable and chunk.
   */
  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (current != null && current.next == current.parts.count()) {
      current.close(); // its lent memory goes back to the scratch buffers
      current = null;
    }
    if (current == null) {
      current = readAhead.next();
      if (current == null) {
        return false;
      }
    }
    Box part = current.parts.get(current.next++);
    VectorSchemaRoot root = getVectorSchemaRoot();
    List<FieldVector> targets = root.getFieldVectors();
    List<GridColumn> columns = table.columns();
    for (int i = 0; i < targets.size(); i++) {
      try (FieldVector values = table.part(columns.get(i), current.columns.get(i), part, allocator)) {
        Move.into(values, targets.get(i));
      }
    }
    root.setRowCount(Math.toIntExact(part.size()));
    batchBox = part;
    for (FieldVector v : targets) {
      bytesLoaded += v.getBufferSize();
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return bytesLoaded;
  }

  /** Waits for the chunks being decoded ahead and releases them, then the scratch buffers (when its own). */
  @Override
  protected void closeReadSource() {
    try {
      readAhead.close();
      if (current != null) {
        current.close();
        current = null;
      }
    } finally {
      if (ownsScratch) {
        scratch.close();
      }
    }
  }

  /**
   * The consecutive parts of a chunk's box of at most {@code batchRows} cells each (0: the box),
   * each whole slabs along dimension {@code d}, the outermost whose slabs fit, at one index of the
   * dimensions before it.
   */
  static final class Parts {
    private final Box box;
    private final int d;
    private final long step;
    private final long steps;
    private final long count;

    Parts(Box box, int batchRows) {
      this.box = box;
      int rank = box.rank();
      if (batchRows == 0 || box.size() <= batchRows || rank == 0) {
        d = -1;
        step = 0;
        steps = 1;
        count = 1;
        return;
      }
      long slab = 1; // cells per index of dimension d
      int at = rank - 1;
      while (at > 0 && slab * box.shape(at) <= batchRows) {
        slab *= box.shape(at);
        at--;
      }
      d = at;
      step = Math.max(1, batchRows / slab);
      steps = (box.shape(d) + step - 1) / step;
      long outer = 1;
      for (int k = 0; k < d; k++) {
        outer *= box.shape(k);
      }
      count = outer * steps;
    }

    long count() {
      return count;
    }

    /** Part {@code p}, in C order of the cells. */
    Box get(long p) {
      if (d < 0) {
        return box;
      }
      long[] start = box.start();
      long[] shape = box.shape();
      long j = p % steps;
      long outer = p / steps;
      for (int k = d - 1; k >= 0; k--) {
        start[k] += outer % shape[k];
        outer /= shape[k];
        shape[k] = 1;
      }
      start[d] += j * step;
      shape[d] = Math.min(step, box.shape(d) - j * step);
      return new Box(start, shape);
    }
  }
}
