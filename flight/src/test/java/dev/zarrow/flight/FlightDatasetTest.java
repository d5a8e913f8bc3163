package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.StreamSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset written by xarray is a flight: GetFlightInfo gives one endpoint per chunk of its grid, and
 * DoGet of every endpoint concatenates to the table {@code export --dataset} writes (the library's
 * DatasetReader of the whole grid).
 */
@ExtendWith(AllocatorExtension.class)
class FlightDatasetTest {
  @TempDir static Path dir;
  static FlightFixture fixture;

  @BeforeAll
  static void start() throws Exception {
    PythonPeer.assumeXarray();
    PythonPeer.run(Duration.ofMinutes(3), "xarray_datasets.py", "write", dir.toString());
    fixture = new FlightFixture(dir, TableOptions.defaults());
  }

  @AfterAll
  static void stop() throws Exception {
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"reanalysis.zarr", "stations.zarr", "curvilinear.zarr", "odd.zarr"})
  void everyEndpointTogetherIsTheExportedTable(String path, BufferAllocator allocator) throws Exception {
    StreamSnapshot expected;
    long chunks;
    try (FileSystemStore store = FileSystemStore.open(dir.resolve(path))) {
      DatasetTable table = Dataset.open(Zarr.openGroup(store, "")).table();
      chunks = table.chunkCount();
      try (var reader = table.reader(allocator)) {
        expected = StreamSnapshot.of(reader);
      }
    }
    try (FlightClient client = fixture.client(allocator)) {
      FlightInfo info = client.getInfo(FlightDescriptor.path(path));
      assertEquals(chunks, info.getEndpoints().size());
      assertEquals(expected.rows(), info.getRecords());
      assertEquals(expected, FlightClients.fetchAll(client, info));
      assertEquals(info.getSchema(), client.getSchema(FlightDescriptor.path(path)).getSchema());
    }
    fixture.assertServerMemoryFreed();
  }

  @Test
  void listFlightsNamesTheDataset(BufferAllocator allocator) throws Exception {
    try (FlightClient client = fixture.client(allocator)) {
      List<String> paths = new ArrayList<>();
      client.listFlights(new Criteria("stations.zarr".getBytes(StandardCharsets.UTF_8)))
          .forEach(i -> paths.add(String.join("/", i.getDescriptor().getPath())));
      assertTrue(paths.contains("stations.zarr"), paths.toString());
      assertTrue(paths.contains("stations.zarr/pr"), paths.toString()); // its arrays stay flights of their own
    }
  }
}
