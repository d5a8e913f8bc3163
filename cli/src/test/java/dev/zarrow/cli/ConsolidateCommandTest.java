package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.metadata.Json;
import dev.zarrow.testing.Nginx;
import dev.zarrow.testing.PythonPeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarrow consolidate} writes the form of the hierarchy's format; {@code ls} reads through it (the
 * same listing, one request over HTTP, where it is the only way to list) and says when it is missing.
 */
class ConsolidateCommandTest {
  @TempDir Path dir;

  private static Cli.Result ok(Object... args) {
    Cli.Result r = Cli.run(args);
    assertEquals(0, r.exit(), r.toString());
    return r;
  }

  private static List<String> paths(String lsJson) {
    List<String> out = new ArrayList<>();
    Json.parse(lsJson, "ls").forEach(n -> out.add(n.get("path").asText() + " " + n.path("node_type").asText()
        + (n.has("error") ? " error" : "")));
    return out;
  }

  @Test
  void consolidatedV3HierarchyListsTheSameAndOverHttpWithOneRequest() throws Exception {
    Path www = dir.resolve("www");
    Path demo = www.resolve("demo");
    ok("demo", demo);
    String before = ok("ls", demo, "--json").out();
    Cli.Result done = ok("consolidate", demo);
    assertTrue(done.out().contains("into zarr.json (Zarr v3)"), done.toString());
    JsonNode root = Json.parse(Files.readAllBytes(demo.resolve("zarr.json")), "zarr.json");
    assertEquals("inline", root.path("consolidated_metadata").path("kind").asText());
    // The same listing through the consolidated metadata, stored chunks and all (a directory lists them).
    assertEquals(before, ok("ls", demo, "--json").out());

    try (Nginx nginx = Nginx.serve(www, Files.createDirectories(dir.resolve("nginx")))) {
      String http = nginx.url() + "demo";
      nginx.requests();
      Cli.Result ls = ok("ls", http, "--json");
      assertEquals(paths(before), paths(ls.out()));
      assertFalse(ls.out().contains("stored_chunks"), ls.out());
      List<Nginx.Request> requests = nginx.requests();
      assertEquals(1, requests.size(), requests.toString());
      assertEquals("/demo/zarr.json", requests.get(0).path());
      Cli.Result tree = ok("ls", http);
      assertTrue(tree.out().contains("stored: not listed"), tree.out());

      // Without consolidated metadata: a data error that says what is needed.
      ok("demo", www.resolve("plain"));
      Cli.Result plain = Cli.run("ls", nginx.url() + "plain");
      assertEquals(3, plain.exit(), plain.toString());
      assertTrue(plain.err().contains("cannot list keys"), plain.err());
      assertTrue(plain.err().contains("zarrow consolidate"), plain.err());
    }
  }

  @Test
  void writesThroughZarrowDropItAndConsolidateBringsItBack() throws Exception {
    Path demo = dir.resolve("demo");
    ok("demo", demo);
    ok("consolidate", demo);
    ok("copy", demo, "numbers/grid", demo, "numbers/copied");
    assertTrue(Json.parse(Files.readAllBytes(demo.resolve("zarr.json")), "zarr.json").path("consolidated_metadata").isMissingNode());
    assertTrue(paths(ok("ls", demo, "--json").out()).contains("numbers/copied array"));
    ok("consolidate", demo);
    assertTrue(Json.parse(Files.readAllBytes(demo.resolve("zarr.json")), "zarr.json").path("consolidated_metadata")
        .path("metadata").has("numbers/copied"));
  }

  @Test
  void consolidatesAZarrPython2HierarchyAsZarrPython2Does() throws Exception {
    PythonPeer.assumeAvailable();
    Path theirs = dir.resolve("theirs.zarr");
    Path ours = dir.resolve("ours.zarr");
    PythonPeer.run(Duration.ofMinutes(2), "zarr2_consolidated.py", "write", theirs.toString());
    PythonPeer.run(Duration.ofMinutes(2), "zarr2_consolidated.py", "write-plain", ours.toString());
    Cli.Result r = ok("consolidate", ours);
    assertTrue(r.out().contains("consolidated 5 nodes below / into .zmetadata (Zarr v2)"), r.toString());
    assertEquals(Json.parse(Files.readAllBytes(theirs.resolve(".zmetadata")), "theirs"),
        Json.parse(Files.readAllBytes(ours.resolve(".zmetadata")), "ours"));
    JsonNode read = PythonPeer.run(Duration.ofMinutes(2), "zarr2_consolidated.py", "read", ours.toString());
    assertEquals("K", read.path("nodes").path("g/temps").path("attrs").path("units").asText());
  }

  @Test
  void lsOfAZarrPython2HierarchyOverHttpThroughItsZmetadata() throws Exception {
    PythonPeer.assumeAvailable();
    Path www = dir.resolve("www");
    PythonPeer.run(Duration.ofMinutes(2), "zarr2_consolidated.py", "write", www.resolve("v2.zarr").toString());
    String local = ok("ls", www.resolve("v2.zarr"), "--json").out();
    try (Nginx nginx = Nginx.serve(www, Files.createDirectories(dir.resolve("nginx")))) {
      nginx.requests();
      Cli.Result ls = ok("ls", nginx.url() + "v2.zarr", "--json");
      assertEquals(paths(local), paths(ls.out()));
      assertEquals(List.of(" group", "flat array", "g group", "g/h group", "g/h/deep array", "g/temps array"), paths(ls.out()));
      List<Nginx.Request> requests = nginx.requests();
      assertEquals(List.of("/v2.zarr/zarr.json 404", "/v2.zarr/.zmetadata 206"),
          requests.stream().map(r -> r.path() + " " + r.status()).toList(), requests.toString());
    }
  }

  @Test
  void exitCodes() throws Exception {
    Path demo = dir.resolve("demo");
    ok("demo", demo);
    Cli.Result badPath = Cli.run("consolidate", demo, "../up");
    assertEquals(2, badPath.exit(), badPath.toString());
    Cli.Result missingStore = Cli.run("consolidate", dir.resolve("nothing"));
    assertEquals(3, missingStore.exit(), missingStore.toString());
    assertFalse(Files.exists(dir.resolve("nothing")));
    Cli.Result noGroup = Cli.run("consolidate", demo, "absent");
    assertEquals(3, noGroup.exit(), noGroup.toString());
    assertTrue(noGroup.err().contains("no group at 'absent'"), noGroup.err());
    Cli.Result array = Cli.run("consolidate", demo, "numbers/grid");
    assertEquals(3, array.exit(), array.toString());
    assertTrue(array.err().contains("is not one"), array.err());
    Cli.Result usage = Cli.run("consolidate");
    assertEquals(2, usage.exit(), usage.toString());
    // A corrupt consolidated document is a data error naming the key.
    Files.writeString(demo.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\", \"consolidated_metadata\": {\"kind\": \"remote\"}}");
    Cli.Result corrupt = Cli.run("ls", demo);
    assertEquals(3, corrupt.exit(), corrupt.toString());
    assertTrue(corrupt.err().contains("zarr.json") && corrupt.err().contains("/consolidated_metadata/kind"), corrupt.err());
    // consolidate replaces it.
    ok("consolidate", demo);
    ok("ls", demo);
  }
}
