package dev.zarrow.spark;

import dev.zarrow.store.Stores;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a table lives, as given to {@code load} or {@code save}, with the job's Hadoop configuration:
 * sent to every task, which opens the store itself.
 *
 * <ul>
 *   <li>a path or {@code file:} URL: zarrow's directory store;
 *   <li>zarrow's other store locations ({@code http(s)://}, {@code s3://}, {@code zip:} or a path
 *       ending in {@code .zip}, {@code memory:}, and any scheme of a {@link dev.zarrow.store.StoreProvider}
 *       on the class path): through zarrow's stores (see {@link dev.zarrow.store.Stores#schemes});
 *   <li>any other URI ({@code s3a://}, {@code hdfs://}, {@code gs://}, {@code abfs://}, ...): a
 *       {@link HadoopStore} through Hadoop's file system for that scheme, configured as the job's
 *       Hadoop configuration says (Spark's {@code spark.hadoop.*} settings and the data source's
 *       options).
 * </ul>
 */
final class Location implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):.*");

  private final String location;
  private final byte[] hadoopConf;

  Location(String location, Configuration conf) {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("zarr: a location is needed: load(LOCATION) or save(LOCATION)");
    }
    this.location = location;
    this.hadoopConf = serialize(conf);
  }

  /**
   * The job's Hadoop configuration with the data source's options set on it, as Spark's file
   * sources make it (so {@code .option("fs.s3a.endpoint", ...)} reaches the file system).
   */
  static Configuration hadoopConf(Configuration base, Map<String, String> options) {
    Configuration conf = new Configuration(base);
    options.forEach((k, v) -> {
      if (!k.equalsIgnoreCase("path") && v != null) {
        conf.set(k, v);
      }
    });
    return conf;
  }

  String location() {
    return location;
  }

  /** A scheme of two letters or more: {@code C:\...} is a path, not a scheme. */
  private String scheme() {
    var m = SCHEME.matcher(location);
    return m.matches() && m.group(1).length() > 1 ? m.group(1).toLowerCase(Locale.ROOT) : null;
  }

  boolean isHadoop() {
    String scheme = scheme();
    return scheme != null && !scheme.equals("file") && !Stores.schemes().contains(scheme) && !location.endsWith(".zip");
  }

  /** Opens the store; the caller closes it. */
  Store open() {
    return isHadoop() ? HadoopStore.open(URI.create(location), configuration()) : Stores.open(location);
  }

  /**
   * Opens the store for writing (zarrow's locations through {@link Stores#openWritable}, which creates a
   * missing directory and refuses read-only locations); the caller closes it.
   */
  WritableStore openWritable() {
    return isHadoop() ? HadoopStore.open(URI.create(location), configuration()) : Stores.openWritable(location);
  }

  Configuration configuration() {
    Configuration conf = new Configuration(false);
    try {
      conf.readFields(new DataInputStream(new ByteArrayInputStream(hadoopConf)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return conf;
  }

  /** Configuration is Writable, not Serializable. */
  private static byte[] serialize(Configuration conf) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      conf.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  @Override
  public String toString() {
    return location;
  }
}
