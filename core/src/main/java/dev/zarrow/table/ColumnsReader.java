package dev.zarrow.table;

import dev.zarrow.error.MetadataException;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Move;
import dev.zarrow.internal.ReadAhead;
import dev.zarrow.internal.WorkSharing;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import dev.zarrow.ipc.SchemaRootReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What {@link ArrayReader} and {@link TableReader} share: an {@link ArrowReader} over columns of equal
 * row counts, reading a batch of rows at a time, of all rows or of a range of them (rows {@code [start,
 * end)}: one reader per range lets threads, processes or machines share the reading of one table).
 *
 * <p>Batches are decoded ahead on the executor ({@link ReadAhead}, at most {@link #readAheadDepth}
 * batches besides the current one), each batch's columns in parallel. The decoded vectors' buffers
 * move into the root without a copy. Dictionary-encoded fields are encoded per batch against the
 * stored field; the reader serves the batch's dictionaries ({@link #lookup}), so a dictionary may
 * change from batch to batch ({@link dev.zarrow.ipc.IpcStreamWriter} then writes the replacement
 * before the batch that needs it, inner dictionaries first).
 */
abstract class ColumnsReader extends SchemaRootReader {
  private final Schema schema;
  private final List<Column> columns;
  private final BatchEncoder encoder;
  private final boolean[] encoded;
  private final ReadAhead<Batch> readAhead;
  private final long rows;
  private long bytesLoaded;

  /** A reader of rows {@code [start, end)} of {@code columns}; {@code end} -1 means to the last row. */
  ColumnsReader(BufferAllocator allocator, List<Column> columns, Map<String, String> schemaMetadata, int batchRows,
      long start, long end, Executor executor, String what) {
    super(allocator);
    if (batchRows < 0) {
      throw new IllegalArgumentException("batchRows " + batchRows + " is negative");
    }
    this.columns = List.copyOf(columns);
    List<Field> fields = this.columns.stream().map(Column::field).toList();
    this.schema = new Schema(fields, schemaMetadata);
    this.rows = this.columns.isEmpty() ? 0 : this.columns.get(0).rows();
    for (Column c : this.columns) {
      if (c.rows() != rows) {
        throw new MetadataException(what + ": columns do not align: " + describeRows(this.columns));
      }
    }
    long last = end == -1 ? rows : end;
    if (start < 0 || start > last || last > rows) {
      throw new IllegalArgumentException(what + ": rows [" + start + ", " + end + ") are not a range of its " + rows + " rows");
    }
    this.encoder = new BatchEncoder(fields);
    this.encoded = new boolean[fields.size()];
    for (int i = 0; i < encoder.size(); i++) {
      encoded[encoder.column(i)] = true;
    }
    long step = batchRows > 0 ? batchRows : Math.min(chunkRows(), Integer.MAX_VALUE);
    this.readAhead = new ReadAhead<>(start, last, step, readAheadDepth(), this::decode, executor);
  }

  /** The rows of the whole table or array (not only of the range read). */
  public long rows() {
    return rows;
  }

  /**
   * The rows of one stored chunk of the first column, a whole shard when sharded (1 without columns):
   * the unit to split the rows by when several readers share a table, so that none reads another's
   * chunk.
   */
  public long chunkRows() {
    return columns.isEmpty() ? 1 : columns.get(0).chunkRows();
  }

  /** Batches decoded ahead of the consumer: one per core, at least 2 and at most 8. */
  static int readAheadDepth() {
    return ReadAhead.defaultDepth();
  }

  private static String describeRows(List<Column> columns) {
    StringBuilder out = new StringBuilder();
    for (Column c : columns) {
      out.append(out.length() == 0 ? "" : ", ").append('\'').append(c.array().path()).append("' has ").append(c.rows()).append(" rows");
    }
    return out.toString();
  }

  private Batch decode(long start, long end) {
    List<FieldVector> vectors = WorkSharing.map(columns, c -> c.read(start, end, allocator), executorOf());
    return new Batch(vectors, Math.toIntExact(end - start));
  }

  private Executor executorOf() {
    return columns.get(0).array().options().executor();
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  /**
   * Loads the next batch into the root (the same root every time: its previous contents are
   * released). Returns false after the last batch. A chunk that cannot be read throws the {@link
   * dev.zarrow.error.ZarrException} naming it.
   */
  @Override
  public boolean loadNextBatch() throws java.io.IOException {
    prepareLoadNextBatch();
    Batch batch = readAhead.next();
    if (batch == null) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    List<FieldVector> targets = root.getFieldVectors();
    try (batch; Dictionaries.Encoded dictionaryForm = encoder.isEmpty() ? null : encoder.encode(batch.columns(), batch.rows(), allocator)) {
      if (dictionaryForm != null) {
        List<FieldVector> indexed = dictionaryForm.vector().getChildrenFromFields();
        for (int i = 0; i < encoder.size(); i++) {
          Move.into(indexed.get(i), targets.get(encoder.column(i)));
        }
        for (Map.Entry<Long, FieldVector> d : dictionaryForm.dictionaries().entrySet()) {
          Move.into(d.getValue(), dictionaries.get(d.getKey()).getVector());
        }
      }
      for (int i = 0; i < targets.size(); i++) {
        if (!encoded[i]) {
          Move.into(batch.columns().get(i), targets.get(i));
        }
      }
      root.setRowCount(batch.rows());
    }
    for (FieldVector v : targets) {
      bytesLoaded += v.getBufferSize();
    }
    return true;
  }

  /** The bytes of Arrow data loaded into the root so far. */
  @Override
  public long bytesRead() {
    return bytesLoaded;
  }

  /** Waits for the batches being decoded ahead and releases them. */
  @Override
  protected void closeReadSource() {
    readAhead.close();
  }
}
