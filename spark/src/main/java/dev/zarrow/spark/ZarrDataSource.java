package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.store.Store;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Spark data source {@code zarr}: {@code spark.read.format("zarr").load(LOCATION)} reads a group
 * table, a 1-D array or a gridded dataset ({@link DatasetRead}, {@link DatasetScan}) (DataSource V2, columnar); {@code df.write.format("zarr").mode(M)
 * .save(LOCATION)} writes a group table ({@link ZarrWrite}). LOCATION is a path, a zarrow store
 * location or a Hadoop file system URI ({@link Location}).
 */
public final class ZarrDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider {
  @Override
  public String shortName() {
    return "zarr";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    Map<String, String> map = options.asCaseSensitiveMap();
    return schema(location(map), DatasetRead.of(map));
  }

  /**
   * True: Spark then gives a write the DataFrame's schema instead of reading a table that does not
   * exist yet, and a read's {@code .schema(...)} is checked against the table's when it is scanned.
   */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  /** The table at the location; it is opened when scanned (a write's location may not exist yet). */
  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new ZarrTable(location(properties), DatasetRead.of(properties), schema);
  }

  /** The Spark schema of what is at the location: a dataset's table (see {@link DatasetRead}) or a table. */
  static StructType schema(Location location, DatasetRead read) {
    try (Store store = location.open()) {
      ZarrNode node = Zarr.open(store, "");
      if (read.applies(node, location.toString())) {
        return SparkTypes.toSpark(read.table((ZarrGroup) node, null).schema());
      }
      return SparkTypes.toSpark(new ZarrSource(node).shape().schema());
    }
  }

  /** The location in {@code options} ("path") with the job's Hadoop configuration and the options on it. */
  static Location location(Map<String, String> options) {
    String path = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase("path")) {
        path = e.getValue();
      }
    }
    SparkSession spark = SparkSession.active();
    return new Location(path, Location.hadoopConf(spark.sparkContext().hadoopConfiguration(), options));
  }

  @Override
  public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode, scala.collection.immutable.Map<String, String> parameters,
      Dataset<Row> data) {
    Map<String, String> options = CollectionConverters.asJava(parameters);
    ZarrWrite.write(location(options), mode, WriteOptions.of(options), data);
    return new BaseRelation() {
      @Override
      public SQLContext sqlContext() {
        return sqlContext;
      }

      @Override
      public StructType schema() {
        return data.schema();
      }
    };
  }
}
