package dev.zarrow.spark;

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
  private final StructType schema;

  ZarrTable(Location location, StructType schema) {
    this.location = location;
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
    ZarrSource.Shape shape = ZarrDataSource.shape(location);
    StructType stored = SparkTypes.toSpark(shape.schema());
    if (!stored.equals(schema)) {
      throw new IllegalArgumentException("zarr: " + location + " holds a table of " + stored.simpleString() + ", not the "
          + schema.simpleString() + " asked for");
    }
    return new ZarrScan(location, shape, schema, options.getInt("batchRows", 0));
  }
}
