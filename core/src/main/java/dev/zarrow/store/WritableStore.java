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

  /**
   * True when {@link #renamePrefix} moves a whole prefix in one atomic step (a directory store: one
   * rename of a directory). Writers that replace a node use it to swap the new one in; where it is false
   * they cannot, and readers may see a node while it is being replaced key by key.
   */
  default boolean canRenameAtomically() {
    return false;
  }

  /**
   * Moves every key under {@code from} to the same place under {@code to} (both prefixes ending with
   * {@code /}) in one atomic step: readers see every key under the old prefix or every key under the
   * new one. Nothing may be stored under {@code to}. Only where {@link #canRenameAtomically()}.
   */
  default void renamePrefix(String from, String to) {
    throw new UnsupportedOperationException(describe() + " cannot rename atomically");
  }

  /** Removes {@code key}; a missing key is not an error. */
  void delete(String key);

  /** Removes every key that starts with {@code prefix}. */
  default void deletePrefix(String prefix) {
    for (String key : list(prefix)) {
      delete(key);
    }
  }
}
