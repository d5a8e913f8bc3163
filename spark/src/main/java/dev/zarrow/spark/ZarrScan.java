package dev.zarrow.spark;

import dev.zarrow.ZarrArray;
import dev.zarrow.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of a table: the columns Spark needs (whole top-level columns), the first {@code limit} rows
 * when Spark pushes a limit, one input partition per stored chunk (a whole shard when sharded) of
 * the first column along the rows.
 */
final class ZarrScan implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownLimit, Scan, Batch {
  /** Hosts named per partition, at most. */
  private static final int MAX_HOSTS = 3;

  private final Location location;
  private final ZarrSource.Shape shape;
  private final StructType schema;
  private final int batchRows;
  private StructType required;
  private long limit = -1;

  ZarrScan(Location location, ZarrSource.Shape shape, StructType schema, int batchRows) {
    this.location = location;
    this.shape = shape;
    this.schema = schema;
    this.batchRows = batchRows;
    this.required = schema;
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    Set<String> names = Arrays.stream(requiredSchema.fieldNames()).collect(Collectors.toSet());
    required = new StructType(Arrays.stream(schema.fields()).filter(f -> names.contains(f.name())).toArray(StructField[]::new));
  }

  @Override
  public boolean pushLimit(int rows) {
    limit = rows;
    return true;
  }

  @Override
  public Scan build() {
    return this;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "zarr " + location + " " + Arrays.toString(required.fieldNames()) + (limit >= 0 ? " limit " + limit : "");
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    long end = limit >= 0 ? Math.min(shape.rows(), limit) : shape.rows();
    long step = partitionRows(end, shape.chunkRows());
    List<InputPartition> out = new ArrayList<>();
    try (Store store = location.isHadoop() ? location.open() : null) {
      List<ZarrArray> arrays = store == null || required.isEmpty() ? List.of()
          : ZarrSource.open(store).arrays(Arrays.asList(required.fieldNames()));
      for (long start = 0, i = 0; start < end; i++) {
        long stop = start + Math.min(step, end - start); // never past end, so never wraps
        out.add(new ZarrInputPartition(start, stop, hosts((HadoopStore) store, arrays, i, step)));
        start = stop;
      }
    }
    return out.toArray(InputPartition[]::new);
  }

  /** The most partitions one scan plans: a huge grid gets partitions of several whole chunks. */
  static final long MAX_PARTITIONS = 1 << 16;

  /** The rows per partition: a chunk's, or a whole number of chunks' when there are more than {@link #MAX_PARTITIONS}. */
  static long partitionRows(long rows, long chunkRows) {
    if (chunkRows <= 0) {
      return Math.max(1, rows);
    }
    long chunks = rows / chunkRows + (rows % chunkRows == 0 ? 0 : 1);
    long perPartition = chunks / MAX_PARTITIONS + (chunks % MAX_PARTITIONS == 0 ? 0 : 1);
    return Math.max(1, perPartition) * chunkRows;
  }

  /** The hosts that hold most of the chunks of row chunk {@code i}, busiest first. */
  private static List<String> hosts(HadoopStore store, List<ZarrArray> arrays, long i, long step) {
    Map<String, Integer> count = new HashMap<>();
    for (ZarrArray array : arrays) {
      if (array.rank() == 1 && array.grid().chunkShape()[0] == step) {
        for (String host : store.hosts(array.chunkKey(new long[] {i}))) {
          count.merge(host, 1, Integer::sum);
        }
      }
    }
    return count.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(MAX_HOSTS).map(Map.Entry::getKey).toList();
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    List<Field> fields = new ArrayList<>();
    for (String name : required.fieldNames()) {
      fields.add(shape.schema().findField(name));
    }
    return new ZarrPartitionReader.Factory(location, required, fields, batchRows, null);
  }
}
