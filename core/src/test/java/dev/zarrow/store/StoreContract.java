package dev.zarrow.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every writable store must do; a store's test subclasses this and says how to make an empty one. */
public abstract class StoreContract {
  protected WritableStore store;

  /** A new, empty store. */
  protected abstract WritableStore newStore();

  @BeforeEach
  void open() {
    store = newStore();
  }

  @AfterEach
  void close() {
    store.close();
  }

  protected static ByteBuffer bytes(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }

  protected static String text(ByteBuffer buffer) {
    return new String(Vectors.toArray(buffer), StandardCharsets.UTF_8);
  }

  @Test
  void missingKeysAreEmpty() {
    assertEquals(Optional.empty(), store.get("a/b"));
    assertEquals(Optional.empty(), store.get("a/b", ByteRange.of(0, 1)));
    assertEquals(Optional.empty(), store.size("a/b"));
    assertEquals(Optional.empty(), store.source("a/b"));
    assertFalse(store.exists("a/b"));
    assertEquals(List.of(), store.list(""));
    assertEquals(new Store.Listing(List.of(), List.of()), store.listDir(""));
  }

  @Test
  void renameMovesAPrefixInOneStepOrIsDeclined() {
    if (!store.canRename()) {
      assertThrows(UnsupportedOperationException.class, () -> store.rename("a", "b"));
      return;
    }
    store.set("a/x", bytes("1"));
    store.set("a/y/z", bytes("2"));
    store.set("ab", bytes("3"));
    store.rename("a", "b/c");
    assertEquals(List.of("ab", "b/c/x", "b/c/y/z"), store.list(""));
    assertEquals("2", text(store.get("b/c/y/z").orElseThrow()));
    store.rename("nothing", "d"); // nothing below: no change
    store.set("e/k", bytes("4"));
    assertThrows(StoreException.class, () -> store.rename("b/c", "e"), "the target holds a key");
    assertEquals(List.of("ab", "b/c/x", "b/c/y/z", "e/k"), store.list(""));
  }

  @Test
  void setThenGet() {
    store.set("a/b/c", bytes("hello"));
    ByteBuffer got = store.get("a/b/c").orElseThrow();
    assertEquals(0, got.position());
    assertEquals("hello", text(got));
    assertEquals(Optional.of(5L), store.size("a/b/c"));
    assertTrue(store.exists("a/b/c"));
    assertFalse(store.exists("a/b"), "a prefix is not a key");
    assertEquals(Optional.empty(), store.get("a/b"));
    assertEquals(Optional.empty(), store.size("a/b"));
    store.set("empty", ByteBuffer.allocate(0));
    assertEquals(0, store.get("empty").orElseThrow().remaining());
    assertEquals(Optional.of(0L), store.size("empty"));
  }

  @Test
  void storesTheRemainingBytesAndLeavesTheArgumentAlone() {
    ByteBuffer value = bytes("xxhelloyy");
    value.position(2).limit(7);
    store.set("k", value);
    assertEquals(2, value.position());
    assertEquals(7, value.limit());
    assertEquals("hello", text(store.get("k").orElseThrow()));
    // Changing the argument afterwards changes nothing stored.
    value.put(2, (byte) 'J');
    assertEquals("hello", text(store.get("k").orElseThrow()));
    ByteBuffer direct = Vectors.direct("direct".getBytes(StandardCharsets.UTF_8));
    store.set("d", direct);
    direct.put(0, (byte) 'X');
    assertEquals("direct", text(store.get("d").orElseThrow()));
  }

  @Test
  void returnedBuffersAreTheCallersOrReadOnly() {
    store.set("k", bytes("hello"));
    ByteBuffer got = store.get("k").orElseThrow();
    if (!got.isReadOnly()) {
      got.put(0, (byte) 'J'); // the caller's own memory
    }
    assertEquals("hello", text(store.get("k").orElseThrow()));
    ByteBuffer range = store.get("k", ByteRange.of(1, 3)).orElseThrow();
    if (!range.isReadOnly()) {
      range.put(0, (byte) 'J');
    }
    assertEquals("hello", text(store.get("k").orElseThrow()));
  }

  @Test
  void readsRanges() {
    store.set("k", bytes("0123456789"));
    assertEquals("234", text(store.get("k", ByteRange.of(2, 3)).orElseThrow()));
    assertEquals("0123456789", text(store.get("k", ByteRange.of(0, 10)).orElseThrow()));
    assertEquals("", text(store.get("k", ByteRange.of(10, 0)).orElseThrow()));
    assertEquals("", text(store.get("k", ByteRange.of(4, 0)).orElseThrow()));
    assertEquals("789", text(store.get("k", ByteRange.suffix(3)).orElseThrow()));
    assertEquals("0123456789", text(store.get("k", ByteRange.suffix(10)).orElseThrow()));
    assertEquals("", text(store.get("k", ByteRange.suffix(0)).orElseThrow()));
    assertEquals(0, store.get("k", ByteRange.of(2, 3)).orElseThrow().position());
    for (ByteRange outside : List.of(ByteRange.of(8, 3), ByteRange.of(11, 0), ByteRange.suffix(11), ByteRange.of(Long.MAX_VALUE, 1),
        ByteRange.of(1, Long.MAX_VALUE))) {
      var e = assertThrows(StoreException.class, () -> store.get("k", outside), outside.toString());
      assertTrue(e.getMessage().contains("k"), e.getMessage());
    }
  }

  @Test
  void sourcesReadLazily() {
    store.set("k", bytes("0123456789"));
    try (ByteSource source = store.source("k").orElseThrow()) {
      readsLazily(source);
    }
  }

  private static void readsLazily(ByteSource source) {
    assertEquals(10, source.size());
    assertEquals("0123456789", text(source.readAll()));
    assertEquals("345", text(source.read(ByteRange.of(3, 3))));
    assertEquals("89", text(source.read(ByteRange.suffix(2))));
    List<ByteBuffer> parts = source.readAll(List.of(ByteRange.of(0, 1), ByteRange.suffix(1), ByteRange.of(5, 2)));
    assertEquals(List.of("0", "9", "56"), parts.stream().map(StoreContract::text).toList());
    ByteSource slice = source.slice(2, 6);
    assertEquals(6, slice.size());
    assertEquals("234567", text(slice.readAll()));
    assertEquals("67", text(slice.read(ByteRange.suffix(2))));
    assertEquals("45", text(slice.slice(2, 3).read(ByteRange.of(0, 2))));
    assertThrows(CorruptChunkException.class, () -> slice.read(ByteRange.of(5, 2)));
    assertThrows(CorruptChunkException.class, () -> slice.read(ByteRange.suffix(7)));
    assertThrows(CorruptChunkException.class, () -> source.slice(8, 3));
    assertThrows(CorruptChunkException.class, () -> source.read(ByteRange.of(0, 11)));
  }

  /**
   * A partial read (a shard's index, then its inner chunks) goes through one source: every range must
   * come from the value the source was opened on, even after the key is replaced or deleted.
   */
  @Test
  void aSourceKeepsReadingTheValueItWasOpenedOn() {
    store.set("k", bytes("old-old-old"));
    try (ByteSource source = store.source("k").orElseThrow();
        ByteSource second = store.source("k").orElseThrow()) {
      assertEquals("old", text(source.read(ByteRange.of(0, 3))));
      store.set("k", bytes("NEW-NEW-NEW-NEW"));
      assertEquals(11, source.size());
      assertEquals("old", text(source.read(ByteRange.suffix(3))));
      assertEquals(List.of("old", "-ol"), source.readAll(List.of(ByteRange.of(4, 3), ByteRange.of(7, 3))).stream().map(StoreContract::text).toList());
      assertEquals("old-old-old", text(source.slice(0, 11).readAll()));
      store.delete("k");
      assertEquals("old-old-old", text(second.readAll()));
    }
    assertEquals(Optional.empty(), store.source("k"));
  }

  @Test
  void listsKeysByPrefixInOrder() {
    for (String key : List.of("b/zarr.json", "a/c/1", "a/c/0", "a/bc", "a/b/x", "zarr.json", "ab")) {
      store.set(key, bytes(key));
    }
    assertEquals(List.of("a/b/x", "a/bc", "a/c/0", "a/c/1", "ab", "b/zarr.json", "zarr.json"), store.list(""));
    assertEquals(List.of("a/b/x", "a/bc", "a/c/0", "a/c/1"), store.list("a/"));
    assertEquals(List.of("a/b/x", "a/bc"), store.list("a/b"));
    assertEquals(List.of("a/b/x"), store.list("a/b/"));
    assertEquals(List.of("a/c/0", "a/c/1"), store.list("a/c/"));
    assertEquals(List.of(), store.list("q/"));
    assertEquals(new Store.Listing(List.of("ab", "zarr.json"), List.of("a/", "b/")), store.listDir(""));
    assertEquals(new Store.Listing(List.of("a/bc"), List.of("a/b/", "a/c/")), store.listDir("a/"));
    assertEquals(new Store.Listing(List.of("a/c/0", "a/c/1"), List.of()), store.listDir("a/c/"));
    assertEquals(new Store.Listing(List.of(), List.of()), store.listDir("nothing/"));
  }

  @Test
  void deletes() {
    store.set("a/b", bytes("1"));
    store.set("a/c/d", bytes("2"));
    store.set("e", bytes("3"));
    store.delete("a/b");
    store.delete("a/b"); // missing: not an error
    store.delete("never/there");
    assertEquals(Optional.empty(), store.get("a/b"));
    assertEquals(List.of("a/c/d", "e"), store.list(""));
    store.deletePrefix("a/");
    assertEquals(List.of("e"), store.list(""));
    store.set("e", bytes("4"));
    assertEquals("4", text(store.get("e").orElseThrow()));
  }

  @Test
  void refusesKeysThatCouldEscape() {
    List<String> bad = List.of("", "/abs", "/", "..", "../x", "a/../b", "a/..", ".", "./a", "a/./b", "a//b", "a/",
        "a\\b", "..\\x", "a\u0000b", "a\nb", "a\u007fb");
    for (String key : bad) {
      String what = "key '" + key.replace("\u0000", "\\0") + "'";
      assertThrows(StoreException.class, () -> store.get(key), what + " get");
      assertThrows(StoreException.class, () -> store.get(key, ByteRange.of(0, 1)), what + " range");
      assertThrows(StoreException.class, () -> store.size(key), what + " size");
      assertThrows(StoreException.class, () -> store.set(key, bytes("x")), what + " set");
      assertThrows(StoreException.class, () -> store.delete(key), what + " delete");
    }
    for (String prefix : List.of("/abs/", "../", "a/../", "a\\b/", "a//")) {
      assertThrows(StoreException.class, () -> store.list(prefix), "list " + prefix);
      assertThrows(StoreException.class, () -> store.listDir(prefix), "listDir " + prefix);
    }
    assertEquals(List.of(), store.list(""), "nothing was written");
    var e = assertThrows(StoreException.class, () -> store.get("a/../../etc/passwd"));
    assertTrue(e.getMessage().contains("a/../../etc/passwd"), e.getMessage());
  }

  @Test
  void keepsLargeAndBinaryValues() {
    Random random = Seeds.random(getClass().getSimpleName() + " values");
    byte[] value = new byte[3 << 20];
    random.nextBytes(value);
    store.set("big", ByteBuffer.wrap(value));
    assertArrayEquals(value, Vectors.toArray(store.get("big").orElseThrow()));
    byte[] part = new byte[1000];
    System.arraycopy(value, 2_000_000, part, 0, 1000);
    assertArrayEquals(part, Vectors.toArray(store.get("big", ByteRange.of(2_000_000, 1000)).orElseThrow()));
    store.set("unicode/ключ/値", bytes("ok"));
    assertEquals(List.of("unicode/ключ/値"), store.list("unicode/"));
  }

  @Test
  void replacesValuesAtomically() throws Exception {
    // Values of different lengths, each one byte repeated: a torn read shows as mixed bytes or a wrong length.
    int[] lengths = {1, 70_000, 3, 250_000, 4096};
    store.set("k", ByteBuffer.wrap(filled(0)));
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch reading = new CountDownLatch(2); // the writer starts once both readers run
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<?> writer = pool.submit(() -> {
        reading.await();
        for (int i = 1; i < 256; i++) {
          store.set("k", ByteBuffer.wrap(filled(i)));
        }
        done.set(true);
        return null;
      });
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(pool.submit(() -> {
          int reads = 0;
          while (!done.get()) {
            byte[] got = Vectors.toArray(store.get("k").orElseThrow(() -> new AssertionError("the key vanished during a replace")));
            int version = got[0] & 0xff;
            assertEquals(lengths[version % lengths.length], got.length, "length of version " + version);
            for (byte b : got) {
              if (b != got[0]) {
                throw new AssertionError("a torn value: version " + version + " mixed with " + (b & 0xff));
              }
            }
            if (++reads == 1) {
              reading.countDown(); // once per reader: the writer waits until each has read
            }
          }
          return reads;
        }));
      }
      writer.get();
      for (Future<Integer> r : readers) {
        assertTrue(r.get() > 0);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of("k"), store.list(""), "no temporary values are visible");
  }

  private static byte[] filled(int version) {
    int[] lengths = {1, 70_000, 3, 250_000, 4096};
    byte[] out = new byte[lengths[version % lengths.length]];
    java.util.Arrays.fill(out, (byte) version);
    return out;
  }

  @Test
  void setsDifferentKeysFromManyThreads() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        writes.add(pool.submit(() -> {
          for (int i = 0; i < 50; i++) {
            store.set("t" + thread + "/c/" + i, bytes(thread + ":" + i));
          }
          return null;
        }));
      }
      for (Future<?> f : writes) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(400, store.list("").size());
    assertEquals("3:17", text(store.get("t3/c/17").orElseThrow()));
  }

  /** What {@link #listsWhileOthersWrite} may list: the keys written, nothing half-written. */
  protected String listedKeyPattern() {
    return "w/c/\\d+/\\d";
  }

  @Test
  void listsWhileOthersWrite() throws Exception {
    // Temporary values appear and vanish (and keys are deleted) while a listing walks the directories.
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> writer = pool.submit(() -> {
        for (int i = 0; i < 400; i++) {
          store.set("w/c/" + (i % 20) + "/" + (i % 7), bytes("v" + i));
          if (i % 3 == 0) {
            store.delete("w/c/" + (i % 20) + "/" + ((i + 1) % 7));
          }
        }
        done.set(true);
        return null;
      });
      Future<Integer> lister = pool.submit(() -> {
        int lists = 0;
        do { // at least once: a fast store may finish writing before the first listing
          for (String key : store.list("w/")) {
            assertTrue(key.matches(listedKeyPattern()), key);
          }
          store.listDir("w/c/");
          lists++;
        } while (!done.get());
        return lists;
      });
      writer.get();
      assertTrue(lister.get() > 0);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void locksAreSharedPerKey() {
    var a = store.lock("x/c/0");
    assertTrue(a == store.lock("x/c/0"), "one lock per key");
    a.lock();
    try {
      assertTrue(a.tryLock(), "reentrant for the holder");
      a.unlock();
    } finally {
      a.unlock();
    }
  }

  @Test
  void describesItself() {
    assertFalse(store.describe().isBlank());
    var e = assertThrows(ZarrException.class, () -> store.get("a/../b"));
    assertTrue(e instanceof StoreException);
  }
}
