package dev.zarrow.store;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * A key-value store of Zarr keys ({@code a/b/zarr.json}, {@code a/b/c/0/1}): the storage layer of the
 * Zarr v3 core spec. Implementations are thread-safe. A store is a resource: whoever opens it closes it.
 *
 * <p>Values come back as {@link ByteBuffer}s positioned at 0. A <em>writable</em> buffer is the caller's
 * own (fresh memory, typically direct, which decoders wrap as Arrow memory without copying); a read-only
 * buffer is shared with the store and must be copied before anything could write to it. Callers must
 * not assume a backing array.
 */
public interface Store extends AutoCloseable {

  /** The whole value of {@code key}, or empty when the key does not exist. */
  Optional<ByteBuffer> get(String key);

  /**
   * A byte range of the value of {@code key}, or empty when the key does not exist. A range that
   * reaches past the end of the value is a {@link dev.zarrow.error.StoreException}: callers validate ranges
   * against {@link #size(String)} when the size is untrusted.
   */
  Optional<ByteBuffer> get(String key, ByteRange range);

  /** The size in bytes of the value of {@code key}, or empty when it does not exist. */
  Optional<Long> size(String key);

  /**
   * A lazily read view of the value of {@code key} (for partial reads), or empty when it does not exist.
   * All its reads see the value as it was when the source was made; the caller closes it. The default
   * suits stores whose values are never replaced; stores that replace values override it.
   */
  default Optional<ByteSource> source(String key) {
    return size(key).map(size -> ByteSource.of(this, key, size));
  }

  /**
   * Like {@link #source(String)}, told that the reader reads {@code first} first (a shard's index): a
   * network store fetches it with the request that finds the key and learns the value's size from the
   * same answer, so that a partial read costs no extra request. {@code first} is a hint clamped to the
   * value (a suffix longer than the value fetches all of it); stores that gain nothing ignore it.
   */
  default Optional<ByteSource> source(String key, ByteRange first) {
    return source(key);
  }

  default boolean exists(String key) {
    return size(key).isPresent();
  }

  /**
   * False when the store cannot list its keys (HTTP has no listing): {@link #list} and {@link #listDir}
   * then throw a {@link dev.zarrow.error.StoreException} that says so.
   */
  default boolean canList() {
    return true;
  }

  /**
   * Every key that starts with {@code prefix}, in lexicographic order. Stores that rename leave out
   * temporary names ({@link Keys#isTemporary}) and what is below them, unless {@code prefix} names one.
   */
  List<String> list(String prefix);

  /**
   * One level of the hierarchy below {@code prefix} (which is empty or ends with {@code /}): the keys
   * directly under it and the child prefixes (each ending with {@code /}), in lexicographic order.
   */
  Listing listDir(String prefix);

  /**
   * The result of {@link #listDir}: keys and child prefixes, both full keys, and the temporary names
   * ({@link Keys#isTemporary}, full keys without a trailing {@code /}) that the other two leave out: what
   * writes still running or interrupted left there, for {@code check} to report. Stores that hide
   * nothing list no temporaries.
   */
  record Listing(List<String> keys, List<String> prefixes, List<String> temporaries) {
    public Listing {
      keys = List.copyOf(keys);
      prefixes = List.copyOf(prefixes);
      temporaries = List.copyOf(temporaries);
    }

    /** A listing without temporary names. */
    public Listing(List<String> keys, List<String> prefixes) {
      this(keys, prefixes, List.of());
    }
  }

  /** A short description for messages, e.g. the root directory. */
  String describe();

  @Override
  default void close() {}
}
