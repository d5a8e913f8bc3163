package dev.zarrow.testing;

import dev.zarrow.error.StoreException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/**
 * A store that counts what is asked of the store it wraps: get requests (whole or ranged), the bytes
 * they return, size look-ups and writes. Proves partial reads: "one inner chunk costs two requests".
 * Stores that cannot be written refuse writes.
 */
public final class CountingStore implements WritableStore {
  /** One get request: the key and the range ({@code null} for the whole value). */
  public record Request(String key, ByteRange range, long bytes) {}

  private final Store delegate;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong sizes = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final List<Request> requests = new ArrayList<>();

  public CountingStore(Store delegate) {
    this.delegate = delegate;
  }

  /** The number of get requests since the last {@link #reset()}. */
  public synchronized int gets() {
    return requests.size();
  }

  /** The get requests since the last {@link #reset()}, in order. */
  public synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The bytes returned by get requests since the last {@link #reset()}. */
  public long bytes() {
    return bytes.get();
  }

  /** The size look-ups since the last {@link #reset()}. */
  public long sizes() {
    return sizes.get();
  }

  /** The sets and deletes since the last {@link #reset()}. */
  public long writes() {
    return writes.get();
  }

  public synchronized void reset() {
    requests.clear();
    bytes.set(0);
    sizes.set(0);
    writes.set(0);
  }

  private Optional<ByteBuffer> count(String key, ByteRange range, Optional<ByteBuffer> value) {
    long n = value.map(ByteBuffer::remaining).orElse(0);
    bytes.addAndGet(n);
    synchronized (this) {
      requests.add(new Request(key, range, n));
    }
    return value;
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return count(key, null, delegate.get(key));
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    return count(key, range, delegate.get(key, range));
  }

  @Override
  public Optional<Long> size(String key) {
    sizes.incrementAndGet();
    return delegate.size(key);
  }

  @Override
  public List<String> list(String prefix) {
    return delegate.list(prefix);
  }

  @Override
  public Listing listDir(String prefix) {
    return delegate.listDir(prefix);
  }

  private WritableStore writable() {
    if (delegate instanceof WritableStore w) {
      return w;
    }
    throw new StoreException(delegate.describe() + " is read-only");
  }

  @Override
  public void set(String key, ByteBuffer value) {
    writes.incrementAndGet();
    writable().set(key, value);
  }

  @Override
  public Lock lock(String key) {
    return writable().lock(key);
  }

  @Override
  public void delete(String key) {
    writes.incrementAndGet();
    writable().delete(key);
  }

  @Override
  public boolean canRename() {
    return delegate instanceof WritableStore w && w.canRename();
  }

  @Override
  public void rename(String from, String to) {
    writes.incrementAndGet();
    writable().rename(from, to);
  }

  @Override
  public String describe() {
    return "counting " + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
