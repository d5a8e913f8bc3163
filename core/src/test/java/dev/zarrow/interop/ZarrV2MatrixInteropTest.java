package dev.zarrow.interop;

import dev.zarrow.testing.NeedsPeer;
import dev.zarrow.testing.Peer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.grid.Box;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.ConsolidatedStore;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.RecordingStore;
import dev.zarrow.testing.ZarrV2Matrix;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 19's interop matrix against zarr-python 2 (Debian's python3-zarr 2.13, python3-numcodecs 0.11),
 * one case per array of {@code core/src/test/python/zarr2_matrix.py}: every dtype, compressor, filter,
 * order, separator and fill value spelling, with partial edge chunks and missing chunks.
 * <ul>
 *   <li>{@link #readsEqual}: what zarr-python 2 wrote reads equal in zarrow (its manifest's values).
 *   <li>{@link #zarrPython2ReadsWhatZarrowWritesAsV2}: zarrow writes each array again as v2 (the
 *       {@link ArraySpec} v2 write API, the same dtype, codecs, order, separator and fill value), and
 *       zarr-python 2 reads it equal to its own original; the {@code .zarray} keeps what it said.
 *   <li>{@link #zarrPython2OpensWhatZarrowConsolidates}: zarrow's {@code .zmetadata} of those arrays, opened
 *       by zarr-python 2's {@code open_consolidated}, reads every array equal.
 *   <li>{@link #theConsolidatedMatrixOpensWithOneMetadataRead}: the whole matrix, consolidated by
 *       zarr-python 2, opens and reads through its {@code .zmetadata} alone (store reads counted).
 * </ul>
 * zarr-python 2 starts twice per class: once to write the matrix, once to check zarrow's writes.
 */
@NeedsPeer(Peer.PYTHON_ZARR)
@ExtendWith(AllocatorExtension.class)
class ZarrV2MatrixInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static ZarrV2Matrix matrix;
  private static Map<String, String> writeFailures;
  private static Map<String, JsonNode> reports;
  private static String consolidateFailure;

  @BeforeAll
  static void zarrPython2WritesTheMatrix() {
    matrix = ZarrV2Matrix.write(dir.resolve("zarr2"));
  }

  static Stream<String> cases() {
    return matrix.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void readsEqual(String name, BufferAllocator allocator) throws IOException {
    ObjectNode c = matrix.get(name);
    try (FileSystemStore store = FileSystemStore.open(matrix.store())) {
      ZarrArray array = Zarr.openArray(store, name);
      assertEquals(2, array.metadata().zarrFormat(), name);
      assertArrayEquals(JSON.treeToValue(c.get("shape"), long[].class), array.shape(), name);
      assertEquals(c.get("attributes"), array.attributes(), name + ": the attributes");
      try (NdVector read = array.read(allocator)) {
        assertEqualValues(c.get("values"), ZarrV2Matrix.values(read.vector()), name + " (" + c.get("dtype") + ")");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void zarrPython2ReadsWhatZarrowWritesAsV2(String name) {
    Path written = zarrowWritesEveryCaseAsV2();
    if (writeFailures.containsKey(name)) {
      fail(name + ": zarrow could not write it as v2: " + writeFailures.get(name));
    }
    JsonNode report = reports.get(name);
    assertTrue(report.get("problems").isEmpty(), name + ": zarr-python 2 reads zarrow's v2 array: " + report.get("problems"));
    ZarrV2Matrix.assertKept(ZarrV2Matrix.zarray(matrix.store(), name), ZarrV2Matrix.zarray(written, name), name);
    assertEquals(matrix.get(name).get("attributes"), report.get("attributes"), name + ": the attributes zarr-python 2 reads");
  }

  /**
   * Once per class: zarrow reads each case and writes it through {@link ArraySpec} as v2 into another
   * group (failures kept per case), then zarr-python 2 checks them all in one run.
   */
  private static synchronized Path zarrowWritesEveryCaseAsV2() {
    Path out = dir.resolve("zarrow");
    if (reports != null) {
      return out;
    }
    writeFailures = new LinkedHashMap<>();
    List<String> written = new java.util.ArrayList<>();
    try (FileSystemStore source = FileSystemStore.open(matrix.store());
        FileSystemStore target = FileSystemStore.open(out);
        BufferAllocator allocator = new RootAllocator()) {
      Zarr.createGroup(target, "", 2, ZarrOptions.defaults());
      for (String name : matrix.names()) {
        try {
          ZarrArray in = Zarr.openArray(source, name);
          var m = in.metadata();
          ZarrArray copy = Zarr.createArray(target, name, ArraySpec.of(in.dataType(), in.shape())
              .chunks(in.grid().chunkShape()).codecs(m.codecs()).fillValue(m.fillValue())
              .keyEncoding(ChunkKeyEncoding.parse(m.chunkKeyEncoding())).attributes(m.attributes()).zarrFormat(2));
          try (NdVector data = in.read(allocator)) {
            copy.write(Box.of(in.shape()), data.vector());
          }
          written.add(name);
        } catch (RuntimeException | AssertionError e) {
          writeFailures.put(name, e.toString());
        }
      }
    }
    try (FileSystemStore target = FileSystemStore.open(out)) {
      ConsolidatedMetadata.consolidate(target, "");
    } catch (RuntimeException e) {
      consolidateFailure = e.toString();
    }
    Path manifest = dir.resolve("zarrow-manifest.json");
    matrix.writeManifest(manifest, written);
    reports = ZarrV2Matrix.check(out, manifest, true);
    return out;
  }

  /** zarrow consolidates the v2 group it wrote; zarr-python 2 opens it with open_consolidated and reads every array equal. */
  @Test
  void zarrPython2OpensWhatZarrowConsolidates() {
    zarrowWritesEveryCaseAsV2();
    assertEquals(null, consolidateFailure, "zarrow's consolidate of its v2 group");
    List<String> problems = new java.util.ArrayList<>();
    reports.forEach((name, report) -> {
      if (!report.get("consolidated_problems").isEmpty()) {
        problems.add(name + ": " + report.get("consolidated_problems"));
      }
    });
    assertEquals(List.of(), problems, "arrays zarr-python 2 does not read equal through zarrow's .zmetadata");
  }

  @Test
  void theConsolidatedMatrixOpensWithOneMetadataRead(BufferAllocator allocator) throws IOException {
    try (FileSystemStore files = FileSystemStore.open(matrix.store())) {
      RecordingStore recorded = new RecordingStore(files);
      Store view = ConsolidatedStore.over(recorded, "");
      ZarrGroup root = Zarr.openGroup(view, "");
      assertEquals(2, root.metadata().zarrFormat());
      assertEquals(matrix.names().stream().sorted().toList(), root.childNames().stream().sorted().toList());
      for (String name : matrix.names()) {
        ZarrArray array = root.array(name);
        try (NdVector read = array.read(allocator)) {
          assertEqualValues(matrix.get(name).get("values"), ZarrV2Matrix.values(read.vector()), name + " through .zmetadata");
        }
      }
      List<String> metadataReads = recorded.requests().stream().map(RecordingStore.Request::key)
          .filter(k -> k.endsWith(".zmetadata") || k.endsWith(".zarray") || k.endsWith(".zgroup")
              || k.endsWith(".zattrs") || k.endsWith("zarr.json"))
          .toList();
      assertEquals(List.of(".zmetadata"), metadataReads, "the metadata reads of opening " + matrix.names().size() + " arrays");
    }
  }

  private static void assertEqualValues(JsonNode expected, JsonNode actual, String what) {
    String difference = ZarrV2Matrix.difference(expected, actual);
    if (difference != null) {
      fail(what + ": " + difference);
    }
  }
}
