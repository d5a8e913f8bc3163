package dev.zarrow.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Datasets written by xarray itself (xarray_datasets.py: a reanalysis-like grid, station series, a
 * curvilinear grid, odd encodings, {@code _Unsigned} and timedeltas) read as tables equal xarray's {@code to_dataframe().reset_index()}
 * row for row, matched by the dimension values, in v2 as written and copied to v3.
 */
@ExtendWith(AllocatorExtension.class)
class XarrayDatasetTest {
  @TempDir static Path dir;
  static JsonNode tables;

  @BeforeAll
  static void write() throws Exception {
    PythonPeer.assumeXarray();
    tables = PythonPeer.run(Duration.ofMinutes(3), "xarray_datasets.py", "write", dir.toString()).get("datasets");
    for (String name : List.of("reanalysis", "stations", "curvilinear", "odd", "unsigned")) {
      Path v3 = dir.resolve(name + "-v3.zarr");
      Files.createDirectories(v3);
      try (FileSystemStore from = FileSystemStore.open(dir.resolve(name + ".zarr")); FileSystemStore to = FileSystemStore.open(v3)) {
        XarrayDatasets.copyToV3(from, to);
      }
    }
  }

  static Dataset open(FileSystemStore store) {
    return Dataset.open(Zarr.openGroup(store, ""));
  }

  @ParameterizedTest
  @CsvSource({"reanalysis,", "stations,", "curvilinear,", "odd,", "unsigned,", "reanalysis,-v3", "stations,-v3", "curvilinear,-v3",
      "odd,-v3", "unsigned,-v3"})
  void theTableIsXarraysToDataframe(String name, String suffix, BufferAllocator allocator) throws Exception {
    String variant = name + (suffix == null ? "" : suffix);
    try (FileSystemStore store = FileSystemStore.open(dir.resolve(variant + ".zarr"))) {
      DatasetTable table = open(store).table();
      List<Map<String, Object>> rows;
      try (DatasetReader reader = table.reader(allocator)) {
        rows = XarrayDatasets.rows(reader);
      }
      assertEquals(table.rows(), rows.size());
      XarrayDatasets.assertSameTable(tables.get(name), table.dimensions(), rows, variant);
    }
  }

  /** Parts of chunks (cut along the outer dimension, or the inner ones when a slab is larger) are the same rows. */
  @ParameterizedTest
  @CsvSource({"reanalysis,4", "reanalysis,7", "reanalysis,64", "stations,3", "curvilinear,5", "odd,2", "odd,9", "unsigned,3",
      "reanalysis-v3,13", "odd-v3,5"})
  void batchesOfBoundedRowsAreTheSameRows(String variant, int batchRows, BufferAllocator allocator) throws Exception {
    try (FileSystemStore store = FileSystemStore.open(dir.resolve(variant + ".zarr"))) {
      DatasetTable table = open(store).table();
      List<long[]> chunks = new ArrayList<>();
      for (long i = 0; i < table.chunkCount(); i++) {
        chunks.add(table.chunkCoords(i));
      }
      List<Map<String, Object>> whole;
      try (DatasetReader reader = table.reader(allocator, chunks, 0)) {
        whole = XarrayDatasets.rows(reader);
      }
      List<Map<String, Object>> parts = new ArrayList<>();
      int batches = 0;
      try (DatasetReader reader = table.reader(allocator, chunks, batchRows)) {
        while (reader.loadNextBatch()) {
          int n = reader.getVectorSchemaRoot().getRowCount();
          assertTrue(n > 0 && n <= batchRows, n + " rows in a batch of at most " + batchRows);
          parts.addAll(XarrayDatasets.rowsOf(reader.getVectorSchemaRoot()));
          batches++;
        }
      }
      assertTrue(batches > table.chunkCount(), batches + " batches");
      assertEquals(whole, parts);
    }
  }

  @Test
  void theReanalysisGridDecodesAsCfSays(BufferAllocator allocator) throws Exception {
    try (FileSystemStore store = FileSystemStore.open(dir.resolve("reanalysis.zarr"))) {
      Dataset ds = open(store);
      assertEquals(Map.of("time", 30L, "latitude", 9L, "longitude", 12L), ds.dimensions());
      assertEquals(List.of("orography", "sp", "t2m"), ds.dataVariables());
      assertEquals(List.of("latitude", "longitude", "time"), ds.coordinates());
      DatasetTable table = ds.table();
      assertEquals(List.of("time", "latitude", "longitude"), table.dimensions());
      assertEquals(30 * 9 * 12, table.rows());
      assertTrue(java.util.Arrays.equals(new int[] {8, 5, 6}, table.chunkShape()));
      assertEquals(4 * 2 * 2, table.chunkCount());
      Schema schema = table.schema();
      assertEquals(List.of("time", "latitude", "longitude", "orography", "sp", "t2m"),
          schema.getFields().stream().map(Field::getName).toList());
      assertEquals(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), schema.findField("time").getType());
      assertEquals(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE),
          schema.findField("sp").getType());
      assertEquals("Pa", schema.findField("sp").getMetadata().get("units"));
      assertEquals("0.2", schema.findField("sp").getMetadata().get("scale_factor"));
      assertEquals("reanalysis-like", schema.getCustomMetadata().get("title"));
      // a chunk range reads those chunks, a batch each, in C order
      try (DatasetReader reader = table.reader(allocator, 3, 5)) {
        List<Integer> sizes = new ArrayList<>();
        while (reader.loadNextBatch()) {
          sizes.add(reader.getVectorSchemaRoot().getRowCount());
        }
        assertEquals(List.of(8 * 4 * 6, 8 * 5 * 6), sizes);
      }
    }
  }

  @Test
  void unsignedBytesAndTimedeltasHaveTheirArrowTypes() throws Exception {
    try (FileSystemStore store = FileSystemStore.open(dir.resolve("unsigned.zarr"))) {
      Schema schema = open(store).table().schema();
      assertEquals(new ArrowType.Int(8, false), schema.findField("flag").getType()); // xarray: uint8, masked to float32
      assertEquals(new ArrowType.Int(8, false), schema.findField("raw").getType());
      assertEquals(new ArrowType.Duration(TimeUnit.MICROSECOND), schema.findField("lead").getType());
      assertEquals(new ArrowType.Duration(TimeUnit.MICROSECOND), schema.findField("wait").getType());
      assertEquals("true", schema.findField("raw").getMetadata().get("_Unsigned"));
      assertEquals("hours", schema.findField("lead").getMetadata().get("units"));
    }
  }

  @Test
  void selectedVariablesMakeTheirOwnGrid(BufferAllocator allocator) throws Exception {
    try (FileSystemStore store = FileSystemStore.open(dir.resolve("reanalysis.zarr"))) {
      DatasetTable table = open(store).table(DatasetOptions.defaults().withVariables(List.of("orography")));
      assertEquals(List.of("latitude", "longitude"), table.dimensions());
      JsonNode expected = PythonPeer.run(Duration.ofMinutes(1), "xarray_datasets.py", "frame",
          dir.resolve("reanalysis.zarr").toString(), "orography");
      try (DatasetReader reader = table.reader(allocator)) {
        XarrayDatasets.assertSameTable(expected, table.dimensions(), XarrayDatasets.rows(reader), "orography");
      }
    }
  }
}
