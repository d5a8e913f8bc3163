package dev.zarrow.dataset;

import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.grid.Box;
import dev.zarrow.grid.ChunkGrid;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.vector.Broadcast;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The table of some data variables of a {@link Dataset}: what xarray's {@code
 * Dataset.to_dataframe().reset_index()} gives, one row per cell of the <em>grid</em>.
 *
 * <p><b>Grid.</b> Its dimensions are the union of the selected variables' dimensions (by default every
 * dimension of the dataset, as xarray's table has), in the order the variables name them, taking the
 * variables of highest rank first (ties in the group's order): {@code t2m(time, latitude, longitude)}
 * gives {@code time, latitude, longitude}. The grid is cut into chunks: along each dimension the chunk
 * length of the first such variable that has it (then of the coordinates); a chunk of a sharded variable
 * is its shard, whose inner chunks (the {@link #partShape}) a region read fetches alone. Lower-rank
 * variables broadcast over the dimensions they lack, as in xarray.
 *
 * <p><b>Columns</b>, named like the arrays, in this order: each dimension (its index coordinate's
 * values, CF-decoded; without one, the int64 position along it), then each non-index coordinate whose
 * dimensions are all in the grid (group order), then each selected data variable. Each variable's
 * attributes are its field's metadata (strings as they are, other values as JSON), the group's the
 * schema's. See {@link CfDecoder} for the decoding.
 *
 * <p><b>Rows</b> come chunk by chunk over the grid: chunks in C order of their grid coordinates, and
 * the cells of a chunk in C order. A batch is a part of one chunk of the grid (see {@link DatasetReader}).
 * Chunk {@code i} (linear, C order)
 * has grid coordinates {@link #chunkCoords}, cells {@link #chunkBox}. Readers of disjoint chunk sets
 * (Flight endpoints, Spark partitions) together read the table once.
 *
 * <p>Immutable; safe to share between threads. Made by {@link Dataset#table}.
 */
public final class DatasetTable {
  /** How one column is made: from a variable (any rank, broadcast) or a dimension's positions. */
  record GridColumn(Field field, Variable variable, CfDecoder decoder, int[] axes, int dimensionAxis) {}

  private final Dataset dataset;
  private final List<String> dimensions;
  private final long[] shape;
  private final int[] chunkShape;
  private final int[] partShape;
  private final List<GridColumn> columns;
  private final Schema schema;

  private DatasetTable(Dataset dataset, List<String> dimensions, long[] shape, int[] chunkShape, int[] partShape,
      List<GridColumn> columns) {
    this.dataset = dataset;
    this.dimensions = List.copyOf(dimensions);
    this.shape = shape;
    this.chunkShape = chunkShape;
    this.partShape = partShape;
    this.columns = List.copyOf(columns);
    this.schema = new Schema(this.columns.stream().map(GridColumn::field).toList(), CfDecoder.metadata(dataset.attributes()));
  }

  static DatasetTable of(Dataset dataset, DatasetOptions options) {
    List<Variable> selected = new ArrayList<>();
    if (options.variables() == null) {
      dataset.dataVariables().forEach(n -> selected.add(dataset.variable(n)));
    } else {
      for (String name : options.variables()) {
        Variable v = dataset.variables().get(name);
        if (v == null || v.role() != Variable.Role.DATA) {
          throw new NoSuchNodeException("dataset '" + dataset.group().path() + "' has no data variable '" + name
              + "' (data variables: " + dataset.dataVariables() + (v == null ? "" : "; '" + name + "' is a coordinate") + ")");
        }
        selected.add(v);
      }
    }
    List<Variable> byRank = new ArrayList<>(selected);
    byRank.sort(Comparator.comparingInt(Variable::rank).reversed());
    Set<String> dims = new LinkedHashSet<>();
    byRank.forEach(v -> dims.addAll(v.dimensions()));
    List<Variable> coordinates = dataset.variables().values().stream().filter(v -> v.role() != Variable.Role.DATA).toList();
    if (options.variables() == null) {
      coordinates.forEach(v -> dims.addAll(v.dimensions())); // xarray's table has every dimension
    }
    List<String> dimList = new ArrayList<>(dims);
    long[] shape = new long[dimList.size()];
    int[] chunks = new int[dimList.size()];
    int[] parts = new int[dimList.size()];
    List<Variable> chunkSources = new ArrayList<>(byRank);
    chunkSources.addAll(coordinates);
    for (int d = 0; d < shape.length; d++) {
      String dim = dimList.get(d);
      shape[d] = dataset.dimensions().get(dim);
      for (Variable v : chunkSources) {
        int k = v.dimensions().indexOf(dim);
        if (k >= 0) {
          chunks[d] = v.array().grid().chunkShape()[k];
          parts[d] = v.array().pipeline().partShape()[k];
          break;
        }
      }
    }
    List<GridColumn> columns = new ArrayList<>();
    for (int d = 0; d < dimList.size(); d++) {
      String dim = dimList.get(d);
      Variable index = dataset.index(dim).orElse(null);
      if (index == null) {
        Field f = new Field(dim, FieldType.notNullable(new ArrowType.Int(64, true)), null);
        columns.add(new GridColumn(f, null, null, new int[] {d}, d));
      } else {
        CfDecoder decoder = CfDecoder.of(index, options.raw());
        columns.add(new GridColumn(decoder.field(), index, decoder, new int[] {d}, d));
      }
    }
    for (Variable v : coordinates) {
      if (v.role() == Variable.Role.COORDINATE && dimList.containsAll(v.dimensions())) {
        columns.add(column(v, dimList, options.raw()));
      }
    }
    for (Variable v : selected) {
      columns.add(column(v, dimList, options.raw()));
    }
    if (options.columns() != null) {
      Map<String, GridColumn> byName = new LinkedHashMap<>();
      columns.forEach(c -> byName.put(c.field().getName(), c));
      for (String name : options.columns()) {
        if (!byName.containsKey(name)) {
          throw new NoSuchNodeException("dataset '" + dataset.group().path() + "': the table has no column '" + name
              + "' (columns: " + byName.keySet() + ")");
        }
      }
      columns.removeIf(c -> !options.columns().contains(c.field().getName()));
    }
    return new DatasetTable(dataset, dimList, shape, chunks, parts, columns);
  }

  private static GridColumn column(Variable v, List<String> dims, boolean raw) {
    int[] axes = v.dimensions().stream().mapToInt(dims::indexOf).toArray();
    CfDecoder decoder = CfDecoder.of(v, raw);
    return new GridColumn(decoder.field(), v, decoder, axes, -1);
  }

  public Dataset dataset() {
    return dataset;
  }

  /** The grid's dimension names, in its order. */
  public List<String> dimensions() {
    return dimensions;
  }

  /** The grid's shape, one length per dimension. */
  public long[] shape() {
    return shape.clone();
  }

  /** The grid's chunk shape (see the class comment for where it comes from). */
  public int[] chunkShape() {
    return chunkShape.clone();
  }

  /**
   * The shape of the parts of a chunk that are read alone: along each dimension, the inner chunk length
   * of the variable that gives the {@link #chunkShape} when it is sharded (sharding its only codec),
   * else the chunk length. A region made of whole parts reads only their bytes (and the shard's index).
   */
  public int[] partShape() {
    return partShape.clone();
  }

  /** Chunks along each dimension of the grid. */
  public long[] gridShape() {
    long[] out = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      out[d] = chunkShape[d] == 0 ? 0 : (shape[d] + chunkShape[d] - 1) / chunkShape[d];
    }
    return out;
  }

  /** The number of chunks of the grid (0 when a dimension has length 0). */
  public long chunkCount() {
    long n = 1;
    for (long g : gridShape()) {
      n = Math.multiplyExact(n, g);
    }
    return n;
  }

  /** The number of rows: the grid's cell count, from the metadata alone. */
  public long rows() {
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    return n;
  }

  /** The grid coordinates of chunk {@code index} (C order over {@link #gridShape}). */
  public long[] chunkCoords(long index) {
    long[] grid = gridShape();
    if (index < 0 || index >= chunkCount()) {
      throw new IllegalArgumentException("chunk " + index + " is not one of the " + chunkCount() + " chunks of the grid");
    }
    long[] coords = new long[grid.length];
    for (int d = grid.length - 1; d >= 0; d--) {
      coords[d] = index % grid[d];
      index /= grid[d];
    }
    return coords;
  }

  /** The linear (C order) index of the chunk at grid coordinates {@code coords}. */
  public long chunkIndex(long[] coords) {
    long[] grid = gridShape();
    if (coords.length != grid.length) {
      throw new IllegalArgumentException("chunk " + Arrays.toString(coords) + " has " + coords.length
          + " coordinates; the grid has " + grid.length + " dimensions");
    }
    long index = 0;
    for (int d = 0; d < grid.length; d++) {
      if (coords[d] < 0 || coords[d] >= grid[d]) {
        throw new IllegalArgumentException("chunk " + Arrays.toString(coords) + " is outside the grid's " + Arrays.toString(grid) + " chunks");
      }
      index = index * grid[d] + coords[d];
    }
    return index;
  }

  /** The cells of the chunk at {@code coords}: a box of the grid, clipped at its edges. */
  public Box chunkBox(long[] coords) {
    chunkIndex(coords); // checks them
    return new ChunkGrid(chunkShape).chunkBox(coords, shape);
  }

  /** The Arrow schema of every batch (the decoded forms; variables' attributes as field metadata). */
  public Schema schema() {
    return schema;
  }

  /**
   * The values of dimension {@code dimension} along the whole grid, as its column holds them (the
   * index coordinate CF-decoded, or the int64 positions), for planning: which chunks hold a range of
   * times or latitudes. A new vector the caller owns and closes. A name that is no dimension of the
   * grid is a {@link NoSuchNodeException}.
   */
  public FieldVector dimensionValues(String dimension, BufferAllocator allocator) {
    int d = dimensions.indexOf(dimension);
    if (d < 0) {
      throw new NoSuchNodeException("the table has no dimension '" + dimension + "' (dimensions: " + dimensions + ")");
    }
    long[] start = new long[shape.length];
    Box whole = new Box(start, shape);
    GridColumn column = columns.stream().filter(c -> c.dimensionAxis() == d).findFirst().orElse(null);
    if (column == null) {
      Variable index = dataset.index(dimension).orElse(null);
      column = index == null ? new GridColumn(new Field(dimension, FieldType.notNullable(new ArrowType.Int(64, true)), null),
          null, null, new int[] {d}, d) : new GridColumn(CfDecoder.of(index, false).field(), index, CfDecoder.of(index, false),
          new int[] {d}, d);
    }
    return readSource(column, whole, allocator, null);
  }

  /**
   * Rows a batch holds at most by default: whole slabs of a chunk along its outer dimension (a
   * chunk of {@code (24, 181, 360)} comes as batches of 2 time steps, 130,320 rows), so that a batch's
   * buffers (about 1 MB per 8-byte column) are memory freed by the previous batches, not fresh pages
   * (see {@link DatasetReader}).
   */
  public static final int DEFAULT_BATCH_ROWS = 1 << 17;

  /** Every chunk, in order: a reader of the whole table. The caller owns the reader and closes it. */
  public DatasetReader reader(BufferAllocator allocator) {
    return reader(allocator, 0, chunkCount());
  }

  /**
   * Chunks {@code [first, end)} (linear C order indices, see {@link #chunkCoords}), in batches of at
   * most {@link #DEFAULT_BATCH_ROWS} rows (see {@link DatasetReader} for how a chunk is cut). A range
   * outside {@code [0, chunkCount()]} is an {@link IllegalArgumentException}. <b>One root, reused for
   * every batch</b>; the caller owns the reader and closes it.
   */
  public DatasetReader reader(BufferAllocator allocator, long first, long end) {
    long count = chunkCount();
    if (first < 0 || first > end || end > count) {
      throw new IllegalArgumentException("chunks [" + first + ", " + end + ") are not a range of the grid's " + count + " chunks");
    }
    List<Box> chunks = new AbstractList<>() {
      @Override
      public Box get(int i) {
        return chunkBox(chunkCoords(first + i));
      }

      @Override
      public int size() {
        return Math.toIntExact(end - first);
      }
    };
    return new DatasetReader(allocator, this, chunks, DEFAULT_BATCH_ROWS);
  }

  /**
   * The chunks at the grid coordinates {@code chunks}, in the order given, in batches of at most {@link
   * #DEFAULT_BATCH_ROWS} rows (a chunk outside the grid is an {@link IllegalArgumentException}). For
   * readers of pruned chunk sets. The caller owns the reader and closes it.
   */
  public DatasetReader reader(BufferAllocator allocator, List<long[]> chunks) {
    return reader(allocator, chunks, DEFAULT_BATCH_ROWS);
  }

  /**
   * As {@link #reader(BufferAllocator, List)}, in batches of at most {@code batchRows} rows, or (0) a
   * batch per chunk, for a consumer that pairs each batch with its chunk. A negative {@code batchRows}
   * is an {@link IllegalArgumentException}. The caller owns the reader and closes it.
   */
  public DatasetReader reader(BufferAllocator allocator, List<long[]> chunks, int batchRows) {
    if (batchRows < 0) {
      throw new IllegalArgumentException("batchRows " + batchRows + " is negative");
    }
    List<Box> boxes = new ArrayList<>();
    for (long[] c : chunks) {
      boxes.add(chunkBox(c));
    }
    return new DatasetReader(allocator, this, boxes, batchRows);
  }

  /**
   * The cells of each of {@code regions} (boxes of the grid; one outside it is an {@link
   * IllegalArgumentException}), in the order given, each cut into batches of at most {@link
   * #DEFAULT_BATCH_ROWS} rows as a chunk is ({@link DatasetReader#batchBox} says which cells a batch
   * holds), cells in C order: for readers of parts of chunks, such as the inner chunks of a shard that a
   * filter leaves ({@link #partShape}). The caller owns the reader and closes it.
   */
  public DatasetReader regionReader(BufferAllocator allocator, List<Box> regions) {
    return regionReader(allocator, regions, null);
  }

  /**
   * As {@link #regionReader(BufferAllocator, List)}, decoding the regions into memory that {@code
   * scratch} lends (null: the reader's own), for a series of readers that run one after another, such
   * as an engine's tasks on one executor: the memory one reader decoded into is lent again to the
   * next instead of being freed and touched afresh (a page fault per 4 KiB) by every reader. Borrowed:
   * the reader never closes it; close it only after every reader over it is closed. The caller owns
   * the reader and closes it.
   */
  public DatasetReader regionReader(BufferAllocator allocator, List<Box> regions, ScratchBuffers scratch) {
    for (Box b : regions) {
      if (b.rank() != shape.length) {
        throw new IllegalArgumentException("region " + b + " has " + b.rank() + " dimensions; the grid has " + shape.length);
      }
      for (int d = 0; d < shape.length; d++) {
        if (b.start(d) < 0 || b.shape(d) < 0 || b.start(d) + b.shape(d) > shape[d]) {
          throw new IllegalArgumentException("region " + b + " is outside the grid " + Arrays.toString(shape));
        }
      }
      if (b.size() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("region " + b + " of the grid " + this + " has more cells than one batch holds");
      }
    }
    return new DatasetReader(allocator, this, List.copyOf(regions), DEFAULT_BATCH_ROWS, scratch);
  }

  List<GridColumn> columns() {
    return columns;
  }

  /**
   * Column {@code column}'s values over the chunk {@code box}: its source read over the box's part
   * along the column's own dimensions and decoded (a variable's values in memory {@code scratch} lends
   * where its type allows), with the strides that broadcast it over the box's cells ({@link #part}).
   * The caller owns the result and closes it before {@code scratch}.
   */
  ChunkColumn chunkColumn(GridColumn column, Box box, ScratchBuffers scratch) {
    int[] axes = column.axes();
    long[] strides = new long[box.rank()];
    long stride = 1;
    for (int k = axes.length - 1; k >= 0; k--) {
      strides[axes[k]] = stride;
      stride *= box.shape(axes[k]);
    }
    return new ChunkColumn(readSource(column, box, scratch.allocator(), scratch), box, strides);
  }

  /** A column's decoded values over one chunk of the grid and how the chunk's cells map onto them. */
  record ChunkColumn(FieldVector source, Box chunk, long[] strides) implements AutoCloseable {
    @Override
    public void close() {
      source.close();
    }
  }

  /**
   * Column {@code column} over the cells of {@code part} (a box inside {@code values}' chunk), C order:
   * a new vector of {@code allocator} that the caller owns, made by runs ({@link Broadcast}), never
   * sharing memory with {@code values}.
   */
  FieldVector part(GridColumn column, ChunkColumn values, Box part, BufferAllocator allocator) {
    long first = 0;
    for (int d = 0; d < part.rank(); d++) {
      first += (part.start(d) - values.chunk().start(d)) * values.strides()[d];
    }
    return Broadcast.expand(values.source(), first, column.field(), values.strides(), part.shape(), allocator);
  }

  /**
   * The column's source values over {@code box}'s part along its dimensions, decoded; a variable's read
   * into memory of {@code scratch} (whose allocator is {@code allocator}) when not null.
   */
  private FieldVector readSource(GridColumn column, Box box, BufferAllocator allocator, ScratchBuffers scratch) {
    int[] axes = column.axes();
    if (column.variable() == null) {
      int d = column.dimensionAxis();
      int n = Math.toIntExact(box.shape(d));
      BigIntVector positions = (BigIntVector) column.field().createVector(allocator);
      positions.allocateNew(n);
      for (int i = 0; i < n; i++) {
        positions.set(i, box.start(d) + i);
      }
      positions.setValueCount(n);
      return positions;
    }
    long[] start = new long[axes.length];
    long[] size = new long[axes.length];
    for (int k = 0; k < axes.length; k++) {
      start[k] = box.start(axes[k]);
      size[k] = box.shape(axes[k]);
    }
    FieldVector raw;
    try {
      Box region = new Box(start, size);
      raw = (scratch == null ? column.variable().array().read(region, allocator) : column.variable().array().read(region, scratch))
          .vector();
    } catch (dev.zarrow.error.ZarrException e) {
      throw e.withContext("dataset '" + dataset.group().path() + "', variable '" + column.variable().name() + "'");
    }
    return column.decoder().decode(raw, allocator);
  }

  @Override
  public String toString() {
    return "table of " + dataset + " over " + dimensions + " " + Arrays.toString(shape) + " in chunks " + Arrays.toString(chunkShape);
  }
}
