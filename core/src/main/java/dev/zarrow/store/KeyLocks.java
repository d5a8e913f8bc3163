package dev.zarrow.store;

import java.util.concurrent.locks.ReentrantLock;

/** Striped locks by key: writers of one key in one process take turns (read-modify-write of a chunk or shard). */
final class KeyLocks {
  private final ReentrantLock[] stripes = new ReentrantLock[256];

  KeyLocks() {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  ReentrantLock lock(String key) {
    return stripes[(key.hashCode() & 0x7fffffff) % stripes.length];
  }
}
