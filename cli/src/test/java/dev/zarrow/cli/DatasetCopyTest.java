package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.metadata.Json;
import dev.zarrow.testing.NodePeer;
import dev.zarrow.testing.PeerValues;
import dev.zarrow.testing.PythonPeer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: whole datasets written by xarray ({@code core/src/test/python/xarray_copies.py}: coordinates,
 * CF time, packed and masked variables, strings, fixed bytes, a nested dataset group, consolidated or not)
 * copied by {@code zarrow copy} of the root group to Zarr v2, and to v3 and back to v2, open in xarray
 * {@code identical()} to the source with the same encodings, consolidated when the source was. The v3 copy
 * has {@code dimension_names} (and no {@code _ARRAY_DIMENSIONS}), consolidated metadata when the source had
 * it, and zarrita reads its arrays equal to zarrow.
 */
class DatasetCopyTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static JsonNode datasets;

  @BeforeAll
  static void xarrayWritesTheDatasets() {
    PythonPeer.assumeAvailable();
    datasets = PythonPeer.run(TIMEOUT, "xarray_copies.py", "write", dir.resolve("xarray").toString()).get("datasets");
  }

  private static Path source(JsonNode dataset) {
    return dir.resolve("xarray").resolve(dataset.get("name").asText());
  }

  private static void copy(Path from, Path to, String... options) {
    List<Object> args = new ArrayList<>(List.of("copy", from, "/", to, "/"));
    args.addAll(List.of(options));
    Cli.Result r = Cli.run(args.toArray());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().contains("; wrote / in " + to), r.err());
  }

  /** What xarray finds different between the datasets of {@code src} and {@code dst}; empty when none. */
  private static void assertXarrayIdentical(JsonNode dataset, Path dst) {
    List<String> args = new ArrayList<>(List.of("compare", source(dataset).toString(), dst.toString()));
    if (dataset.get("consolidated").asBoolean()) {
      args.add("--consolidated");
    }
    JsonNode report = PythonPeer.run(TIMEOUT, "xarray_copies.py", args.toArray(String[]::new)).get("groups");
    List<String> groups = new ArrayList<>();
    dataset.get("groups").forEach(g -> groups.add(g.asText()));
    List<String> compared = new ArrayList<>();
    report.fieldNames().forEachRemaining(compared::add);
    assertEquals(groups, compared, "the dataset groups xarray compared");
    report.fields().forEachRemaining(e ->
        assertEquals("[]", e.getValue().get("problems").toString(), dst + " group '" + e.getKey() + "' in xarray"));
  }

  @Test
  void copiedToV2EveryDatasetIsIdenticalInXarray() {
    for (JsonNode dataset : datasets) {
      Path v2 = dir.resolve("v2").resolve(dataset.get("name").asText());
      copy(source(dataset), v2, "--zarr-format", "2");
      assertEquals(dataset.get("consolidated").asBoolean(), Files.exists(v2.resolve(".zmetadata")), v2 + ": consolidated as the source");
      assertXarrayIdentical(dataset, v2);
    }
  }

  @Test
  void copiedToV3AndBackToV2EveryDatasetIsIdenticalInXarray() throws IOException {
    for (JsonNode dataset : datasets) {
      String name = dataset.get("name").asText();
      Path v3 = dir.resolve("v3").resolve(name);
      Path back = dir.resolve("back").resolve(name);
      copy(source(dataset), v3);
      assertV3(dataset, v3);
      copy(v3, back, "--zarr-format", "2");
      assertEquals(dataset.get("consolidated").asBoolean(), Files.exists(back.resolve(".zmetadata")), back + ": consolidated as the source");
      assertTrue(Files.notExists(back.resolve("zarr.json")), back + " is v2");
      assertXarrayIdentical(dataset, back);
    }
  }

  /** Every array with dimension_names and without _ARRAY_DIMENSIONS; consolidated as the source; no v2 key left. */
  private static void assertV3(JsonNode dataset, Path v3) throws IOException {
    Path source = source(dataset);
    JsonNode root = Json.parse(Files.readString(v3.resolve("zarr.json")), "root");
    assertEquals(3, root.get("zarr_format").asInt());
    JsonNode consolidated = root.path("consolidated_metadata").path("metadata");
    assertEquals(dataset.get("consolidated").asBoolean(), consolidated.isObject(), v3 + ": consolidated as the source");
    for (JsonNode a : dataset.get("arrays")) {
      String path = a.asText();
      JsonNode zattrs = Json.parse(Files.readString(source.resolve(path).resolve(".zattrs")), path);
      JsonNode array = Json.parse(Files.readString(v3.resolve(path).resolve("zarr.json")), path);
      assertEquals(zattrs.get("_ARRAY_DIMENSIONS"), array.get("dimension_names"), path + ": dimension_names");
      assertFalse(array.get("attributes").has("_ARRAY_DIMENSIONS"), path + ": _ARRAY_DIMENSIONS left in the attributes");
      if (consolidated.isObject()) {
        assertEquals(array, consolidated.get(path), path + ": its consolidated entry");
      }
    }
    try (var files = Files.walk(v3)) {
      assertEquals(List.of(), files.map(p -> p.getFileName().toString())
          .filter(n -> n.equals(".zarray") || n.equals(".zgroup") || n.equals(".zattrs") || n.equals(".zmetadata")).toList());
    }
  }

  /**
   * zarrita reads every array of the v3 copy of a dataset equal to zarrow (shape, dimension names, values)
   * but {@code code}, whose {@code |S3} is the extension data type {@code null_terminated_bytes}, which
   * zarrita 0.7.5 does not know.
   */
  @Test
  void zarritaReadsTheV3Copy() {
    NodePeer.assumeAvailable();
    JsonNode dataset = null;
    for (JsonNode d : datasets) {
      if (d.get("name").asText().equals("forecast")) {
        dataset = d;
      }
    }
    Path v3 = dir.resolve("zarrita").resolve("forecast");
    copy(source(dataset), v3);
    List<String> arrays = new ArrayList<>();
    dataset.get("arrays").forEach(a -> arrays.add(a.asText()));
    JsonNode read = NodePeer.zarritaReadKeepGoing(v3, arrays.toArray(String[]::new));
    Map<String, String> unread = new TreeMap<>();
    for (String path : arrays) {
      JsonNode got = read.get(path);
      if (got.has("error")) {
        unread.put(path, got.get("error").asText());
        continue;
      }
      JsonNode zarrow = Json.parse(Cli.run("cat", v3, path, "--json").out(), path);
      assertEquals(zarrow.get("shape"), got.get("shape"), path);
      assertEquals(Json.parse(Cli.run("info", v3, path).out(), path).get("metadata").get("dimension_names"),
          got.get("dimension_names"), path + ": dimension names");
      boolean float32 = got.get("data_type").asText().equals("float32");
      JsonNode want = zarrow.get("values");
      JsonNode have = got.get("values");
      assertEquals(want.size(), have.size(), path);
      for (int i = 0; i < want.size(); i++) {
        boolean same = float32 && want.get(i).isNumber() && have.get(i).isNumber()
            ? (float) want.get(i).doubleValue() == (float) have.get(i).doubleValue() // zarrow prints float32's shortest form
            : PeerValues.same(want.get(i), have.get(i));
        if (!same) {
          fail(path + "[" + i + "]: zarrita reads " + have.get(i) + ", zarrow " + want.get(i));
        }
      }
    }
    assertEquals(List.of("code"), List.copyOf(unread.keySet()), "the arrays zarrita cannot read: " + unread);
  }
}
