package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.store.Store;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A table at a location, for reading. It offers no batch write: Spark then hands every save mode
 * to {@link ZarrDataSource#createRelation}, which sees the whole DataFrame.
 */
final class ZarrTable implements SupportsRead {
  private final Location location;
  private final DatasetRead dataset;
  private final StructType schema;

  ZarrTable(Location location, DatasetRead dataset, StructType schema) {
    this.location = location;
    this.dataset = dataset;
    this.schema = schema;
  }

  @Override
  public String name() {
    return "zarr " + location;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    try (Store store = location.open()) {
      ZarrNode node = Zarr.open(store, "");
      if (dataset.applies(node, location.toString())) {
        DatasetTable table = dataset.table((ZarrGroup) node, null);
        check(SparkTypes.toSpark(table.schema()));
        return new DatasetScan(location, dataset, table, schema, options.getInt("batchRows", 0));
      }
      ZarrSource.Shape shape = new ZarrSource(node).shape();
      check(SparkTypes.toSpark(shape.schema()));
      return new ZarrScan(location, shape, schema, options.getInt("batchRows", 0));
    }
  }

  private void check(StructType stored) {
    if (!stored.equals(schema)) {
      throw new IllegalArgumentException("zarr: " + location + " holds a table of " + stored.simpleString() + ", not the "
          + schema.simpleString() + " asked for");
    }
  }
}
