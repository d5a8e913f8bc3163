package dev.zarrow.store;

import dev.zarrow.error.StoreException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A store in memory. A value is copied once when it is set, into a direct buffer that every reader
 * shares; gets hand out read-only views of it, so decoders copy what they keep (see {@link Store}) and
 * no vector can change what another reader sees. Not zero-copy, unlike {@link FileSystemStore}, whose
 * reads are fresh memory that decoders wrap.
 */
public final class MemoryStore implements WritableStore {
  private final ConcurrentSkipListMap<String, ByteBuffer> values = new ConcurrentSkipListMap<>();
  private final KeyLocks locks = new KeyLocks();

  @Override
  public Optional<ByteBuffer> get(String key) {
    ByteBuffer value = values.get(Keys.check(key));
    return value == null ? Optional.empty() : Optional.of(value.duplicate());
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    ByteBuffer value = values.get(Keys.check(key));
    if (value == null) {
      return Optional.empty();
    }
    int size = value.remaining();
    if (!range.fits(size)) {
      throw new StoreException("byte range " + range + " is outside key " + key + " of " + size + " bytes");
    }
    return Optional.of(value.slice((int) range.start(size), (int) range.length(size)));
  }

  /**
   * A view of the value as it is now: later range reads (a shard's index, then its inner chunks) must
   * all see one value even when the key is replaced meanwhile.
   */
  @Override
  public Optional<ByteSource> source(String key) {
    ByteBuffer value = values.get(Keys.check(key));
    return value == null ? Optional.empty() : Optional.of(ByteSource.of(value));
  }

  @Override
  public Optional<Long> size(String key) {
    ByteBuffer value = values.get(Keys.check(key));
    return value == null ? Optional.empty() : Optional.of((long) value.remaining());
  }

  @Override
  public List<String> list(String prefix) {
    Keys.checkPrefix(prefix);
    return new ArrayList<>(values.subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet());
  }

  @Override
  public Listing listDir(String prefix) {
    Keys.checkPrefix(prefix);
    return Keys.listing(values.subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet(), prefix);
  }

  @Override
  public void set(String key, ByteBuffer value) {
    ByteBuffer copy = ByteBuffer.allocateDirect(value.remaining());
    copy.put(value.duplicate()).flip();
    values.put(Keys.check(key), copy.asReadOnlyBuffer());
  }

  @Override
  public java.util.concurrent.locks.Lock lock(String key) {
    return locks.lock(key);
  }

  @Override
  public void delete(String key) {
    values.remove(Keys.check(key));
  }

  @Override
  public String describe() {
    return "memory store@" + Integer.toHexString(System.identityHashCode(this));
  }
}
