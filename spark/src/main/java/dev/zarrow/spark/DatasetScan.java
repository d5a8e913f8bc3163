package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.dataset.Variable;
import dev.zarrow.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of a gridded dataset's table ({@link DatasetTable}): one input partition per chunk of the
 * grid (a shard when sharded) that the pushed dimension filters leave ({@link DimensionFilters}, on the
 * dimensions' values read once here, at planning), several adjacent chunks per partition beyond
 * {@link ZarrScan#MAX_PARTITIONS}. Only the columns Spark needs are read: a variable not selected is
 * never read, and a scan of no column (a count) reads no chunk at all, its rows known from the grid.
 * Filters on data variables stay Spark's. The dimensions' columns are computed by the tasks from their
 * values, read here and sent with the reader factory ({@link DatasetLayout}), not read for each chunk.
 */
final class DatasetScan implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters, SupportsPushDownLimit,
    Scan, Batch {
  private static final int MAX_HOSTS = 3;

  private final Location location;
  private final DatasetRead read;
  private final StructType schema;
  private final Schema arrowSchema;
  private final Map<String, ArrowType> dimensions = new LinkedHashMap<>();
  private final int batchRows;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private long limit = -1;
  private List<long[]> chunks;
  private long chunkCount;
  private InputPartition[] partitions;
  private DatasetLayout layout;

  /** {@code batchRows}: rows per batch Spark sees (0: the reader's default). */
  DatasetScan(Location location, DatasetRead read, DatasetTable table, StructType schema, int batchRows) {
    this.location = location;
    this.batchRows = batchRows;
    this.read = read;
    this.schema = schema;
    this.required = schema;
    this.arrowSchema = table.schema();
    for (String dim : table.dimensions()) {
      Field f = arrowSchema.findField(dim);
      dimensions.put(dim, f.getType());
    }
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    Set<String> names = Arrays.stream(requiredSchema.fieldNames()).collect(Collectors.toSet());
    required = new StructType(Arrays.stream(schema.fields()).filter(f -> names.contains(f.name())).toArray(StructField[]::new));
  }

  /** Keeps the filters that prune chunks; all of them stay Spark's to apply to the rows read. */
  @Override
  public Filter[] pushFilters(Filter[] filters) {
    pushed = Arrays.stream(filters).filter(f -> DimensionFilters.pushable(f, dimensions)).toArray(Filter[]::new);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  @Override
  public boolean pushLimit(int rows) {
    limit = rows;
    return true;
  }

  /** Plans: reads the filtered dimensions' values and chooses the chunks. */
  @Override
  public Scan build() {
    try (Store store = location.open(); BufferAllocator allocator = new RootAllocator()) {
      DatasetTable table = read.table(Zarr.openGroup(store, ""), null);
      chunkCount = table.chunkCount();
      chunks = prune(table, allocator);
      if (limit >= 0) {
        long rows = 0;
        int keep = 0;
        while (keep < chunks.size() && rows < limit) {
          rows += table.chunkBox(chunks.get(keep++)).size();
        }
        chunks = chunks.subList(0, keep);
      }
      partitions = partitions(table, store instanceof HadoopStore hadoop ? hadoop : null);
      layout = DatasetLayout.of(read, table, List.of(required.fieldNames()), allocator, DatasetLayout.MAX_VALUES);
    }
    return this;
  }

  /** The chunks (grid coordinates, C order) whose every dimension has a position the pushed filters may match. */
  private List<long[]> prune(DatasetTable table, BufferAllocator allocator) {
    List<String> dims = table.dimensions();
    long[] grid = table.gridShape();
    int[] chunkShape = table.chunkShape();
    List<long[]> along = new ArrayList<>(); // per dimension: the chunk indices kept along it
    List<Filter> filters = List.of(pushed);
    Set<String> filtered = DimensionFilters.conjuncts(filters).stream().map(f -> f.references()[0]).collect(Collectors.toSet());
    for (int d = 0; d < dims.size(); d++) {
      if (!filtered.contains(dims.get(d))) {
        along.add(java.util.stream.LongStream.range(0, grid[d]).toArray());
        continue;
      }
      boolean[] match;
      try (FieldVector values = table.dimensionValues(dims.get(d), allocator)) {
        match = DimensionFilters.matches(filters, dims.get(d), values);
      }
      List<Long> kept = new ArrayList<>();
      for (long c = 0; c < grid[d]; c++) {
        int end = (int) Math.min(match.length, (c + 1) * chunkShape[d]);
        for (int i = (int) (c * chunkShape[d]); i < end; i++) {
          if (match[i]) {
            kept.add(c);
            break;
          }
        }
      }
      along.add(kept.stream().mapToLong(Long::longValue).toArray());
    }
    List<long[]> out = new ArrayList<>();
    if (along.stream().anyMatch(a -> a.length == 0)) {
      return out;
    }
    int[] at = new int[dims.size()];
    while (true) { // the cartesian product, last dimension fastest (C order)
      long[] coords = new long[at.length];
      for (int d = 0; d < at.length; d++) {
        coords[d] = along.get(d)[at[d]];
      }
      out.add(coords);
      int d = at.length - 1;
      while (d >= 0 && ++at[d] == along.get(d).length) {
        at[d--] = 0;
      }
      if (d < 0) {
        return out;
      }
    }
  }

  /** The chunks in runs of adjacent ones, a run per partition, at most {@link ZarrScan#MAX_PARTITIONS}. */
  private InputPartition[] partitions(DatasetTable table, HadoopStore hadoop) {
    int n = chunks.size();
    int per = (int) Math.max(1, (n + ZarrScan.MAX_PARTITIONS - 1) / ZarrScan.MAX_PARTITIONS);
    List<ZarrArray> arrays = new ArrayList<>();
    List<int[]> axes = new ArrayList<>();
    if (hadoop != null) {
      Set<String> names = Set.of(required.fieldNames());
      for (Variable v : table.dataset().variables().values()) {
        if (names.contains(v.name()) && v.rank() > 0) {
          arrays.add(v.array());
          axes.add(v.dimensions().stream().mapToInt(table.dimensions()::indexOf).toArray());
        }
      }
    }
    List<InputPartition> out = new ArrayList<>();
    for (int first = 0; first < n; first += per) {
      List<long[]> run = chunks.subList(first, Math.min(n, first + per));
      long[] flat = new long[run.size() * table.dimensions().size()];
      long rows = 0;
      Map<String, Integer> hosts = new HashMap<>();
      for (int i = 0; i < run.size(); i++) {
        long[] c = run.get(i);
        System.arraycopy(c, 0, flat, i * c.length, c.length);
        rows += table.chunkBox(c).size();
        for (int a = 0; a < arrays.size(); a++) {
          String key = chunkKey(arrays.get(a), axes.get(a), table, c);
          if (key != null) {
            for (String host : hadoop.hosts(key)) {
              hosts.merge(host, 1, Integer::sum);
            }
          }
        }
      }
      List<String> busiest = hosts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
          .limit(MAX_HOSTS).map(Map.Entry::getKey).toList();
      out.add(new DatasetPartition(flat, table.dimensions().size(), rows, busiest.toArray(String[]::new)));
    }
    return out.toArray(InputPartition[]::new);
  }

  /** The key of {@code array}'s stored chunk (shard) that is grid chunk {@code c}, when its chunks are the grid's; else null. */
  private static String chunkKey(ZarrArray array, int[] axes, DatasetTable table, long[] c) {
    int[] own = array.grid().chunkShape();
    int[] grid = table.chunkShape();
    long[] coords = new long[axes.length];
    for (int k = 0; k < axes.length; k++) {
      if (axes[k] < 0 || own[k] != grid[axes[k]]) {
        return null;
      }
      coords[k] = c[axes[k]];
    }
    return array.chunkKey(coords);
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "zarr dataset " + location + " " + Arrays.toString(required.fieldNames()) + " PushedFilters: " + Arrays.toString(pushed)
        + (limit >= 0 ? " limit " + limit : "") + ", reads " + chunks.size() + " of " + chunkCount + " chunks";
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    return partitions.clone();
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    List<Field> fields = new ArrayList<>();
    for (String name : required.fieldNames()) {
      fields.add(arrowSchema.findField(name));
    }
    return new ZarrPartitionReader.Factory(location, required, fields, batchRows, layout);
  }
}
