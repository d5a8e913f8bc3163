package dev.zarrow.cli;

import dev.zarrow.testing.NeedsPeer;
import dev.zarrow.testing.Peer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.ZarrV2Matrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 19's round trip v2 -> v3 -> v2 through the command line, one case per array of zarr-python 2's
 * matrix ({@code core/src/test/python/zarr2_matrix.py}: every data type, compressor, filter, order,
 * separator, fill value): {@code zarrow copy} makes a v3 copy (zarr.json, no .zarray) that zarrow reads
 * equal to the original, {@code zarrow copy --zarr-format 2} turns it back into v2 with the same
 * {@code .zarray} choices (the fill value exactly as written, {@code null} too), and zarr-python 2 reads
 * that equal to the original. Issue 27: no case is refused (blosclz is written too), and the whole matrix
 * copied as one group, to v3 and back, opens consolidated in zarr-python 2 with every array equal.
 * zarr-python 2 starts three times for the class: to write the matrix and to check the copies back.
 */
@NeedsPeer(Peer.PYTHON_ZARR)
@ExtendWith(AllocatorExtension.class)
class ZarrV2RoundTripMatrixTest {
  @TempDir static Path dir;
  private static ZarrV2Matrix matrix;
  private static final Map<String, Cli.Result> toV3 = new LinkedHashMap<>();
  private static final Map<String, Cli.Result> toV2 = new LinkedHashMap<>();
  private static Map<String, JsonNode> reports;
  private static Cli.Result groupToV3;
  private static Cli.Result groupToV2;
  private static Map<String, JsonNode> groupReports;

  /** zarr-python 2 writes the matrix; every case is copied to v3 and back; zarr-python 2 checks the copies. */
  @BeforeAll
  static void copyEveryCaseThereAndBack() {
    matrix = ZarrV2Matrix.write(dir.resolve("v2"));
    List<String> back = new ArrayList<>();
    for (String name : matrix.names()) {
      Cli.Result there = Cli.run("copy", matrix.store(), name, dir.resolve("v3"), name);
      toV3.put(name, there);
      if (there.exit() == 0) {
        Cli.Result again = Cli.run("copy", dir.resolve("v3"), name, dir.resolve("back"), name, "--zarr-format", "2");
        toV2.put(name, again);
        if (again.exit() == 0) {
          back.add(name);
        }
      }
    }
    Path manifest = dir.resolve("manifest.json");
    matrix.writeManifest(manifest, back);
    reports = back.isEmpty() ? Map.of() : ZarrV2Matrix.check(dir.resolve("back"), manifest);
    groupToV3 = Cli.run("copy", matrix.store(), "/", dir.resolve("group-v3"), "/");
    groupToV2 = Cli.run("copy", dir.resolve("group-v3"), "/", dir.resolve("group-back"), "/", "--zarr-format", "2");
    Path all = dir.resolve("all.json");
    matrix.writeManifest(all, matrix.names());
    groupReports = groupToV2.exit() == 0 ? ZarrV2Matrix.check(dir.resolve("group-back"), all, true) : Map.of();
  }

  /** The whole matrix as one group: to v3 (consolidated inline) and back to v2 (.zmetadata), every array equal in zarr-python 2. */
  @org.junit.jupiter.api.Test
  void theWholeMatrixCopiedAsAGroupThereAndBackReadsEqualInZarrPython2() throws IOException {
    assertEquals(0, groupToV3.exit(), groupToV3.toString());
    assertTrue(Files.readString(dir.resolve("group-v3").resolve("zarr.json")).contains("\"consolidated_metadata\""),
        "the v3 copy of a consolidated group is consolidated");
    assertEquals(0, groupToV2.exit(), groupToV2.toString());
    assertTrue(Files.exists(dir.resolve("group-back").resolve(".zmetadata")));
    List<String> problems = new ArrayList<>();
    for (String name : matrix.names()) {
      JsonNode report = groupReports.get(name);
      if (!report.get("problems").isEmpty() || !report.get("consolidated_problems").isEmpty()) {
        problems.add(name + ": " + report.get("problems") + " " + report.get("consolidated_problems"));
      }
      ZarrV2Matrix.assertKept(ZarrV2Matrix.zarray(matrix.store(), name), ZarrV2Matrix.zarray(dir.resolve("group-back"), name), name);
      assertEquals(ZarrV2Matrix.zarray(matrix.store(), name).get("fill_value"),
          ZarrV2Matrix.zarray(dir.resolve("group-back"), name).get("fill_value"), name + ": the fill value as written");
    }
    assertEquals(List.of(), problems, "arrays of the group copy zarr-python 2 does not read equal");
  }

  static Stream<String> cases() {
    return matrix.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void copiedToV3ReadsEqualInZarrow(String name, BufferAllocator allocator) throws IOException {
    Cli.Result there = toV3.get(name);
    assertEquals(0, there.exit(), name + ": zarrow copy (to v3): " + there);
    Path v3 = dir.resolve("v3");
    assertTrue(Files.exists(v3.resolve(name).resolve("zarr.json")), name + ": the copy is v3");
    assertTrue(Files.notExists(v3.resolve(name).resolve(".zarray")), name);
    try (FileSystemStore store = FileSystemStore.open(v3)) {
      ZarrArray array = Zarr.openArray(store, name);
      assertEquals(3, array.metadata().zarrFormat(), name);
      try (NdVector read = array.read(allocator)) {
        String difference = ZarrV2Matrix.difference(matrix.get(name).get("values"), ZarrV2Matrix.values(read.vector()));
        if (difference != null) {
          fail(name + ": the v3 copy reads other values: " + difference);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void copiedBackToV2ReadsEqualInZarrPython2(String name) {
    assertEquals(0, toV3.get(name).exit(), name + ": zarrow copy (to v3): " + toV3.get(name));
    Cli.Result again = toV2.get(name);
    assertEquals(0, again.exit(), name + ": zarrow copy --zarr-format 2: " + again);
    Path back = dir.resolve("back");
    assertTrue(Files.notExists(back.resolve(name).resolve("zarr.json")), name + ": the copy back is v2");
    JsonNode report = reports.get(name);
    assertTrue(report.get("problems").isEmpty(), name + ": zarr-python 2 reads the copy back: " + report.get("problems"));
    ZarrV2Matrix.assertKept(ZarrV2Matrix.zarray(matrix.store(), name), ZarrV2Matrix.zarray(back, name), name);
    assertEquals(ZarrV2Matrix.zarray(matrix.store(), name).get("fill_value"), ZarrV2Matrix.zarray(back, name).get("fill_value"),
        name + ": the fill value as written (through v3's attribute " + dev.zarrow.metadata.V2Metadata.FILL_ATTRIBUTE + ")");
    assertEquals(matrix.get(name).get("attributes"), report.get("attributes"), name + ": the attributes");
  }
}
