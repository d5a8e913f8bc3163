package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrow.Zarr;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetOptions;
import dev.zarrow.dataset.DatasetReader;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --dataset}, and {@code ls}/{@code info} on datasets, over datasets xarray wrote
 * (xarray_datasets.py; the library's XarrayDatasetTest compares the tables with xarray's row for row).
 */
@ExtendWith(AllocatorExtension.class)
class DatasetCliTest {
  @TempDir static Path dir;
  static Path reanalysis;
  static Path stations;

  @BeforeAll
  static void write() {
    PythonPeer.assumeXarray();
    PythonPeer.run(Duration.ofMinutes(3), "xarray_datasets.py", "write", dir.toString());
    reanalysis = dir.resolve("reanalysis.zarr");
    stations = dir.resolve("stations.zarr");
  }

  /** The batches of an IPC stream, each as Arrow's TSV text, and its schema's text. */
  private static List<String> batches(InputStream in, BufferAllocator allocator, List<String> schema) throws Exception {
    List<String> out = new ArrayList<>();
    try (ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      schema.add(reader.getVectorSchemaRoot().getSchema().toJson());
      while (reader.loadNextBatch()) {
        out.add(reader.getVectorSchemaRoot().contentToTSVString());
      }
    }
    return out;
  }

  private static List<String> batches(DatasetReader reader, List<String> schema) throws Exception {
    List<String> out = new ArrayList<>();
    try (reader) {
      schema.add(reader.getVectorSchemaRoot().getSchema().toJson());
      while (reader.loadNextBatch()) {
        out.add(reader.getVectorSchemaRoot().contentToTSVString());
      }
    }
    return out;
  }

  @Test
  void exportWritesTheDatasetsTable(BufferAllocator allocator) throws Exception {
    Path out = dir.resolve("reanalysis.arrows");
    Cli.Result r = Cli.run("export", reanalysis, "/", out, "--dataset");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().contains("3240 rows in 16 batches"), r.err());
    List<String> gotSchema = new ArrayList<>();
    List<String> wantSchema = new ArrayList<>();
    List<String> got;
    try (InputStream in = Files.newInputStream(out)) {
      got = batches(in, allocator, gotSchema);
    }
    try (FileSystemStore store = FileSystemStore.open(reanalysis)) {
      DatasetTable table = Dataset.open(Zarr.openGroup(store, "")).table();
      assertEquals(batches(table.reader(allocator), wantSchema), got);
    }
    assertEquals(wantSchema, gotSchema);
  }

  @Test
  void variablesChooseTheGridAndRawKeepsTheStoredValues(BufferAllocator allocator) throws Exception {
    Path out = dir.resolve("orography.arrows");
    Cli.Result r = Cli.run("export", reanalysis, "", out, "--dataset", "--variable", "orography");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().contains("108 rows in 4 batches"), r.err());
    Path raw = dir.resolve("raw.arrows");
    r = Cli.run("export", reanalysis, "", raw, "--dataset", "--variable", "sp", "--raw");
    assertEquals(0, r.exit(), r.toString());
    List<String> schema = new ArrayList<>();
    List<String> got;
    try (InputStream in = Files.newInputStream(raw)) {
      got = batches(in, allocator, schema);
    }
    try (FileSystemStore store = FileSystemStore.open(reanalysis)) {
      DatasetTable table = Dataset.open(Zarr.openGroup(store, "")).table(DatasetOptions.defaults().withVariables(List.of("sp")).withRaw(true));
      assertEquals(new ArrowType.Int(16, true), table.schema().findField("sp").getType());
      assertEquals(batches(table.reader(allocator), new ArrayList<>()), got);
    }
  }

  @Test
  void lsAndInfoSayWhichGroupsAreDatasets() throws Exception {
    Cli.Result r = Cli.run("ls", stations);
    assertEquals(0, r.exit(), r.toString());
    String first = r.out().lines().skip(1).findFirst().orElseThrow();
    assertTrue(first.matches("/\\s+dataset\\s+station=5 time=10; variables: count, pr; coordinates: station, time, lat, lon, name"),
        r.out());
    r = Cli.run("ls", stations, "--json");
    JsonNode root = new ObjectMapper().readTree(r.out()).get(0);
    assertEquals(5, root.get("dataset").get("dimensions").get("station").asInt());
    r = Cli.run("info", reanalysis);
    assertEquals(0, r.exit(), r.toString());
    JsonNode dataset = new ObjectMapper().readTree(r.out()).get("summary").get("dataset");
    assertEquals("[\"orography\",\"sp\",\"t2m\"]", dataset.get("data_variables").toString());
    assertEquals(30, dataset.get("dimensions").get("time").asInt());
    r = Cli.run("info", reanalysis, "t2m");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(!new ObjectMapper().readTree(r.out()).get("summary").has("dataset"));
  }

  @Test
  void misuseIsAUsageErrorAndBadDataADataError() {
    Path out = dir.resolve("x.arrows");
    assertEquals(2, Cli.run("export", reanalysis, "", out, "--variable", "t2m").exit());
    assertEquals(2, Cli.run("export", reanalysis, "", out, "--raw").exit());
    assertEquals(2, Cli.run("export", reanalysis, "t2m", out, "--dataset").exit());
    assertEquals(2, Cli.run("export", reanalysis, "", out, "--dataset", "--batch-rows", "10").exit());
    Cli.Result r = Cli.run("export", reanalysis, "", out, "--dataset", "--variable", "nope");
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("no data variable 'nope'"), r.err());
    r = Cli.run("export", reanalysis, "", out, "--dataset", "--variable", "latitude");
    assertEquals(3, r.exit(), r.toString());
    assertTrue(!Files.exists(out));
  }
}
