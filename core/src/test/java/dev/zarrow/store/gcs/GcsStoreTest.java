package dev.zarrow.store.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.store.http.FaultyServer;
import dev.zarrow.testing.AllocatorExtension;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * gs:// against a local server written for the test that speaks what the store uses of GCS: objects at
 * {@code /BUCKET/OBJECT} with ranges and HEAD, the JSON API's object listing with prefix, delimiter and
 * pages of two, and bearer tokens (bucket {@code private} wants one, {@code public} does not).
 */
@ExtendWith(AllocatorExtension.class)
class GcsStoreTest {
  private static final String TOKEN = "ya29.test-7f3c9e1d";
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  static final MemoryStore objects = new MemoryStore(); // object names: BUCKET/OBJECT
  static FaultyServer gcs;
  static final List<FaultyServer.Request> seen = java.util.Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void start() throws Exception {
    try (BufferAllocator allocator = new RootAllocator()) {
      for (String bucket : List.of("public", "private")) {
        MemoryStore data = new MemoryStore();
        ZarrArray a = Zarr.createArray(data, "era/t2m", ArraySpec.of(FixedType.INT32, 8, 8).chunks(8, 8).compressors(List.of())
            .serializer(ArraySpec.shardingIndexed(new int[] {2, 2}, List.of(ArraySpec.bytes("little")))));
        try (IntVector v = new IntVector("v", allocator)) {
          v.allocateNew(64);
          for (int i = 0; i < 64; i++) {
            v.set(i, 250 + i);
          }
          v.setValueCount(64);
          a.write(new long[] {0, 0}, new NdVector(v, new long[] {8, 8}));
        }
        Zarr.createArray(data, "era/sp", ArraySpec.of(FixedType.FLOAT32, 4).chunks(2));
        for (String key : data.list("")) {
          objects.set(bucket + "/data.zarr/" + key, data.get(key).orElseThrow());
        }
      }
    }
    gcs = new FaultyServer();
    gcs.script(GcsStoreTest::answer);
  }

  @AfterAll
  static void stop() throws Exception {
    gcs.close();
  }

  /** The fake GCS. */
  private static FaultyServer.Reply answer(FaultyServer.Request request) {
    seen.add(request);
    URI uri = URI.create(request.path());
    String path = uri.getPath();
    String bucket = path.startsWith("/storage/v1/b/") ? path.split("/")[4] : path.split("/")[1];
    if (bucket.equals("private") && !("Bearer " + TOKEN).equals(request.headers().get("authorization"))) {
      return FaultyServer.Reply.of(401, Map.of("Content-Type", "application/json"),
          "{\"error\":{\"code\":401,\"message\":\"Anonymous caller does not have storage.objects.get access.\"}}".getBytes(StandardCharsets.UTF_8));
    }
    if (path.startsWith("/storage/v1/b/")) {
      return list(bucket, query(uri.getRawQuery()));
    }
    String name = path.substring(1);
    var value = objects.get(name);
    if (value.isEmpty()) {
      return FaultyServer.Reply.of(404, Map.of(), "No such object".getBytes(StandardCharsets.UTF_8));
    }
    byte[] bytes = new byte[value.get().remaining()];
    value.get().duplicate().get(bytes);
    String range = request.headers().get("range");
    if (range == null) {
      return FaultyServer.Reply.of(200, Map.of("Content-Type", "application/octet-stream"), bytes);
    }
    Matcher m = RANGE.matcher(range);
    assertTrue(m.matches(), range);
    int from;
    int to;
    if (m.group(1).isEmpty()) {
      from = Math.max(0, bytes.length - Integer.parseInt(m.group(2)));
      to = bytes.length - 1;
    } else {
      from = Integer.parseInt(m.group(1));
      to = m.group(2).isEmpty() ? bytes.length - 1 : Math.min(bytes.length - 1, Integer.parseInt(m.group(2)));
    }
    byte[] part = java.util.Arrays.copyOfRange(bytes, from, to + 1);
    return FaultyServer.Reply.of(206, Map.of("Content-Range", "bytes " + from + "-" + to + "/" + bytes.length), part);
  }

  /** The JSON API's objects.list: items and prefixes under the prefix, two entries a page. */
  private static FaultyServer.Reply list(String bucket, Map<String, String> query) {
    String prefix = bucket + "/" + query.getOrDefault("prefix", "");
    String delimiter = query.get("delimiter");
    List<String> entries = new ArrayList<>();
    for (String name : objects.list(prefix)) {
      String rest = name.substring(prefix.length());
      int cut = delimiter == null ? -1 : rest.indexOf(delimiter);
      String entry = cut < 0 ? name : name.substring(0, prefix.length() + cut + 1) + "/";
      if (!entries.contains(entry)) {
        entries.add(entry);
      }
    }
    if (bucket.equals("looping")) { // a broken server: the same next page every time
      return FaultyServer.Reply.of(200, Map.of("Content-Type", "application/json"),
          "{\"items\":[{\"name\":\"data.zarr/zarr.json\"}],\"nextPageToken\":\"again\"}".getBytes(StandardCharsets.UTF_8));
    }
    int start = Integer.parseInt(query.getOrDefault("pageToken", "0"));
    ObjectNode page = new ObjectMapper().createObjectNode();
    for (String entry : entries.subList(start, Math.min(entries.size(), start + 2))) {
      String object = entry.substring(bucket.length() + 1);
      if (entry.endsWith("//")) {
        page.withArray("prefixes").add(object.substring(0, object.length() - 1));
      } else {
        page.withArray("items").addObject().put("name", object).put("bucket", bucket);
      }
    }
    if (start + 2 < entries.size()) {
      page.put("nextPageToken", String.valueOf(start + 2));
    }
    page.put("kind", "storage#objects");
    return FaultyServer.Reply.of(200, Map.of("Content-Type", "application/json"), page.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static String endpoint() {
    return gcs.url().resolve("/").toString();
  }

  @Test
  void aPublicBucketReadsAndListsWithoutCredentials(BufferAllocator allocator) {
    try (Store store = Stores.open("gs://public/data.zarr", Map.of("gcs.endpoint", endpoint()))) {
      assertTrue(store.describe().contains("read-only"), store.describe());
      ZarrArray a = Zarr.openArray(store, "era/t2m", ZarrOptions.defaults());
      try (NdVector region = a.read(Box.parse("2:4,3:5", a.shape()), allocator)) {
        IntVector v = (IntVector) region.vector();
        assertEquals(250 + 2 * 8 + 3, v.get(0));
        assertEquals(250 + 3 * 8 + 4, v.get(3));
      }
      List<String> expected = new ArrayList<>();
      for (String name : objects.list("public/data.zarr/")) {
        expected.add(name.substring("public/data.zarr/".length()));
      }
      assertEquals(expected, store.list(""), "every page of the listing");
      Store.Listing top = store.listDir("era/");
      assertEquals(List.of("era/sp/", "era/t2m/"), top.prefixes());
      ZarrGroup era = Zarr.openGroup(store, "era");
      assertEquals(List.of("sp", "t2m"), List.copyOf(era.children().all().keySet()));
    }
    assertTrue(seen.stream().noneMatch(r -> r.headers().containsKey("authorization")), "no credentials were sent");
  }

  @Test
  void aPrivateBucketWantsTheToken(BufferAllocator allocator) {
    try (Store store = Stores.open("gs://private/data.zarr", Map.of("gcs.endpoint", endpoint(), "gcs.token", TOKEN))) {
      try (NdVector all = Zarr.openArray(store, "era/t2m", ZarrOptions.defaults()).read(allocator)) {
        assertEquals(64, all.vector().getValueCount());
        assertEquals(250 + 63, ((IntVector) all.vector()).get(63));
      }
      assertFalse(store.list("era/").isEmpty());
      assertFalse(store.describe().contains(TOKEN));
    }
    try (Store store = GcsStore.open("gs://private/data.zarr", Map.of(),
        Map.of("STORAGE_EMULATOR_HOST", endpoint().replace("http://", ""), "GOOGLE_OAUTH_ACCESS_TOKEN", TOKEN))) {
      assertTrue(store.get("era/t2m/zarr.json").isPresent(), "endpoint and token from the environment");
    }
    try (Store store = Stores.open("gs://private/data.zarr", Map.of("gcs.endpoint", endpoint()))) {
      StoreException read = assertThrows(StoreException.class, () -> store.get("era/t2m/zarr.json"));
      assertTrue(read.getMessage().contains("401"), read.getMessage());
      StoreException list = assertThrows(StoreException.class, () -> store.list(""));
      assertTrue(list.getMessage().contains("401") && list.getMessage().contains("GOOGLE_OAUTH_ACCESS_TOKEN"), list.getMessage());
    }
  }

  @Test
  void aRepeatedPageTokenEndsTheListing() {
    try (Store store = Stores.open("gs://looping/data.zarr", Map.of("gcs.endpoint", endpoint()))) {
      StoreException e = assertThrows(StoreException.class, () -> store.list(""));
      assertTrue(e.getMessage().contains("repeated a page token"), e.getMessage());
    }
  }

  @Test
  void gsLocationsAreReadOnlyAndChecked() {
    var e = assertThrows(IllegalArgumentException.class, () -> Stores.openWritable("gs://public/data.zarr"));
    assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Stores.open("gs://Bad_Bucket/x", Map.of("gcs.endpoint", endpoint())));
    assertThrows(IllegalArgumentException.class, () -> Stores.open("gs://public/x", Map.of("gcs.bogus", "1")));
  }
}
