package dev.zarrow.store.zip;

import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.store.Store;
import dev.zarrow.store.StoreProvider;
import dev.zarrow.store.Stores;
import dev.zarrow.store.WritableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** Zip archives: {@code zip:PATH}, or a path (or {@code file:} URL) ending in {@code .zip}. */
public final class ZipProvider implements StoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("zip");
  }

  @Override
  public Store open(String location, Map<String, String> options) {
    Stores.checkOptions(location, options, Set.of());
    Path path = Stores.path(location);
    if (!Files.isRegularFile(path)) {
      throw new NoSuchNodeException("no zip archive at " + path + " (" + (Files.exists(path) ? "not a file" : "no such file") + ")");
    }
    return new ZipStore(ZipArchive.open(path));
  }

  @Override
  public WritableStore openWritable(String location, Map<String, String> options) {
    Stores.checkOptions(location, options, Set.of());
    return ZipWriteStore.open(Stores.path(location), false);
  }
}
