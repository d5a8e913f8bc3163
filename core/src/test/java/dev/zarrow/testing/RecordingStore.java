package dev.zarrow.testing;

import dev.zarrow.store.ByteRange;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The one forwarding store of the tests: passes everything to the store it wraps and records what was
 * asked and handed out. Get requests (whole or ranged) with the bytes they returned prove partial
 * reads ("one inner chunk costs two requests"); the buffers themselves prove zero-copy by address;
 * size look-ups and writes (sets, deletes, renames) are counted. Writes to a store that cannot be written
 * fail as they would.
 */
public final class RecordingStore implements WritableStore {
  /** One get request: the key, the range ({@code null} for the whole value), and what came back (null: absent). */
  public record Request(String key, ByteRange range, long bytes, ByteBuffer value) {
    @Override
    public String toString() {
      return key + (range == null ? "" : " " + range) + ": " + (value == null ? "absent" : bytes + " bytes");
    }
  }

  private final Store delegate;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong sizes = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final List<Request> requests = new ArrayList<>();

  public RecordingStore(Store delegate) {
    this.delegate = delegate;
  }

  /** The number of get requests since the last {@link #reset()}, answered or not. */
  public synchronized int gets() {
    return requests.size();
  }

  /** The get requests since the last {@link #reset()}, in order. */
  public synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The buffers handed out since the last {@link #reset()}, in order. */
  public synchronized List<ByteBuffer> returned() {
    return requests.stream().map(Request::value).filter(Objects::nonNull).toList();
  }

  /** The address of the first byte of the buffer last handed out for {@code key} (a direct buffer). */
  public synchronized long lastAddress(String key) {
    for (int i = requests.size() - 1; i >= 0; i--) {
      Request r = requests.get(i);
      if (r.key().equals(key) && r.value() != null) {
        return MemoryUtil.getByteBufferAddress(r.value()) + r.value().position();
      }
    }
    throw new AssertionError("nothing was read from " + key);
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

  private Optional<ByteBuffer> record(String key, ByteRange range, Optional<ByteBuffer> value) {
    long n = value.map(ByteBuffer::remaining).orElse(0);
    bytes.addAndGet(n);
    synchronized (this) {
      requests.add(new Request(key, range, n, value.orElse(null)));
    }
    return value;
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return record(key, null, delegate.get(key));
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    return record(key, range, delegate.get(key, range));
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
    throw new IllegalStateException(delegate.describe() + " is read-only");
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
  public void deletePrefix(String prefix) {
    writes.incrementAndGet();
    writable().deletePrefix(prefix);
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
    return "recording " + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
