package dev.zarrow.reliability;

import dev.zarrow.store.ByteRange;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

/**
 * A store that dies like a killed process: after {@code survive} changes (sets, deletes, renames) every
 * call throws {@link Crash}, so that nothing the writer does afterwards (its finally blocks, its
 * clean-up) reaches the store. What the store it wraps holds then is what a {@code kill -9} at that
 * moment would leave. Prefixes are deleted key by key, so a crash can land half way through.
 */
final class CrashingStore implements WritableStore {
  /** The "process" died: no handler may touch the store again. */
  static final class Crash extends Error {
    Crash() {
      super("crashed", null, false, false);
    }
  }

  private final WritableStore inner;
  private final AtomicInteger left;

  CrashingStore(WritableStore inner, int survive) {
    this.inner = inner;
    this.left = new AtomicInteger(survive);
  }

  /** Whether the store died. */
  boolean crashed() {
    return left.get() < 0;
  }

  private void alive() {
    if (left.get() < 0) {
      throw new Crash();
    }
  }

  private void change() {
    if (left.decrementAndGet() < 0) {
      throw new Crash();
    }
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    alive();
    return inner.get(key);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    alive();
    return inner.get(key, range);
  }

  @Override
  public Optional<Long> size(String key) {
    alive();
    return inner.size(key);
  }

  @Override
  public List<String> list(String prefix) {
    alive();
    return inner.list(prefix);
  }

  @Override
  public Listing listDir(String prefix) {
    alive();
    return inner.listDir(prefix);
  }

  @Override
  public String describe() {
    return "crashing " + inner.describe();
  }

  @Override
  public void set(String key, ByteBuffer value) {
    change();
    inner.set(key, value);
  }

  @Override
  public Lock lock(String key) {
    return inner.lock(key);
  }

  @Override
  public void delete(String key) {
    change();
    inner.delete(key);
  }

  /** Key by key, each a change that may crash; then the store's own (a directory store's removes the directories). */
  @Override
  public void deletePrefix(String prefix) {
    for (String key : list(prefix)) {
      delete(key);
    }
    alive();
    inner.deletePrefix(prefix);
  }

  @Override
  public boolean canRename() {
    return inner.canRename();
  }

  @Override
  public void rename(String from, String to) {
    change();
    inner.rename(from, to);
  }
}
