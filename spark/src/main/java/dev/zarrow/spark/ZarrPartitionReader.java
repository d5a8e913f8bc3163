package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.dataset.DatasetReader;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.Store;
import dev.zarrow.vector.Dictionaries;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one input partition (a table's rows, or a dataset's chunks) as columnar batches: zarrow's decoded vectors handed to Spark without
 * converting a row or copying a value, through {@link FlatColumnVector} (flat types),
 * {@link WideningVector} (types Spark lacks) or {@link ArrowColumnVector} (nested types). Dictionary-encoded
 * columns are decoded per batch. A batch of flat columns bigger than {@code batchRows} (a whole chunk)
 * goes to Spark as slices of that many rows, views over the same vectors: Spark's row conversion and
 * aggregation then run over a few thousand rows that stay in the cache, as over its own Parquet
 * batches. Each batch is valid until the next {@link #next}.
 */
final class ZarrPartitionReader implements PartitionReader<ColumnarBatch> {
  /** Rows per batch of a scan that reads no column (a count). */
  private static final long COUNT_BATCH = 1 << 20;
  /** Rows per batch Spark sees by default: its own columnar readers' batch ({@code spark.sql.parquet.columnarReaderBatchSize}). */
  static final int DEFAULT_BATCH_ROWS = 4096;

  private final StructType schema;
  private final List<Field> stored;
  private final Chunks chunks;
  private int chunk; // the next region's index in chunks, when no column is read
  private final Store store;
  private final BufferAllocator allocator;
  private final ArrowReader reader;
  private final List<FieldVector> decoded = new ArrayList<>();
  private final int batchRows;
  private long countRemaining;
  private ColumnarBatch batch;
  private SlicedColumn[] views; // the loaded batch's columns when sliced, else null
  private int loadedRows;
  private int sliceStart;

  /** What reads a partition's columns: the table's rows or the dataset's chunks, from the task's own store. */
  interface Opener {
    ArrowReader open(Store store, BufferAllocator allocator, List<String> columns);
  }

  /**
   * A dataset partition's regions and the columns computed for them rather than read: the dimensions'
   * ({@link DatasetLayout}), for the cells of each batch the dataset reader loads ({@link
   * DatasetReader#batchBox}), or of each region when no column is read.
   */
  private static final class Chunks implements AutoCloseable {
    private final DatasetLayout layout;
    private final List<Box> regions;
    private final Map<String, ColumnVector> values = new HashMap<>();
    private final List<FieldVector> vectors = new ArrayList<>();

    Chunks(DatasetLayout layout, List<Box> regions, List<String> columns, StructType schema, BufferAllocator allocator) {
      this.layout = layout;
      this.regions = regions;
      for (String name : columns) {
        FieldVector v = layout.values(name, allocator);
        vectors.add(v);
        values.put(name, ZarrPartitionReader.column(schema.apply(name).dataType(), v));
      }
    }

    /** The column {@code name} (a computed dimension) over {@code box}, the cells of a batch; shows no row until sliced. */
    ColumnVector column(String name, Box box) {
      int d = layout.dimensions().indexOf(name);
      long stride = 1;
      for (int k = d + 1; k < box.rank(); k++) {
        stride *= box.shape(k);
      }
      return new DimensionColumnVector(values.get(name), box.start(d), box.shape(d), stride);
    }

    @Override
    public void close() {
      vectors.forEach(FieldVector::close);
    }
  }

  /**
   * Reads {@code stored} (the scanned columns) with {@code opener}; {@code rows}, the partition's rows,
   * is what a scan of no column (a count) gives, without reading anything. Spark gets batches of at
   * most {@code batchRows} rows when the columns are flat (0: {@link #DEFAULT_BATCH_ROWS}).
   */
  ZarrPartitionReader(Location location, StructType schema, List<Field> stored, long rows, int batchRows, Opener opener) {
    this(location, schema, stored, rows, batchRows, opener, null, null);
  }

  /**
   * A dataset partition's reader: as above, but the columns of the dimensions whose values {@code layout}
   * carries are computed for each of the partition's regions, not read.
   */
  ZarrPartitionReader(Location location, StructType schema, List<Field> stored, long rows, int batchRows, Opener opener,
      DatasetLayout layout, List<Box> regions) {
    this.schema = schema;
    this.batchRows = batchRows > 0 ? batchRows : DEFAULT_BATCH_ROWS;
    List<String> computed = layout == null ? List.of()
        : stored.stream().map(Field::getName).filter(layout::computes).toList();
    this.stored = stored.stream().filter(f -> !computed.contains(f.getName())).toList();
    if (stored.isEmpty()) {
      this.store = null;
      this.allocator = null;
      this.reader = null;
      this.chunks = null;
      this.countRemaining = rows;
      return;
    }
    this.allocator = new RootAllocator();
    Chunks computing = null;
    Store opened = null;
    try {
      computing = computed.isEmpty() ? null : new Chunks(layout, regions, computed, schema, allocator);
      opened = this.stored.isEmpty() ? null : location.open();
      this.reader = opened == null ? null : opener.open(opened, allocator, this.stored.stream().map(Field::getName).toList());
    } catch (RuntimeException e) {
      if (computing != null) {
        computing.close();
      }
      if (opened != null) {
        opened.close();
      }
      allocator.close();
      throw e;
    }
    this.chunks = computing;
    this.store = opened;
  }

  @Override
  public boolean next() throws IOException {
    if (views != null && sliceStart + batch.numRows() < loadedRows) {
      sliceStart += batch.numRows();
      showSlice();
      return true;
    }
    releaseDecoded();
    if (reader == null && chunks == null) {
      int rows = (int) Math.min(countRemaining, COUNT_BATCH);
      countRemaining -= rows;
      batch = new ColumnarBatch(new ColumnVector[0], rows);
      return rows > 0;
    }
    List<FieldVector> vectors;
    Box cells = null; // the batch's cells of the grid, for computed columns
    if (reader != null) {
      if (!reader.loadNextBatch()) {
        return false;
      }
      vectors = reader.getVectorSchemaRoot().getFieldVectors();
      loadedRows = reader.getVectorSchemaRoot().getRowCount();
      if (chunks != null) {
        cells = ((DatasetReader) reader).batchBox();
      }
    } else {
      if (chunk == chunks.regions.size()) {
        return false;
      }
      vectors = List.of();
      cells = chunks.regions.get(chunk++);
      loadedRows = Math.toIntExact(cells.size());
    }
    ColumnVector[] columns = new ColumnVector[schema.size()];
    int read = 0;
    for (int i = 0; i < columns.length; i++) {
      DataType type = schema.fields()[i].dataType();
      if (read < stored.size() && stored.get(read).getName().equals(schema.fields()[i].name())) {
        FieldVector v = vectors.get(read);
        Field field = stored.get(read++);
        if (Dictionaries.isEncoded(field)) {
          v = decode(v, field);
        }
        columns[i] = column(type, v);
      } else {
        columns[i] = chunks.column(schema.fields()[i].name(), cells);
      }
    }
    batch = new ColumnarBatch(columns, loadedRows);
    views = null;
    if (Arrays.stream(columns).allMatch(c -> c instanceof SlicedColumn)) {
      views = Arrays.copyOf(columns, columns.length, SlicedColumn[].class);
      sliceStart = 0;
      showSlice();
    } else {
      for (ColumnVector c : columns) {
        if (c instanceof SlicedColumn s) {
          s.slice(0, loadedRows); // the whole batch at once, beside columns that cannot show a slice
        }
      }
    }
    return true;
  }

  /** Shows Spark the rows {@code [sliceStart, sliceStart + batchRows)} of the loaded batch, no more than it has. */
  private void showSlice() {
    int rows = Math.min(batchRows, loadedRows - sliceStart);
    for (SlicedColumn v : views) {
      v.slice(sliceStart, rows);
    }
    batch.setNumRows(rows);
  }

  /** Flat vectors read straight from their buffers, the rest through Arrow's accessors. */
  private static ColumnVector column(DataType type, FieldVector v) {
    if (SparkTypes.widened(v.getField().getType())) {
      return new WideningVector(type, v);
    }
    return FlatColumnVector.of(type, v).orElseGet(() -> new ArrowColumnVector(v));
  }

  private FieldVector decode(FieldVector indexed, Field field) {
    Map<Long, FieldVector> dictionaries = new HashMap<>();
    for (long id : Dictionaries.valueFields(field).keySet()) {
      Dictionary d = reader.lookup(id);
      dictionaries.put(id, d.getVector());
    }
    FieldVector out = Dictionaries.decode(indexed, field, dictionaries, allocator);
    decoded.add(out);
    return out;
  }

  private void releaseDecoded() {
    decoded.forEach(FieldVector::close);
    decoded.clear();
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public void close() throws IOException {
    if (allocator == null) {
      return;
    }
    releaseDecoded();
    try (store; allocator; chunks; reader) {
      // the reader first (its root and read-ahead), the computed columns' values, then the allocator, then the store
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /**
   * Makes the readers of a scan's partitions; sent to the executors. {@code dataset}: the options of a
   * dataset's scan ({@link DatasetPartition}s), null for a table's ({@link ZarrInputPartition}s).
   */
  record Factory(Location location, StructType schema, String storedJson, int batchRows, DatasetLayout dataset)
      implements PartitionReaderFactory {
    /** Arrow fields are not serializable: they travel in the JSON-integration spelling. */
    Factory(Location location, StructType schema, List<Field> stored, int batchRows, DatasetLayout dataset) {
      this(location, schema, Json.compact(FieldJson.writeSchema(new Schema(stored))), batchRows, dataset);
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
      return true;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      throw new UnsupportedOperationException("zarr reads columnar batches");
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
      List<Field> stored = FieldJson.parseSchema(Json.parse(storedJson, "the scanned columns")).getFields();
      if (partition instanceof DatasetPartition part) {
        List<Box> regions = part.regionList();
        return new ZarrPartitionReader(location, schema, stored, part.rows(), batchRows, (store, allocator, columns) ->
            dataset.read().table(Zarr.openGroup(store, "", TaskOptions.current()), columns).regionReader(allocator, regions, TaskScratch.SCRATCH), dataset,
            regions);
      }
      ZarrInputPartition rows = (ZarrInputPartition) partition;
      return new ZarrPartitionReader(location, schema, stored, rows.end() - rows.start(), batchRows,
          (store, allocator, columns) -> ZarrSource.open(store).reader(allocator, columns, batchRows, rows.start(), rows.end()));
    }
  }
}
