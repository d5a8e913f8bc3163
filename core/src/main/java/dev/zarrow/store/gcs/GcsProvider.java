package dev.zarrow.store.gcs;

import dev.zarrow.store.Store;
import dev.zarrow.store.StoreProvider;
import dev.zarrow.store.WritableStore;
import java.util.Map;
import java.util.Set;

/** {@code gs://BUCKET/PREFIX} locations: read-only {@link GcsStore}s. */
public final class GcsProvider implements StoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("gs");
  }

  @Override
  public Store open(String location, Map<String, String> options) {
    return GcsStore.open(location, options, System.getenv());
  }

  @Override
  public WritableStore openWritable(String location, Map<String, String> options) {
    throw new IllegalArgumentException("cannot write to " + location + ": gs:// stores are read-only (zarrow does not write to"
        + " Google Cloud Storage; write to a directory or s3:// and copy with gsutil or gcloud storage)");
  }
}
