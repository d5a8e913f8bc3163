package dev.zarrow.store.zip;

import dev.zarrow.store.StoreContract;
import dev.zarrow.store.WritableStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A zip archive being written is a store like the others (values in its scratch file until close). */
class ZipWriteStoreTest extends StoreContract {
  @TempDir Path dir;

  @Override
  protected WritableStore newStore() {
    return ZipWriteStore.open(dir.resolve("store.zip"), false);
  }
}
