package dev.zarrow.store.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Nginx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headers of {@code http.headers} (or {@code ZARROW_HTTP_HEADERS}) on every request, against nginx that
 * answers 401 to any request without both; the values never show in messages.
 */
@ExtendWith(AllocatorExtension.class)
class HttpHeadersNginxTest {
  private static final String TOKEN = "sesame-7c1d2e9f4a";
  private static final String HEADERS = "Authorization: Bearer " + TOKEN + "\nX-Zarrow-Team: arrays";
  @TempDir static Path dir;
  static Nginx nginx;

  @BeforeAll
  static void serve() throws Exception {
    try (FileSystemStore local = FileSystemStore.open(dir.resolve("www/private/data"));
        BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
        IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(64);
      for (int i = 0; i < 64; i++) {
        v.set(i, i * 7);
      }
      v.setValueCount(64);
      // sharded: reads are a GET, a suffix range (the index) and ranges of inner chunks
      ZarrArray a = Zarr.createArray(local, "sharded", ArraySpec.of(FixedType.INT32, 8, 8).chunks(8, 8)
          .compressors(List.of()).serializer(ArraySpec.shardingIndexed(new int[] {2, 2}, List.of(ArraySpec.bytes("little")))));
      a.write(new long[] {0, 0}, new NdVector(v, new long[] {8, 8}));
    }
    nginx = Nginx.serve(dir.resolve("www"), Files.createDirectories(dir.resolve("nginx")), String.join("\n",
        "    location /private/ {",
        "      if ($http_authorization != \"Bearer " + TOKEN + "\") { return 401; }",
        "      if ($http_x_zarrow_team != \"arrays\") { return 401; }",
        "    }"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (nginx != null) {
      nginx.close();
    }
  }

  private static String location() {
    return nginx.url() + "private/data";
  }

  @Test
  void theHeadersGoWithEveryRequest(BufferAllocator allocator) throws Exception {
    nginx.requests();
    try (Store http = Stores.open(location(), Map.of("http.headers", HEADERS))) {
      ZarrArray a = Zarr.openArray(http, "sharded", ZarrOptions.defaults());
      try (NdVector region = a.read(Box.parse("1:3,2:6", a.shape()), allocator)) {
        IntVector v = (IntVector) region.vector();
        assertEquals(8 * 7 + 2 * 7, v.get(0));
        assertEquals(2 * 8 * 7 + 5 * 7, v.get(7));
      }
      assertTrue(http.size("sharded/zarr.json").isPresent()); // HEAD too
    }
    List<Nginx.Request> requests = nginx.requests();
    assertTrue(requests.size() >= 3, requests.toString());
    assertTrue(requests.stream().allMatch(r -> r.status() == 200 || r.status() == 206), requests.toString());
  }

  @Test
  void fromTheEnvironmentToo(BufferAllocator allocator) throws Exception {
    HttpSettings settings = HttpSettings.of(location(), Map.of(), Map.of(HttpSettings.HEADERS_VARIABLE, HEADERS));
    assertFalse(settings.toString().contains(TOKEN), settings.toString());
    try (Store http = HttpStore.open(location(), settings)) {
      assertTrue(http.get("sharded/zarr.json").isPresent());
    }
  }

  @Test
  void withoutThemTheServerSays401AndNoValueIsPrinted() throws Exception {
    for (Map<String, String> options : List.of(Map.<String, String>of(), Map.of("http.headers", "Authorization: Bearer wrong-1234"),
        Map.of("http.headers", "Authorization: Bearer " + TOKEN))) {
      try (Store http = Stores.open(location(), options)) {
        StoreException e = assertThrows(StoreException.class, () -> http.get("sharded/zarr.json"));
        assertTrue(e.getMessage().contains("401"), e.getMessage());
        assertFalse(e.getMessage().contains(TOKEN) || e.getMessage().contains("wrong-1234"), e.getMessage());
      }
    }
  }

  @Test
  void badHeadersAreRefusedNamingNoValue() {
    var e = assertThrows(IllegalArgumentException.class, () -> Stores.open(location(), Map.of("http.headers", "Bearer " + TOKEN)));
    assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Stores.open(location(), Map.of("http.headers", "Host: elsewhere")));
    assertTrue(e.getMessage().contains("Host"), e.getMessage());
  }
}
