package dev.zarrow.store.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.http.FaultyServer.Reply;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the HTTP store does when the server misbehaves, against a loopback server of the tests' own:
 * transient errors are retried to success; answers that are not exactly what was asked, and servers that
 * stay silent, are clear {@link StoreException}s naming the URL and the key; never wrong data, never a hang.
 */
@ExtendWith(AllocatorExtension.class)
@Timeout(60)
class HttpStoreFaultTest {
  static final byte[] VALUE = "0123456789".getBytes(StandardCharsets.US_ASCII);
  static FaultyServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new FaultyServer();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static HttpStore store() {
    return new HttpStore(server.url(), new HttpSettings(Duration.ofSeconds(2), Duration.ofMillis(700), 2, Duration.ofMillis(10), 4, java.util.List.of()));
  }

  static Function<FaultyServer.Request, Reply> reply(int status) {
    return r -> Reply.of(status, Map.of(), new byte[0]);
  }

  static Function<FaultyServer.Request, Reply> ok() {
    return r -> Reply.of(200, Map.of(), VALUE);
  }

  static Function<FaultyServer.Request, Reply> partial(String contentRange, byte[] body) {
    return r -> Reply.of(206, Map.of("Content-Range", contentRange), body);
  }

  static String text(ByteBuffer b) {
    return new String(Vectors.toArray(b), StandardCharsets.US_ASCII);
  }

  static StoreException fails(HttpStore store, String key, ByteRange range) {
    StoreException e = assertThrows(StoreException.class, () -> {
      if (range == null) {
        store.get(key);
      } else {
        store.get(key, range);
      }
    });
    assertTrue(e.getMessage().contains(server.url() + "/" + key) && e.getMessage().contains("key " + key), e.getMessage());
    return e;
  }

  @Test
  void serverErrorsAndThrottlingAreRetried() {
    try (HttpStore store = store()) {
      server.script(reply(500), reply(503), ok());
      assertEquals("0123456789", text(store.get("k").orElseThrow()));
      assertEquals(3, server.requests().size());
      server.script(r -> Reply.of(429, Map.of("Retry-After", "0"), new byte[0]), ok());
      assertEquals("0123456789", text(store.get("k").orElseThrow()));
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void errorsThatLastFailNamingUrlAndKey() {
    try (HttpStore store = store()) {
      server.script(reply(503));
      StoreException e = fails(store, "a/c/0", null);
      assertTrue(e.getMessage().contains("503") && e.getMessage().contains("tried 3 times"), e.getMessage());
      assertEquals(3, server.requests().size());
      server.script(reply(403));
      e = fails(store, "a/c/0", null);
      assertTrue(e.getMessage().contains("access denied"), e.getMessage());
      assertEquals(1, server.requests().size(), "a refusal is not retried");
      server.script(reply(400));
      fails(store, "a/c/0", ByteRange.of(0, 2));
    }
  }

  @Test
  void aBodyCutShortIsRetriedAndNeverData() {
    try (HttpStore store = store()) {
      server.script(r -> Reply.of(200, Map.of(), VALUE).cutAt(4), ok());
      assertEquals("0123456789", text(store.get("k").orElseThrow()));
      server.script(r -> Reply.of(200, Map.of(), VALUE).cutAt(4));
      StoreException e = fails(store, "k", null);
      assertTrue(e.getMessage().contains("connection failed"), e.getMessage());
      server.script(r -> Reply.of(206, Map.of("Content-Range", "bytes 2-4/10"), "234".getBytes(StandardCharsets.US_ASCII)).cutAt(1));
      fails(store, "k", ByteRange.of(2, 3));
    }
  }

  @Test
  void anAnswerThatIsNotWhatWasAskedIsAnError() {
    try (HttpStore store = store()) {
      byte[] three = "345".getBytes(StandardCharsets.US_ASCII);
      server.script(partial("bytes 3-5/10", three));
      StoreException e = fails(store, "k", ByteRange.of(2, 3));
      assertTrue(e.getMessage().contains("bytes=2-4") && e.getMessage().contains("bytes 3-5/10"), e.getMessage());
      assertEquals(1, server.requests().size(), "a wrong answer is not retried");
      server.script(partial("bytes 2-4/10", "23456".getBytes(StandardCharsets.US_ASCII)));
      e = fails(store, "k", ByteRange.of(2, 3));
      assertTrue(e.getMessage().contains("longer"), e.getMessage());
      server.script(partial("bytes 2-4/10", "23".getBytes(StandardCharsets.US_ASCII)));
      fails(store, "k", ByteRange.of(2, 3));
      server.script(partial("bytes 7-9/10", three), partial("garbage", three));
      fails(store, "k", ByteRange.suffix(4));
      fails(store, "k", ByteRange.suffix(3));
      server.script(reply(206)); // no Content-Range at all
      fails(store, "k", ByteRange.of(0, 3));
    }
  }

  @Test
  void aSourceStaysOnOneVersionOfTheValue() {
    try (HttpStore store = store()) {
      server.script(r -> Reply.of(206, Map.of("Content-Range", "bytes 8-9/10", "ETag", "\"v1\""), "89".getBytes(StandardCharsets.US_ASCII)),
          r -> "\"v1\"".equals(r.headers().get("if-match"))
              ? Reply.of(206, Map.of("Content-Range", "bytes 0-1/10"), "01".getBytes(StandardCharsets.US_ASCII))
              : Reply.of(500, Map.of(), new byte[0]),
          reply(412));
      try (ByteSource source = store.source("k", ByteRange.suffix(2)).orElseThrow()) {
        assertEquals("89", text(source.read(ByteRange.suffix(2))));
        assertEquals("01", text(source.read(ByteRange.of(0, 2))));
        StoreException e = assertThrows(StoreException.class, () -> source.read(ByteRange.of(4, 2)));
        assertTrue(e.getMessage().contains("changed while being read"), e.getMessage());
      }
      server.script(r -> Reply.of(206, Map.of("Content-Range", "bytes 8-9/10"), "89".getBytes(StandardCharsets.US_ASCII)),
          partial("bytes 0-1/12", "01".getBytes(StandardCharsets.US_ASCII)));
      try (ByteSource source = store.source("k", ByteRange.suffix(2)).orElseThrow()) {
        StoreException e = assertThrows(StoreException.class, () -> source.read(ByteRange.of(0, 2)));
        assertTrue(e.getMessage().contains("10 bytes, now 12"), e.getMessage());
      }
    }
  }

  @Test
  void aServerThatStallsTimesOut() {
    try (HttpStore store = store()) {
      long started = System.nanoTime();
      server.script(r -> Reply.silent(30_000));
      StoreException e = fails(store, "k", null);
      assertTrue(e.getMessage().contains("timed out"), e.getMessage());
      server.script(r -> Reply.of(200, Map.of(), VALUE).stallAfter(3, 30_000));
      e = fails(store, "k", ByteRange.of(0, 10));
      assertTrue(e.getMessage().contains("timed out"), e.getMessage());
      long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
      assertTrue(seconds < 15, "gave up after " + seconds + " s");
      server.script(r -> Reply.silent(30_000), ok());
      assertEquals("0123456789", text(store.get("k").orElseThrow()), "a time-out is retried");
    }
  }

  @Test
  void anArrayReadNamesTheUrlKeyAndChunk(BufferAllocator allocator) {
    MemoryStore memory = new MemoryStore();
    ZarrArray array = Zarr.createArray(memory, "a", ArraySpec.of(FixedType.INT32, 4).chunks(2));
    byte[] metadata = Vectors.toArray(memory.get("a/zarr.json").orElseThrow());
    try (HttpStore store = store()) {
      server.script(r -> Reply.of(200, Map.of(), metadata), r -> Reply.of(200, Map.of(), new byte[100]).cutAt(10));
      ZarrArray remote = Zarr.openArray(store, "a");
      ZarrException e = assertThrows(ZarrException.class, () -> remote.readChunk(new long[] {1}, allocator).close());
      assertTrue(e.getMessage().contains(server.url() + "/a/c/1") && e.getMessage().contains("key a/c/1"), e.getMessage());
      assertEquals(List.of("/data/a/zarr.json", "/data/a/c/1", "/data/a/c/1", "/data/a/c/1"),
          server.requests().stream().map(FaultyServer.Request::path).toList());
    }
    assertEquals(4, array.shape()[0]);
  }

  /** However many threads read, no more requests than {@code http.concurrency} are in flight at once (and more than one are). */
  @Test
  void requestsInFlightAreBoundedByTheConcurrency() throws Exception {
    java.util.concurrent.atomic.AtomicInteger now = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
    server.script(r -> {
      int n = now.incrementAndGet();
      most.accumulateAndGet(n, Math::max);
      try {
        Thread.sleep(150); // long enough for the other readers to pile up
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        now.decrementAndGet();
      }
      int at = Integer.parseInt(r.headers().get("range").replaceAll("^bytes=(\\d+)-\\d+$", "$1"));
      return Reply.of(206, Map.of("Content-Range", "bytes " + at + "-" + at + "/10"), new byte[] {VALUE[at]});
    });
    int concurrency = 3;
    java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(10);
    try (HttpStore store = new HttpStore(server.url(), new HttpSettings(Duration.ofSeconds(2), Duration.ofSeconds(5), 0, Duration.ofMillis(10),
        concurrency, List.of()))) {
      List<java.util.concurrent.Future<String>> reads = new java.util.ArrayList<>();
      for (int i = 0; i < 20; i++) {
        int at = i % 10;
        reads.add(readers.submit(() -> text(store.get("k", ByteRange.of(at, 1)).orElseThrow())));
      }
      for (int i = 0; i < 20; i++) {
        assertEquals(String.valueOf(i % 10), reads.get(i).get());
      }
    } finally {
      readers.shutdownNow();
    }
    assertEquals(20, server.requests().size());
    assertTrue(most.get() <= concurrency, "at most " + concurrency + " in flight, saw " + most.get());
    assertTrue(most.get() > 1, "requests are concurrent, saw " + most.get());
  }

  /** A region of many chunks fetches them concurrently (within the store's bound), so a read costs round trips in proportion to its chunks over the bound. */
  @Test
  void aRegionReadFetchesItsChunksConcurrently(BufferAllocator allocator) {
    MemoryStore memory = new MemoryStore();
    ZarrArray array = Zarr.createArray(memory, "a", ArraySpec.of(FixedType.INT32, 32).chunks(2).compressors(List.of()));
    try (FieldVector values = Vectors.random(FixedType.INT32, 32, new java.util.Random(7), allocator)) {
      array.write(Box.of(32), values);
    }
    java.util.concurrent.atomic.AtomicInteger now = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
    server.script(r -> {
      String key = r.path().substring("/data/".length());
      byte[] value = Vectors.toArray(memory.get(key).orElseThrow());
      if (key.endsWith("zarr.json")) {
        return Reply.of(200, Map.of(), value);
      }
      most.accumulateAndGet(now.incrementAndGet(), Math::max);
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        now.decrementAndGet();
      }
      return Reply.of(200, Map.of(), value);
    });
    try (HttpStore store = store(); NdVector want = array.read(allocator); NdVector got = Zarr.openArray(store, "a").read(allocator)) {
      Vectors.assertSameValues(want.vector(), got.vector(), "over HTTP");
    }
    assertEquals(17, server.requests().size(), "metadata and 16 chunks");
    assertTrue(most.get() > 1 && most.get() <= 4, "chunk requests in flight at once: " + most.get() + " (bound 4)");
  }
}
