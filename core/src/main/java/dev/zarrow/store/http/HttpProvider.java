package dev.zarrow.store.http;

import dev.zarrow.store.Store;
import dev.zarrow.store.StoreProvider;
import dev.zarrow.store.WritableStore;
import java.util.Map;
import java.util.Set;

/** {@code http://} and {@code https://} locations: read-only {@link HttpStore}s. */
public final class HttpProvider implements StoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("http", "https");
  }

  @Override
  public Store open(String location, Map<String, String> options) {
    return HttpStore.open(location, HttpSettings.of(location, options, System.getenv()));
  }

  @Override
  public WritableStore openWritable(String location, Map<String, String> options) {
    throw new IllegalArgumentException("cannot write to " + location + ": HTTP stores are read-only");
  }
}
