package dev.zarrow.store.zip;

import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Keys;
import dev.zarrow.store.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A zip archive, read: key {@code a/c/0} is the entry named {@code a/c/0} (Zarr's zip store convention:
 * the archive's root is the store's root). Stored entries are read-only views of the mapped archive,
 * never copied; deflated ones are inflated; every entry read whole is checked against its CRC-32, and a
 * source tells an entry's declared size before reading it (see {@link ZipArchive}). The archive is read as
 * it was when opened; a writer replaces it whole ({@link ZipWriteStore}), so readers never see it half
 * written. Thread-safe.
 */
public final class ZipStore implements Store {
  private final ZipArchive archive;

  ZipStore(ZipArchive archive) {
    this.archive = archive;
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return archive.get(key);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    return archive.get(key, range);
  }

  @Override
  public Optional<Long> size(String key) {
    return archive.size(key);
  }

  @Override
  public Optional<ByteSource> source(String key) {
    return archive.source(key);
  }

  @Override
  public List<String> list(String prefix) {
    Keys.checkPrefix(prefix);
    return new ArrayList<>(archive.entries().subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet());
  }

  @Override
  public Listing listDir(String prefix) {
    Keys.checkPrefix(prefix);
    return Keys.listing(archive.entries().subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet(), prefix);
  }

  @Override
  public String describe() {
    return "zip archive " + archive.path();
  }

  /** Closes the file; buffers already returned stay valid. */
  @Override
  public void close() {
    archive.close();
  }
}
