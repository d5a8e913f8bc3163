package dev.zarrow.spark;

import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.StoreProvider;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.RecordingStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The store locations {@code recording:PATH} (a test's {@link StoreProvider}): the directory store at
 * PATH behind a {@link RecordingStore}. Every store opened (by the driver or a task of the local-mode
 * session, one JVM) is kept, so a test sees every key any of them read.
 */
public final class RecordingStores implements StoreProvider {
  static final String SCHEME = "recording";
  private static final ConcurrentLinkedQueue<RecordingStore> OPENED = new ConcurrentLinkedQueue<>();

  static String location(Path dir) {
    return SCHEME + ":" + dir.toAbsolutePath();
  }

  /** Forgets the stores opened so far. */
  static void reset() {
    OPENED.clear();
  }

  /** The keys read (got, whole or in part) through every store opened since the last {@link #reset}. */
  static Set<String> keysRead() {
    Set<String> keys = new TreeSet<>();
    for (RecordingStore store : OPENED) {
      store.requests().forEach(r -> keys.add(r.key()));
    }
    return keys;
  }

  /** The get requests (key, byte range) through every store opened since the last {@link #reset}. */
  static List<RecordingStore.Request> requests() {
    List<RecordingStore.Request> out = new ArrayList<>();
    for (RecordingStore store : OPENED) {
      out.addAll(store.requests());
    }
    return out;
  }

  @Override
  public Set<String> schemes() {
    return Set.of(SCHEME);
  }

  @Override
  public Store open(String location, Map<String, String> options) {
    return openWritable(location, options);
  }

  @Override
  public WritableStore openWritable(String location, Map<String, String> options) {
    RecordingStore store = new RecordingStore(FileSystemStore.open(Path.of(location.substring(SCHEME.length() + 1))));
    OPENED.add(store);
    return store;
  }
}
