package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.Nginx;
import dev.zarrow.testing.S3ProxyPeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every STORE argument takes a location: {@code copy} between a web server (nginx), an S3-compatible
 * server (S3Proxy), a zip archive, a directory and memory, and {@code cat} reads each the same.
 */
class StoreLocationsCliTest {
  @TempDir Path dir;

  @Test
  void copyBetweenEveryKindOfStore() throws Exception {
    Path www = dir.resolve("www");
    Cli.Result demo = Cli.run("demo", www.resolve("demo"));
    assertEquals(0, demo.exit(), demo.toString());
    Map<String, String> saved = new TreeMap<>();
    try (Nginx nginx = Nginx.serve(www, Files.createDirectories(dir.resolve("nginx")));
        S3ProxyPeer s3 = S3ProxyPeer.start("bucket")) {
      // The SDK's own system properties: what AWS_ENDPOINT_URL_S3 and the credential variables say in a shell.
      Map<String, String> properties = Map.of("aws.endpointUrlS3", s3.endpoint().toString(), "aws.accessKeyId", S3ProxyPeer.ACCESS_KEY,
          "aws.secretAccessKey", S3ProxyPeer.SECRET_KEY, "aws.region", "us-east-1");
      properties.forEach((k, v) -> saved.put(k, System.setProperty(k, v)));
      String http = nginx.url() + "demo";
      for (String array : new String[] {"numbers/grid", "numbers/sharded", "strings/words"}) {
        String want = cat(www.resolve("demo").toString(), array);
        assertEquals(want, cat(http, array), "over HTTP");
        copy(http, array, "s3://bucket/copies", array);
        assertEquals(want, cat("s3://bucket/copies", array), "on S3");
        copy("s3://bucket/copies", array, dir.resolve("copies.zip").toString(), array);
        assertEquals(want, cat(dir.resolve("copies.zip").toString(), array), "in a zip archive");
        copy("zip:" + dir.resolve("copies.zip"), array, dir.resolve("local").toString(), array);
        assertEquals(want, cat("file:" + dir.resolve("local"), array), "in a directory");
      }
      Cli.Result region = Cli.run("cat", http, "numbers/grid", "--json", "--region", "1:2,0:3");
      assertEquals(0, region.exit(), region.toString());
      Cli.Result ls = Cli.run("ls", http);
      assertEquals(3, ls.exit(), ls.toString());
      assertTrue((ls.out() + ls.err()).contains("cannot list keys"), ls.toString());
      // A huge sparse grid over a store that cannot list: refused at once, nothing written (it would never end).
      Files.writeString(Files.createDirectories(www.resolve("demo/huge")).resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\","
          + " \"shape\": [1000000000000], \"data_type\": \"int8\", \"chunk_grid\": {\"name\": \"regular\","
          + " \"configuration\": {\"chunk_shape\": [10]}}, \"chunk_key_encoding\": {\"name\": \"default\"},"
          + " \"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\"}]}");
      Cli.Result huge = Cli.run("copy", http, "huge", dir.resolve("huge-copy").toString(), "huge");
      assertEquals(2, huge.exit(), huge.toString());
      assertTrue(huge.err().contains("--max-probes 1000000") && huge.err().contains("100000000000 chunks")
          && huge.err().contains("cannot list its keys"), huge.err());
      assertTrue(!Files.exists(dir.resolve("huge-copy")), "nothing written");
      Cli.Result probed = Cli.run("copy", http, "numbers/grid", dir.resolve("probed").toString(), "grid", "--max-probes", "1");
      assertEquals(2, probed.exit(), probed.toString());
      assertTrue(!Files.exists(dir.resolve("probed")), "nothing written");
      Cli.Result readOnly = Cli.run("copy", http, "numbers/grid", http, "x");
      assertEquals(2, readOnly.exit(), readOnly.toString());
      assertTrue(readOnly.err().contains("read-only"), readOnly.err());
      Cli.Result unknown = Cli.run("ls", "ftp://example/x");
      assertEquals(2, unknown.exit(), unknown.toString());
      Cli.Result check = Cli.run("check", "s3://bucket/copies");
      assertEquals(0, check.exit(), check.toString());
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

  private static String cat(String store, String array) {
    Cli.Result r = Cli.run("cat", store, array, "--json");
    assertEquals(0, r.exit(), store + " " + array + ": " + r);
    return r.out();
  }

  private static void copy(String from, String array, String to, String path) {
    Cli.Result r = Cli.run("copy", from, array, to, path);
    assertEquals(0, r.exit(), "copy " + from + " " + array + " " + to + ": " + r);
  }
}
