package dev.zarrow.store.http;

import dev.zarrow.testing.NeedsPeer;
import dev.zarrow.testing.Peer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Nginx;
import dev.zarrow.testing.StoreCorpus;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP store against a real web server: nginx from Debian on loopback, started once for the class
 * with a generated configuration. Its access log proves what partial reads cost.
 */
@NeedsPeer(Peer.NGINX)
@ExtendWith(AllocatorExtension.class)
class HttpStoreNginxTest {
  @TempDir static Path dir;
  static Nginx nginx;
  static FileSystemStore local;
  static List<String> corpus;

  @BeforeAll
  static void serve() throws Exception {
    local = FileSystemStore.open(dir.resolve("www/data"));
    try (BufferAllocator allocator = new RootAllocator()) {
      corpus = StoreCorpus.write(local, allocator);
      // 8 x 8 inner chunks of 4 x 4 in one 32 x 32 shard.
      ZarrArray sharded = Zarr.createArray(local, "one_shard", ArraySpec.of(FixedType.INT32, 32, 32).chunks(32, 32)
          .compressors(List.of()).serializer(ArraySpec.shardingIndexed(new int[] {4, 4}, List.of(ArraySpec.bytes("little"), ArraySpec.zstd(1)))));
      try (FieldVector data = Vectors.random(FixedType.INT32, 32 * 32, new java.util.Random(1), allocator)) {
        sharded.write(Box.of(32, 32), data);
      }
    }
    local.set("bytes/0123456789", ByteBuffer.wrap("0123456789".getBytes(StandardCharsets.US_ASCII)));
    local.set("bytes/empty", ByteBuffer.allocate(0));
    local.set("unicode/ключ #1?", ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)));
    nginx = Nginx.serve(dir.resolve("www"), Files.createDirectories(dir.resolve("nginx")));
  }

  @AfterAll
  static void stop() throws Exception {
    if (nginx != null) {
      nginx.close();
    }
    local.close();
  }

  static Store http() {
    return Stores.open(nginx.url() + "data", Map.of("http.timeout", "10"));
  }

  @Test
  void everyKindOfArrayReadsEqual(BufferAllocator allocator) {
    try (Store http = http()) {
      assertInstanceOf(HttpStore.class, http);
      StoreCorpus.assertSameArrays(local, http, corpus, allocator);
    }
  }

  @Test
  void oneInnerChunkOfAShardIsMetadataIndexAndChunk(BufferAllocator allocator) throws Exception {
    try (Store http = http()) {
      nginx.requests();
      ZarrArray array = Zarr.openArray(http, "one_shard");
      try (NdVector got = array.read(new Box(new long[] {8, 12}, new long[] {4, 4}), allocator);
          NdVector want = Zarr.openArray(local, "one_shard").read(new Box(new long[] {8, 12}, new long[] {4, 4}), allocator)) {
        Vectors.assertSameValues(want.vector(), got.vector(), "inner chunk (2, 3)");
      }
      List<Nginx.Request> requests = nginx.requests();
      assertEquals(3, requests.size(), requests.toString());
      assertEquals("/data/one_shard/zarr.json", requests.get(0).path());
      long indexBytes = 64 * 16 + 4; // 64 inner chunks x (offset, nbytes) + crc32c
      assertEquals(new Nginx.Request("GET", "/data/one_shard/c/0/0", "bytes=-" + indexBytes, 206, indexBytes), requests.get(1));
      Nginx.Request chunk = requests.get(2);
      assertEquals("/data/one_shard/c/0/0", chunk.path());
      assertEquals(206, chunk.status());
      assertTrue(chunk.range().matches("bytes=\\d+-\\d+") && chunk.bytes() < 200, chunk.toString());

      // A row of inner chunks of the open array: the index, then one coalesced range.
      try (NdVector row = array.read(new Box(new long[] {4, 0}, new long[] {4, 32}), allocator)) {
        assertEquals(128, row.vector().getValueCount());
      }
      List<Nginx.Request> row = nginx.requests();
      assertEquals(2, row.size(), row.toString());
      assertEquals("bytes=-" + indexBytes, row.get(0).range());
    }
  }

  @Test
  void readsKeysAndRanges() {
    try (Store http = http()) {
      assertEquals("0123456789", text(http.get("bytes/0123456789").orElseThrow()));
      assertEquals("234", text(http.get("bytes/0123456789", ByteRange.of(2, 3)).orElseThrow()));
      assertEquals("789", text(http.get("bytes/0123456789", ByteRange.suffix(3)).orElseThrow()));
      assertEquals("0123456789", text(http.get("bytes/0123456789", ByteRange.suffix(10)).orElseThrow()));
      assertEquals("", text(http.get("bytes/0123456789", ByteRange.of(10, 0)).orElseThrow()));
      for (ByteRange outside : List.of(ByteRange.of(8, 3), ByteRange.of(11, 0), ByteRange.suffix(11), ByteRange.of(10, 1),
          ByteRange.of(Long.MAX_VALUE, 1), ByteRange.of(1, Long.MAX_VALUE))) {
        var e = assertThrows(StoreException.class, () -> http.get("bytes/0123456789", outside), outside.toString());
        assertTrue(e.getMessage().contains("bytes/0123456789"), e.getMessage());
      }
      assertEquals(Optional.of(10L), http.size("bytes/0123456789"));
      assertEquals(Optional.of(0L), http.size("bytes/empty"));
      assertEquals(0, http.get("bytes/empty").orElseThrow().remaining());
      assertEquals("ok", text(http.get("unicode/ключ #1?").orElseThrow()));
      assertEquals(Optional.empty(), http.get("bytes/missing"));
      assertEquals(Optional.empty(), http.get("bytes/missing", ByteRange.of(0, 1)));
      assertEquals(Optional.empty(), http.size("bytes/missing"));
      assertEquals(Optional.empty(), http.source("bytes/missing"));
      assertEquals(Optional.empty(), http.source("bytes/missing", ByteRange.suffix(4)));
      assertFalse(http.exists("bytes"), "a directory is no key");
      assertEquals(Optional.empty(), http.get("bytes"));
      try (ByteSource s = http.source("bytes/0123456789", ByteRange.suffix(4)).orElseThrow()) {
        assertEquals(10, s.size());
        assertEquals("6789", text(s.read(ByteRange.suffix(4))));
        assertEquals(List.of("01", "45", "9"), s.readAll(List.of(ByteRange.of(0, 2), ByteRange.of(4, 2), ByteRange.suffix(1)))
            .stream().map(HttpStoreNginxTest::text).toList());
        assertEquals("3456", text(s.slice(3, 4).readAll()));
      }
      try (ByteSource s = http.source("bytes/0123456789", ByteRange.suffix(400)).orElseThrow()) {
        assertEquals("0123456789", text(s.readAll()), "a hint longer than the value fetches all of it");
      }
      try (ByteSource s = http.source("bytes/empty", ByteRange.suffix(4)).orElseThrow()) {
        assertEquals(0, s.size());
      }
    }
  }

  @Test
  void saysItCannotListOrWrite() {
    try (Store http = http()) {
      assertFalse(http.canList());
      var e = assertThrows(StoreException.class, () -> http.listDir(""));
      assertTrue(e.getMessage().contains("cannot list") && e.getMessage().contains(nginx.url() + "data"), e.getMessage());
      assertThrows(StoreException.class, () -> http.list("a/"));
    }
    var e = assertThrows(IllegalArgumentException.class, () -> Stores.openWritable(nginx.url() + "data"));
    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Stores.open(nginx.url() + "data?x=1"));
    assertThrows(IllegalArgumentException.class, () -> Stores.open(nginx.url() + "data", Map.of("http.bogus", "1")));
  }

  static String text(ByteBuffer b) {
    return new String(Vectors.toArray(b), StandardCharsets.UTF_8);
  }
}
