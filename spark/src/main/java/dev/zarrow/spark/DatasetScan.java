package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.dataset.Variable;
import dev.zarrow.grid.Box;
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
 * {@link ZarrScan#MAX_PARTITIONS}. The filters prune a shard's inner chunks too: a partition reads the
 * runs of adjacent inner chunks they leave in its shard (the whole shard when they leave all), in
 * batches of whole inner chunks of at most {@link #BATCH_CELLS} cells where they allow ({@link #slabs}),
 * and a region read fetches only those inner chunks' bytes and the shard's index. Only the
 * columns Spark needs are read: a variable not selected is never read, and a scan of no column (a
 * count) reads no chunk at all, its rows known from the grid.
 * Filters on data variables stay Spark's. The dimensions' columns are computed by the tasks from their
 * values, read here and sent with the reader factory ({@link DatasetLayout}), not read for each chunk.
 */
final class DatasetScan implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters, SupportsPushDownLimit,
    Scan, Batch {
  private static final int MAX_HOSTS = 3;
  /** Cells a batch of a partition holds at most where whole parts allow ({@link #slabs}): 16 MB of float32. */
  static final long BATCH_CELLS = 1L << 22;

  private final Location location;
  private final DatasetRead read;
  private final StructType schema;
  private final Schema arrowSchema;
  private final Map<String, ArrowType> dimensions = new LinkedHashMap<>();
  private final int batchRows;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private long limit = -1;
  private boolean sharded;
  private long chunkCount;
  private long chunksRead;
  private long shardCount;
  private long shardsRead;
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

  /** Plans: reads the filtered dimensions' values and chooses the chunks (the inner chunks of the shards, when sharded). */
  @Override
  public Scan build() {
    try (Store store = location.open(); BufferAllocator allocator = new RootAllocator()) {
      DatasetTable table = read.table(Zarr.openGroup(store, ""), null);
      int[] parts = partShape(table);
      sharded = !Arrays.equals(parts, table.chunkShape());
      chunkCount = count(table.shape(), parts);
      shardCount = table.chunkCount();
      List<List<Along>> along = new ArrayList<>();
      for (int d = 0; d < parts.length; d++) {
        along.add(along(table, d, parts, kept(table, d, parts[d], allocator)));
      }
      List<List<Box>> shards = shards(along, table.dimensions().size());
      if (limit >= 0) {
        shards = limited(shards);
      }
      shards = shards.stream().map(regions -> regions.stream().flatMap(b -> slabs(b, parts).stream()).toList()).toList();
      shardsRead = shards.size();
      chunksRead = 0;
      for (List<Box> regions : shards) {
        for (Box b : regions) {
          chunksRead += count(b, parts);
        }
      }
      partitions = partitions(table, shards, along, store instanceof HadoopStore hadoop ? hadoop : null);
      layout = DatasetLayout.of(read, table, List.of(required.fieldNames()), allocator, DatasetLayout.MAX_VALUES);
    }
    return this;
  }

  /**
   * The grid's parts read alone ({@link DatasetTable#partShape}: a shard's inner chunks), or its chunks
   * along a dimension where the parts do not tile a chunk.
   */
  private static int[] partShape(DatasetTable table) {
    int[] parts = table.partShape();
    int[] chunks = table.chunkShape();
    for (int d = 0; d < parts.length; d++) {
      if (parts[d] <= 0 || chunks[d] % parts[d] != 0) {
        parts[d] = chunks[d];
      }
    }
    return parts;
  }

  /** The parts along each dimension of {@code shape} cut in {@code parts}, multiplied. */
  private static long count(long[] shape, int[] parts) {
    long n = 1;
    for (int d = 0; d < shape.length; d++) {
      n *= parts[d] == 0 ? 0 : (shape[d] + parts[d] - 1) / parts[d];
    }
    return n;
  }

  /** The parts of region {@code b}, which starts at a part's start. */
  private static long count(Box b, int[] parts) {
    return count(b.shape(), parts);
  }

  /** The indices of the parts along dimension {@code d} (of {@code part} cells) that hold a position the pushed filters may match. */
  private long[] kept(DatasetTable table, int d, int part, BufferAllocator allocator) {
    String dim = table.dimensions().get(d);
    long n = part == 0 ? 0 : (table.shape()[d] + part - 1) / part;
    List<Filter> filters = List.of(pushed);
    if (DimensionFilters.conjuncts(filters).stream().noneMatch(f -> f.references()[0].equals(dim))) {
      return java.util.stream.LongStream.range(0, n).toArray();
    }
    boolean[] match;
    try (FieldVector values = table.dimensionValues(dim, allocator)) {
      match = DimensionFilters.matches(filters, dim, values);
    }
    List<Long> kept = new ArrayList<>();
    for (long c = 0; c < n; c++) {
      int end = (int) Math.min(match.length, (c + 1) * part);
      for (int i = (int) (c * part); i < end; i++) {
        if (match[i]) {
          kept.add(c);
          break;
        }
      }
    }
    return kept.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * One chunk (shard) along a dimension that holds kept parts: its index, and the cell ranges {@code
   * [start, end)} of its runs of adjacent kept parts (each part alone under a limit, so that a limit
   * reads no more parts than it needs).
   */
  private record Along(long chunk, List<long[]> runs) {}

  private List<Along> along(DatasetTable table, int d, int[] parts, long[] kept) {
    long length = table.shape()[d];
    int per = table.chunkShape()[d] / parts[d]; // parts per chunk
    List<Along> out = new ArrayList<>();
    for (int i = 0; i < kept.length; ) {
      long chunk = kept[i] / per;
      List<long[]> runs = new ArrayList<>();
      while (i < kept.length && kept[i] / per == chunk) {
        int j = i;
        while (limit < 0 && j + 1 < kept.length && kept[j + 1] == kept[j] + 1 && kept[j + 1] / per == chunk) {
          j++;
        }
        runs.add(new long[] {kept[i] * parts[d], Math.min(length, (kept[j] + 1) * parts[d])});
        i = j + 1;
      }
      out.add(new Along(chunk, runs));
    }
    return out;
  }

  /**
   * The kept chunks (shards) of the grid in C order, each as the regions to read in it: the cartesian
   * product of its runs along each dimension, C order (the whole chunk when nothing is pruned in it).
   */
  private static List<List<Box>> shards(List<List<Along>> along, int rank) {
    List<List<Box>> out = new ArrayList<>();
    for (int[] at : product(along.stream().mapToInt(List::size).toArray())) {
      List<List<long[]>> runs = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        runs.add(along.get(d).get(at[d]).runs());
      }
      List<Box> regions = new ArrayList<>();
      for (int[] r : product(runs.stream().mapToInt(List::size).toArray())) {
        long[] start = new long[rank];
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
          long[] run = runs.get(d).get(r[d]);
          start[d] = run[0];
          shape[d] = run[1] - run[0];
        }
        regions.add(new Box(start, shape));
      }
      out.add(regions);
    }
    return out;
  }

  /** Every index tuple below {@code sizes}, last fastest (C order); one empty tuple for no dimension. */
  private static List<int[]> product(int[] sizes) {
    List<int[]> out = new ArrayList<>();
    if (Arrays.stream(sizes).anyMatch(n -> n == 0)) {
      return out;
    }
    int[] at = new int[sizes.length];
    while (true) {
      out.add(at.clone());
      int d = at.length - 1;
      while (d >= 0 && ++at[d] == sizes[d]) {
        at[d--] = 0;
      }
      if (d < 0) {
        return out;
      }
    }
  }

  /**
   * {@code b} cut into slabs of whole parts of at most {@link #BATCH_CELLS} cells where parts allow
   * (along the outermost dimension it spans more than one part of, then the next), each read as one
   * batch. Uncut, a shard read whole was one batch of all its inner chunks: 125 MB of float32 for five
   * days of a half-degree globe, more than a task can keep to lend again to the next, so every task
   * decoded into fresh pages (190K page faults a full scan of six such shards).
   */
  static List<Box> slabs(Box b, int[] parts) {
    if (b.size() <= BATCH_CELLS) {
      return List.of(b);
    }
    for (int d = 0; d < b.rank(); d++) {
      if (b.shape(d) > parts[d]) {
        long thick = b.size() / b.shape(d) * parts[d]; // the cells of one part's thickness along d
        long step = Math.max(1, BATCH_CELLS / thick) * parts[d];
        List<Box> out = new ArrayList<>();
        for (long at = b.start(d); at < b.end(d); at += step) {
          long[] start = b.start();
          long[] shape = b.shape();
          start[d] = at;
          shape[d] = Math.min(step, b.end(d) - at);
          out.addAll(slabs(new Box(start, shape), parts));
        }
        return out;
      }
    }
    return List.of(b);
  }

  /** The first regions, in order, that hold {@link #limit} rows. */
  private List<List<Box>> limited(List<List<Box>> shards) {
    List<List<Box>> out = new ArrayList<>();
    long rows = 0;
    for (List<Box> regions : shards) {
      if (rows >= limit) {
        break;
      }
      List<Box> kept = new ArrayList<>();
      for (Box b : regions) {
        if (rows >= limit) {
          break;
        }
        kept.add(b);
        rows += b.size();
      }
      out.add(kept);
    }
    return out;
  }

  /** The chunks (shards) a partition each, or runs of adjacent ones beyond {@link ZarrScan#MAX_PARTITIONS}. */
  private InputPartition[] partitions(DatasetTable table, List<List<Box>> shards, List<List<Along>> along, HadoopStore hadoop) {
    int n = shards.size();
    int rank = table.dimensions().size();
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
    List<int[]> coords = product(along.stream().mapToInt(List::size).toArray());
    List<InputPartition> out = new ArrayList<>();
    for (int first = 0; first < n; first += per) {
      List<Box> regions = new ArrayList<>();
      Map<String, Integer> hosts = new HashMap<>();
      for (int i = first; i < Math.min(n, first + per); i++) {
        regions.addAll(shards.get(i));
        long[] c = new long[rank];
        for (int d = 0; d < rank; d++) {
          c[d] = along.get(d).get(coords.get(i)[d]).chunk();
        }
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
      out.add(new DatasetPartition(regions, rank, busiest.toArray(String[]::new)));
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
        + (limit >= 0 ? " limit " + limit : "") + ", reads " + chunksRead + " of " + chunkCount + " chunks"
        + (sharded ? " in " + shardsRead + " of " + shardCount + " shards" : "");
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
