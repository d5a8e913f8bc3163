package dev.zarrow.store;

import java.nio.ByteBuffer;

/**
 * A store that can be written. Every {@link #set} is atomic: readers see the old value or the new one.
 *
 * <p>Stores that can move a whole prefix in one atomic step say so with {@link #canRename}: writers
 * then write a new node beside the old one and swap it in (see {@code dev.zarrow.NodeWriter}), so that
 * readers see the old node or the new one, whole. Stores that cannot (object stores, archives) decline,
 * and writers write in place, claiming the node only once it is complete.
 */
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

  /**
   * Whether {@link #rename} works here: true for a directory store (a directory rename); the default,
   * false, suits stores that cannot move many keys in one atomic step.
   */
  default boolean canRename() {
    return false;
  }

  /**
   * Moves every key below {@code from + "/"} to the same place below {@code to + "/"} in one atomic
   * step: a reader sees all of them at their old place or all at the new one, never some of each. Both
   * are non-empty key prefixes without the trailing {@code /}; nothing below {@code from} is a no-op;
   * {@code to} must hold no key (a {@link dev.zarrow.error.StoreException} otherwise).
   *
   * @throws UnsupportedOperationException when {@link #canRename} is false
   */
  default void rename(String from, String to) {
    throw new UnsupportedOperationException(describe() + " cannot rename");
  }
}
