package dev.zarrow.metadata;

import dev.zarrow.error.StoreException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Store;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

/**
 * A read view of a store through the consolidated metadata of a hierarchy ({@link ConsolidatedMetadata}):
 * every metadata key at or below its root ({@code zarr.json}, {@code .zgroup}, {@code .zarray},
 * {@code .zattrs}) is answered from the document in memory, present or absent, and so is the listing of
 * its groups ({@link #listDir} of a group's prefix: its metadata keys and child nodes), even on a store
 * that cannot list (HTTP). Everything else (chunks, keys outside the hierarchy, {@link #list}) goes to
 * the store. Opening a hierarchy and walking it through the view costs the one read of the consolidated
 * document; only chunks are read after that.
 *
 * <p>The view is a snapshot: nodes written after the document was (by another tool) are not seen, as
 * in zarr-python. It is read-only on purpose (a {@link Store}, never a writable one): zarrow writes
 * through the store itself, and its writes drop the consolidated metadata they make stale
 * ({@link ConsolidatedMetadata#dropAbove}). It borrows the store: closing the view leaves it open.
 */
public final class ConsolidatedStore implements Store {
  private final Store store;
  private final ConsolidatedMetadata metadata;

  public ConsolidatedStore(Store store, ConsolidatedMetadata metadata) {
    this.store = store;
    this.metadata = metadata;
  }

  /**
   * {@code store} seen through the consolidated metadata of the hierarchy rooted at {@code path}, or
   * empty when it has none (see {@link ConsolidatedMetadata#read} for what it reads).
   */
  public static Optional<ConsolidatedStore> open(Store store, String path) {
    return ConsolidatedMetadata.read(store, path).map(m -> new ConsolidatedStore(store, m));
  }

  /**
   * {@code store} through the consolidated metadata of the store's root hierarchy, else of the one at
   * {@code path} (a node below the root may be a consolidated hierarchy of its own), else the store
   * itself.
   */
  public static Store over(Store store, String path) {
    Optional<ConsolidatedStore> view = open(store, "");
    if (view.isEmpty() && !path.isEmpty()) {
      view = open(store, path);
    }
    return view.isPresent() ? view.get() : store;
  }

  /** The consolidated metadata the view answers from. */
  public ConsolidatedMetadata metadata() {
    return metadata;
  }

  /** The store the view reads chunks from. */
  public Store store() {
    return store;
  }

  private Optional<ByteBuffer> document(String key) {
    return metadata.document(key).map(bytes -> ByteBuffer.wrap(bytes).asReadOnlyBuffer());
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return metadata.covers(key) ? document(key) : store.get(key);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    if (!metadata.covers(key)) {
      return store.get(key, range);
    }
    return document(key).map(b -> {
      if (!range.fits(b.remaining())) {
        throw new StoreException("byte range " + range + " is outside key " + key + " of " + b.remaining() + " bytes");
      }
      return b.slice((int) range.start(b.remaining()), (int) range.length(b.remaining()));
    });
  }

  @Override
  public Optional<Long> size(String key) {
    return metadata.covers(key) ? metadata.document(key).map(b -> (long) b.length) : store.size(key);
  }

  @Override
  public Optional<ByteSource> source(String key) {
    return metadata.covers(key) ? document(key).map(ByteSource::of) : store.source(key);
  }

  @Override
  public Optional<ByteSource> source(String key, ByteRange first) {
    return metadata.covers(key) ? document(key).map(ByteSource::of) : store.source(key, first);
  }

  @Override
  public boolean exists(String key) {
    return metadata.covers(key) ? metadata.document(key).isPresent() : store.exists(key);
  }

  /** Whether the store lists keys; the groups of the hierarchy are listed either way ({@link #listDir}). */
  @Override
  public boolean canList() {
    return store.canList();
  }

  /** The store's listing: the consolidated document knows no chunks. */
  @Override
  public List<String> list(String prefix) {
    return store.list(prefix);
  }

  /** A group of the hierarchy from the consolidated document; any other prefix from the store. */
  @Override
  public Listing listDir(String prefix) {
    String path = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    if (metadata.isGroup(path)) {
      return metadata.listGroup(path);
    }
    return store.listDir(prefix);
  }

  @Override
  public String describe() {
    return store.describe() + " (through the consolidated metadata in " + metadata.key() + ")";
  }
}
