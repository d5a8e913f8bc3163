package dev.zarrow.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.S3ProxyPeer;
import dev.zarrow.testing.StoreCorpus;
import dev.zarrow.testing.Vectors;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Arrays and group tables written to and read from a real S3-compatible server (S3Proxy on loopback). */
@ExtendWith(AllocatorExtension.class)
class S3ArraysTest {
  static S3ProxyPeer s3;
  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyPeer.start("data");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  static S3Store store(String location) {
    return S3Store.open(location, S3StoreTest.settings(s3, S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY));
  }

  @Test
  void everyKindOfArrayReadsEqual(BufferAllocator allocator) throws Exception {
    try (FileSystemStore local = FileSystemStore.open(dir.resolve("corpus")); S3Store remote = store("s3://data/corpus")) {
      List<String> arrays;
      try (BufferAllocator a = new RootAllocator()) {
        arrays = StoreCorpus.write(local, a, false); // the tables: writesAnArrayByRegionsAndAGroupTable
      }
      for (String key : local.list("")) {
        ByteBuffer value = local.get(key).orElseThrow();
        try {
          remote.set(key, value);
        } catch (StoreException e) {
          throw new AssertionError(key + " of " + value.remaining() + " bytes", e);
        }
      }
      assertTrue(local.list("").size() > 1000, "more keys than one LIST page of S3 (1000): " + local.list("").size());
      assertEquals(local.list(""), remote.list(""), "the pages of LIST, all of them");
      assertEquals(local.listDir("core/"), remote.listDir("core/"));
      StoreCorpus.assertSameArrays(local, remote, arrays, allocator);
    }
  }

  @Test
  void writesAnArrayByRegionsAndAGroupTable(BufferAllocator allocator) throws Exception {
    MemoryStore reference = new MemoryStore();
    try (S3Store remote = store("s3://data/written/")) {
      ArraySpec spec = ArraySpec.of(FixedType.FLOAT64, 40, 30).chunks(20, 10).compressors(List.of())
          .serializer(ArraySpec.shardingIndexed(new int[] {5, 5}, List.of(ArraySpec.bytes("little"), ArraySpec.zstd(1))));
      ZarrArray a = Zarr.createArray(remote, "grid", spec);
      ZarrArray b = Zarr.createArray(reference, "grid", spec);
      Random random = new Random(3);
      for (Box region : List.of(new Box(new long[] {0, 0}, new long[] {40, 30}), new Box(new long[] {3, 7}, new long[] {12, 15}),
          new Box(new long[] {33, 28}, new long[] {7, 2}))) {
        try (FieldVector values = Vectors.random(FixedType.FLOAT64, (int) region.size(), random, allocator)) {
          a.write(region, values);
          b.write(region, values);
        }
      }
      StoreCorpus.assertSameArrays(reference, remote, List.of("grid"), allocator);
      Path stream = GoldStreams.goldenStreams().stream().filter(p -> GoldStreams.caseName(p).equals("primitive")).findFirst().orElseThrow();
      ZarrGroup table;
      try (InputStream in = Files.newInputStream(stream); ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
        table = TableWriter.write(Zarr.createGroup(remote, "table"), reader, TableOptions.defaults().withChunkRows(4).withShardRows(8));
      }
      try (Store again = store("s3://data/written"); TableReader rows = TableReader.of(Zarr.openGroup(again, "table"), allocator)) {
        long n = 0;
        while (rows.loadNextBatch()) {
          n += rows.getVectorSchemaRoot().getRowCount();
        }
        assertTrue(n > 0);
        assertEquals(table.childNames(), Zarr.openGroup(again, "table").childNames());
      }
      assertTrue(remote.list("").contains("grid/zarr.json"));
      remote.deletePrefix("grid/");
      assertEquals(List.of(), remote.list("grid/"));
      assertTrue(remote.list("table/").size() > 1);
    }
  }

  @Test
  void largeValuesGoUpInParts() {
    try (S3Store remote = store("s3://data/big")) {
      byte[] value = new byte[13 << 20];
      new Random(5).nextBytes(value);
      remote.set("v", ByteBuffer.wrap(value)); // threshold 6 MiB, parts of 5 MiB: three parts
      assertEquals(java.util.Optional.of((long) value.length), remote.size("v"));
      assertTrue(java.util.Arrays.equals(value, Vectors.toArray(remote.get("v").orElseThrow())));
    }
  }

  @Test
  void wrongCredentialsAreAClearError() {
    try (S3Store remote = S3Store.open("s3://data/x", S3StoreTest.settings(s3, S3ProxyPeer.ACCESS_KEY, "wrong"))) {
      StoreException e = assertThrows(StoreException.class, () -> remote.get("zarr.json"));
      assertTrue(e.getMessage().contains("access denied") && e.getMessage().contains("s3://data/x/") && e.getMessage().contains("zarr.json"),
          e.getMessage());
      assertThrows(StoreException.class, () -> remote.set("k", ByteBuffer.allocate(1)));
      assertThrows(StoreException.class, () -> remote.list(""));
    }
    try (S3Store remote = store("s3://no-such-bucket/x")) {
      StoreException e = assertThrows(StoreException.class, () -> remote.set("k", ByteBuffer.allocate(1)));
      assertTrue(e.getMessage().contains("no-such-bucket"), e.getMessage());
    }
  }

  /** Without the SDK on the class path, s3:// says what to add; the other locations still open. */
  @Test
  void withoutTheSdkS3SaysWhatToAdd() throws Exception {
    List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      if (!entry.contains("awssdk") && !entry.contains("s3proxy")) {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Thread.currentThread().setContextClassLoader(loader);
      Class<?> stores = loader.loadClass(Stores.class.getName());
      var open = stores.getMethod("open", String.class);
      var e = assertThrows(InvocationTargetException.class, () -> open.invoke(null, "s3://bucket/prefix"));
      assertEquals(StoreException.class.getName(), e.getCause().getClass().getName());
      assertTrue(e.getCause().getMessage().contains("software.amazon.awssdk:s3"), e.getCause().getMessage());
      ((AutoCloseable) open.invoke(null, "memory:")).close();
    } finally {
      Thread.currentThread().setContextClassLoader(context);
    }
  }

  /**
   * Endpoint and region from the environment: {@code AWS_ENDPOINT_URL_S3} ahead of {@code AWS_ENDPOINT_URL}
   * (each alone reaches S3Proxy on loopback, which only path-style addressing can), {@code AWS_REGION}
   * else {@code us-east-1}; credentials through the SDK's default chain (its system properties here).
   */
  @Test
  void endpointAndRegionComeFromTheEnvironment() {
    String endpoint = s3.endpoint().toString();
    String nowhere = "http://127.0.0.1:9"; // the discard port: nothing answers
    java.util.Map<String, String> saved = new java.util.HashMap<>();
    java.util.Map.of("aws.accessKeyId", S3ProxyPeer.ACCESS_KEY, "aws.secretAccessKey", S3ProxyPeer.SECRET_KEY)
        .forEach((k, v) -> saved.put(k, System.setProperty(k, v)));
    try {
      S3Settings none = S3Settings.of("s3://data/env", java.util.Map.of(), java.util.Map.of());
      assertEquals(java.util.Optional.empty(), none.endpoint());
      assertEquals("us-east-1", none.region());
      S3Settings both = S3Settings.of("s3://data/env", java.util.Map.of(),
          java.util.Map.of("AWS_ENDPOINT_URL_S3", endpoint, "AWS_ENDPOINT_URL", nowhere, "AWS_REGION", "eu-west-3"));
      assertEquals(java.util.Optional.of(s3.endpoint()), both.endpoint());
      assertEquals("eu-west-3", both.region());
      S3Settings general = S3Settings.of("s3://data/env", java.util.Map.of(), java.util.Map.of("AWS_ENDPOINT_URL", endpoint));
      assertEquals(java.util.Optional.of(s3.endpoint()), general.endpoint());
      assertEquals("us-east-1", general.region());
      S3Settings option = S3Settings.of("s3://data/env", java.util.Map.of("s3.endpoint", nowhere, "s3.region", "ap-south-1"),
          java.util.Map.of("AWS_ENDPOINT_URL_S3", endpoint, "AWS_REGION", "eu-west-3"));
      assertEquals(java.util.Optional.of(java.net.URI.create(nowhere)), option.endpoint(), "an option wins over the environment");
      assertEquals("ap-south-1", option.region());
      for (S3Settings settings : List.of(both, general)) {
        try (S3Store remote = S3Store.open("s3://data/env", settings)) {
          remote.set("k", ByteBuffer.wrap(new byte[] {1, 2, 3}));
          assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), remote.get("k").orElseThrow());
          assertEquals(List.of("k"), remote.list(""));
          remote.delete("k");
        }
      }
      var e = assertThrows(IllegalArgumentException.class,
          () -> S3Settings.of("s3://data/env", java.util.Map.of(), java.util.Map.of("AWS_ENDPOINT_URL", "http://bad host/")));
      assertTrue(e.getMessage().contains("http://bad host/"), e.getMessage());
    } finally {
      saved.forEach((k, v) -> {
        if (v == null) {
          System.clearProperty(k);
        } else {
          System.setProperty(k, v);
        }
      });
    }
  }
}
