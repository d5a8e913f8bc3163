package dev.zarrow.store;

import java.nio.ByteBuffer;

/** A store that can be written. Every {@link #set} is atomic: readers see the old value or the new one. */
public interface WritableStore extends Store {

  /** Stores {@code value} (its remaining bytes) under {@code key}, replacing any old value atomically. */
  void set(String key, ByteBuffer value);

  /**
   * The lock that writers of {@code key} in this process hold around a read-modify-write of it, so that
   * concurrent partial updates of one chunk or shard all land. Several keys may share a lock.
   */
  java.util.concurrent.locks.Lock lock(String key);

  /** Removes {@code key}; a missing key is not an error. */
  void delete(String key);

  /** Removes every key that starts with {@code prefix}. */
  default void deletePrefix(String prefix) {
    for (String key : list(prefix)) {
      delete(key);
    }
  }
}
