package dev.zarrow.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemoryStoreTest extends StoreContract {
  @Override
  protected WritableStore newStore() {
    return new MemoryStore();
  }

  @Test
  void sharesItsMemoryReadOnly() {
    store.set("k", bytes("hello"));
    assertTrue(store.get("k").orElseThrow().isReadOnly());
    assertTrue(store.get("k", ByteRange.of(1, 2)).orElseThrow().isReadOnly());
    assertTrue(store.get("k").orElseThrow().isDirect(), "direct, like every store's memory");
  }
}
