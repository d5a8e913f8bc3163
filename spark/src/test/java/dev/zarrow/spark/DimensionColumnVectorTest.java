package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset's dimension columns computed from the dimensions' values ({@link DimensionColumnVector},
 * through {@link DatasetLayout}) read exactly as the columns the dataset reader materialises: every row
 * of every chunk (edge chunks clipped), of a CF time, float and position (no index coordinate)
 * dimension, in slices of several sizes that start and end inside and across a step along each
 * dimension, and with the partition's chunks in any order.
 */
class DimensionColumnVectorTest {
  private static final int TIMES = 7;
  private static final int LATITUDES = 5;
  private static final int LEVELS = 4; // no index coordinate: int64 positions

  @TempDir
  Path dir;

  private void write() {
    write(dir, TIMES, LATITUDES, LEVELS, new int[] {3, 2, 3});
  }

  /** time (CF hours), latitude (float) and level (no coordinate) over {@code times x latitudes x levels}, t in chunks of {@code chunks}. */
  private static void write(Path dir, int times, int latitudes, int levels, int[] chunks) {
    try (FileSystemStore store = FileSystemStore.open(dir); BufferAllocator allocator = new RootAllocator()) {
      ZarrGroup group = Zarr.createGroup(store, "");
      ZarrArray time = group.createArray("time", ArraySpec.of(FixedType.INT64, times).chunks(times).dimensionNames(List.of("time"))
          .attributes(JsonNodeFactory.instance.objectNode().put("units", "hours since 2000-01-01").put("calendar", "proleptic_gregorian")));
      try (BigIntVector v = new BigIntVector("time", allocator)) {
        v.allocateNew(times);
        for (int i = 0; i < times; i++) {
          v.set(i, 6L * i);
        }
        v.setValueCount(times);
        time.write(0, v);
      }
      ZarrArray lat = group.createArray("latitude", ArraySpec.of(FixedType.FLOAT64, latitudes).chunks(latitudes)
          .dimensionNames(List.of("latitude")));
      try (Float8Vector v = new Float8Vector("latitude", allocator)) {
        v.allocateNew(latitudes);
        for (int i = 0; i < latitudes; i++) {
          v.set(i, 90.0 - 7.5 * i);
        }
        v.setValueCount(latitudes);
        lat.write(0, v);
      }
      int cells = times * latitudes * levels;
      ZarrArray t = group.createArray("t", ArraySpec.of(FixedType.FLOAT32, times, latitudes, levels).chunks(chunks)
          .dimensionNames(List.of("time", "latitude", "level")));
      try (Float4Vector v = new Float4Vector("t", allocator)) {
        v.allocateNew(cells);
        for (int i = 0; i < cells; i++) {
          v.set(i, i);
        }
        v.setValueCount(cells);
        t.write(Box.of(times, latitudes, levels), v);
      }
    }
  }

  /** Every row of every batch of a partition of {@code chunks}, each column's value by Spark's getter, columns in order. */
  private List<List<Object>> rows(DatasetLayout layout, StructType schema, List<Field> fields, List<Box> chunks, int batchRows)
      throws IOException {
    return rows(dir, layout, schema, fields, chunks, batchRows);
  }

  private static List<List<Object>> rows(Path dir, DatasetLayout layout, StructType schema, List<Field> fields, List<Box> chunks,
      int batchRows) throws IOException {
    Location location = new Location(dir.toString(), new Configuration(false));
    DatasetPartition partition = new DatasetPartition(chunks, 3, new String[0]);
    var factory = new ZarrPartitionReader.Factory(location, schema, fields, batchRows, layout);
    List<List<Object>> out = new ArrayList<>();
    try (PartitionReader<ColumnarBatch> reader = factory.createColumnarReader(partition)) {
      while (reader.next()) {
        ColumnarBatch batch = reader.get();
        assertTrue(batch.numRows() <= batchRows, "a slice of at most " + batchRows + " rows: " + batch.numRows());
        for (int r = 0; r < batch.numRows(); r++) {
          List<Object> row = new ArrayList<>();
          for (int c = 0; c < batch.numCols(); c++) {
            row.add(value(batch.column(c), schema.fields()[c].dataType(), r));
          }
          out.add(row);
        }
        for (int c = 0; c < batch.numCols(); c++) { // the slice's null count, asked after its values
          int nulls = 0;
          for (int r = 0; r < batch.numRows(); r++) {
            nulls += batch.column(c).isNullAt(r) ? 1 : 0;
          }
          assertEquals(nulls, batch.column(c).numNulls());
        }
      }
    }
    return out;
  }

  private static Object value(ColumnVector column, DataType type, int row) {
    if (column.isNullAt(row)) {
      return null;
    }
    if (type.equals(DataTypes.DoubleType)) {
      return column.getDouble(row);
    }
    if (type.equals(DataTypes.FloatType)) {
      return column.getFloat(row);
    }
    return column.getLong(row); // timestamps and int64 positions
  }

  @Test
  void computedDimensionsReadAsMaterialisedOnes() throws IOException {
    write();
    DatasetLayout computed;
    DatasetLayout materialised;
    DatasetLayout mixed;
    StructType schema;
    List<Field> fields;
    List<Box> chunks = new ArrayList<>();
    try (FileSystemStore store = FileSystemStore.open(dir); BufferAllocator allocator = new RootAllocator()) {
      DatasetRead read = DatasetRead.of(Map.of());
      DatasetTable table = read.table(Zarr.openGroup(store, ""), null);
      List<String> columns = table.schema().getFields().stream().map(Field::getName).toList();
      assertEquals(List.of("time", "latitude", "level", "t"), columns);
      fields = table.schema().getFields();
      schema = SparkTypes.toSpark(table.schema());
      computed = DatasetLayout.of(read, table, columns, allocator, DatasetLayout.MAX_VALUES);
      materialised = DatasetLayout.of(read, table, List.of(), allocator, DatasetLayout.MAX_VALUES);
      mixed = DatasetLayout.of(read, table, columns, allocator, LATITUDES); // time is longer: read
      for (long i = table.chunkCount() - 1; i >= 0; i--) { // reversed: a partition's chunks come in its own order
        chunks.add(table.chunkBox(table.chunkCoords(i)));
      }
    }
    assertTrue(computed.computes("time") && computed.computes("latitude") && computed.computes("level"));
    assertTrue(!computed.computes("t") && !materialised.computes("time"));
    assertTrue(!mixed.computes("time") && mixed.computes("latitude") && mixed.computes("level"));
    List<List<Object>> expected = rows(materialised, schema, fields, chunks, 1 << 20);
    assertEquals(TIMES * LATITUDES * LEVELS, expected.size());
    for (int batchRows : new int[] {1, 2, 5, 7, 13, 1 << 20}) {
      assertEquals(expected, rows(computed, schema, fields, chunks, batchRows), "slices of " + batchRows + " rows");
      assertEquals(expected, rows(mixed, schema, fields, chunks, batchRows), "time read, slices of " + batchRows + " rows");
    }
    // only dimension columns: nothing is read, the rows come from the grid
    List<List<Object>> dims = expected.stream().map(r -> r.subList(0, 3)).toList();
    assertEquals(dims, rows(computed, new StructType(java.util.Arrays.copyOf(schema.fields(), 3)), fields.subList(0, 3), chunks, 5));
  }

  /**
   * Regions larger than the dataset reader's batches (a shard's runs of inner chunks): each is cut into
   * batches, whose computed columns follow the cells of each batch, not of its region.
   */
  @Test
  void regionsCutIntoBatchesComputeTheColumnsOfEachBatch() throws IOException {
    Path large = dir.resolve("large");
    int times = 5;
    int latitudes = 3;
    int levels = DatasetTable.DEFAULT_BATCH_ROWS / 2 + 7; // a time step is 1.5 batches: cut inside it too
    write(large, times, latitudes, levels, new int[] {2, 3, levels});
    try (FileSystemStore store = FileSystemStore.open(large); BufferAllocator allocator = new RootAllocator()) {
      DatasetRead read = DatasetRead.of(Map.of());
      DatasetTable table = read.table(Zarr.openGroup(store, ""), null);
      List<String> columns = table.schema().getFields().stream().map(Field::getName).toList();
      List<Field> fields = table.schema().getFields();
      StructType schema = SparkTypes.toSpark(table.schema());
      DatasetLayout computed = DatasetLayout.of(read, table, columns, allocator, DatasetLayout.MAX_VALUES);
      DatasetLayout materialised = DatasetLayout.of(read, table, List.of(), allocator, DatasetLayout.MAX_VALUES);
      // the first two chunks as one region, then the last chunk (one time step)
      List<Box> regions = List.of(new Box(new long[] {0, 0, 0}, new long[] {4, latitudes, levels}),
          new Box(new long[] {4, 0, 0}, new long[] {1, latitudes, levels}));
      List<List<Object>> expected = rows(large, materialised, schema, fields, regions, 4096);
      assertEquals((long) times * latitudes * levels, expected.size());
      for (int r = 0; r < expected.size(); r += 99_991) { // the materialised columns themselves: the row's cell
        long level = r % levels;
        assertEquals(level, expected.get(r).get(2));
        assertEquals((float) r, expected.get(r).get(3));
      }
      assertEquals(expected, rows(large, computed, schema, fields, regions, 4096));
    }
  }

  @Test
  void slicesStepAlongTheDimension() {
    try (BufferAllocator allocator = new RootAllocator(); Float8Vector values = new Float8Vector("d", allocator)) {
      values.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        values.set(i, i);
      }
      values.setValueCount(10);
      ColumnVector base = FlatColumnVector.of(DataTypes.DoubleType, values).orElseThrow();
      // a chunk from position 4, 3 long along the dimension, `stride` cells per step (a row each, runs of
      // equal positions, runs longer than most slices); the chunk repeated twice
      for (int stride : new int[] {1, 2, 5}) {
        int rows = stride * 3 * 2;
        DimensionColumnVector column = new DimensionColumnVector(base, 4, 3, stride);
        for (int from = 0; from < rows; from++) {
          for (int count = 0; from + count <= rows; count++) {
            column.slice(from, count);
            for (int r = 0; r < count; r++) {
              assertEquals(4 + (from + r) / stride % 3, column.getDouble(r), "row " + r + " of the slice at " + from + ", stride " + stride);
            }
          }
        }
        assertInstanceOf(SlicedColumn.class, column);
      }
    }
  }
}
