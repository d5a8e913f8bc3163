package dev.zarrow.testing;

import dev.zarrow.store.ByteRange;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/**
 * A store that passes everything to another and remembers what it handed out: every buffer returned
 * (to compare memory addresses: zero-copy proofs), and the number of reads and bytes read (partial-read
 * proofs).
 */
public final class RecordingStore implements WritableStore {
  private final WritableStore inner;
  public final List<ByteBuffer> returned = new CopyOnWriteArrayList<>();
  public final AtomicLong reads = new AtomicLong();
  public final AtomicLong bytesRead = new AtomicLong();

  public RecordingStore(WritableStore inner) {
    this.inner = inner;
  }

  private Optional<ByteBuffer> record(Optional<ByteBuffer> value) {
    value.ifPresent(b -> {
      returned.add(b);
      reads.incrementAndGet();
      bytesRead.addAndGet(b.remaining());
    });
    return value;
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return record(inner.get(key));
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    return record(inner.get(key, range));
  }

  @Override
  public Optional<Long> size(String key) {
    return inner.size(key);
  }

  @Override
  public List<String> list(String prefix) {
    return inner.list(prefix);
  }

  @Override
  public Store.Listing listDir(String prefix) {
    return inner.listDir(prefix);
  }

  @Override
  public String describe() {
    return "recording " + inner.describe();
  }

  @Override
  public void set(String key, ByteBuffer value) {
    inner.set(key, value);
  }

  @Override
  public Lock lock(String key) {
    return inner.lock(key);
  }

  @Override
  public void delete(String key) {
    inner.delete(key);
  }

  @Override
  public boolean canRename() {
    return inner.canRename();
  }

  @Override
  public void rename(String from, String to) {
    inner.rename(from, to);
  }

  public void clear() {
    returned.clear();
    reads.set(0);
    bytesRead.set(0);
  }
}
