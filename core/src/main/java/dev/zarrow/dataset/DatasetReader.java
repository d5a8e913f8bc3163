package dev.zarrow.dataset;

import dev.zarrow.grid.Box;
import dev.zarrow.internal.ReadAhead;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.ipc.SchemaRootReader;
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
 * one batch per chunk of the grid (or region), in the order given, each batch's cells in C order.
 * Chunks decode ahead on the group's executor ({@link ReadAhead}, a few chunks besides the current
 * one), each chunk's columns in parallel, so memory holds a few chunks whatever the dataset's size.
 *
 * <p><b>The reader reuses one root for every batch</b>: {@link #loadNextBatch} replaces what the root
 * held. The caller owns the reader and must close it, which releases the root and the chunks decoded
 * ahead. Made by {@link DatasetTable#reader}.
 */
public final class DatasetReader extends SchemaRootReader {
  private final DatasetTable table;
  private final List<Box> chunks;
  private final ReadAhead<Chunk> readAhead;
  private final Executor executor;
  private long bytesLoaded;

  /** One decoded chunk of the grid: a vector per column, all of its cells. */
  private record Chunk(List<FieldVector> columns, int rows) implements AutoCloseable {
    @Override
    public void close() {
      columns.forEach(FieldVector::close);
    }
  }

  DatasetReader(BufferAllocator allocator, DatasetTable table, List<Box> chunks) {
    super(allocator);
    this.table = table;
    this.chunks = chunks;
    this.executor = table.dataset().group().options().executor();
    for (Box c : chunks.isEmpty() ? List.<Box>of() : List.of(chunks.get(0))) {
      if (c.size() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a chunk of the grid " + table + " has more cells than one batch holds");
      }
    }
    this.readAhead = new ReadAhead<>(0, chunks.size(), 1, ReadAhead.defaultDepth(), (from, to) -> decode(from.intValue()),
        executor);
  }

  /** The table this reader reads. */
  public DatasetTable table() {
    return table;
  }

  private Chunk decode(int i) {
    Box box = chunks.get(i);
    List<FieldVector> vectors = WorkSharing.map(table.columns(), c -> table.read(c, box, allocator), executor);
    return new Chunk(vectors, Math.toIntExact(box.size()));
  }

  @Override
  protected Schema readSchema() {
    return table.schema();
  }

  /**
   * Loads the next chunk into the root (the same root every time: its previous contents are released).
   * Returns false after the last. A chunk that cannot be read throws the {@link
   * dev.zarrow.error.ZarrException} naming the dataset, variable and chunk.
   */
  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    Chunk chunk = readAhead.next();
    if (chunk == null) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    List<FieldVector> targets = root.getFieldVectors();
    try (chunk) {
      for (int i = 0; i < targets.size(); i++) {
        Move.into(chunk.columns().get(i), targets.get(i));
      }
      root.setRowCount(chunk.rows());
    }
    for (FieldVector v : targets) {
      bytesLoaded += v.getBufferSize();
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return bytesLoaded;
  }

  /** Waits for the chunks being decoded ahead and releases them. */
  @Override
  protected void closeReadSource() {
    readAhead.close();
  }
}
