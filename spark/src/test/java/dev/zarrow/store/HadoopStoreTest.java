package dev.zarrow.store;

import dev.zarrow.spark.HadoopStore;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;

/** The store contract for {@link HadoopStore}, on Hadoop's local file system under a scheme of its own. */
class HadoopStoreTest extends StoreContract {
  @TempDir Path dir;
  private int stores;

  @Override
  protected WritableStore newStore() {
    Configuration conf = new Configuration();
    conf.set("fs.testfs.impl", "dev.zarrow.spark.TestFileSystem");
    return HadoopStore.open(java.net.URI.create("testfs://" + dir.resolve("store" + stores++).toAbsolutePath()), conf);
  }
}
