package dev.zarrow.store;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks by key: writers of one key in one process take turns (read-modify-write of a chunk or
 * shard). For {@link WritableStore#lock} implementations.
 */
public final class KeyLocks {
  private final ReentrantLock[] stripes = new ReentrantLock[256];

  public KeyLocks() {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** The lock of {@code key} (shared with the keys of its stripe). */
  public ReentrantLock lock(String key) {
    return stripes[(key.hashCode() & 0x7fffffff) % stripes.length];
  }
}
