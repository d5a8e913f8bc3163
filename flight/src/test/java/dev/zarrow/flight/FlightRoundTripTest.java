package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.StreamSnapshot;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * DoPut then DoGet of every endpoint, over loopback with Arrow Java's Flight client, for every Arrow
 * type the project stores: Arrow's gold streams (those Arrow Java reads and round-trips) and the
 * project's JSON fixtures. What comes back equals the input (stored schema, rows, every column's
 * values) and what the library's own reader of the table gives (the rows {@code zarrow export} writes);
 * the FlightInfo's schema and total_records say the same. Tables are put in 2-row chunks and 4-row
 * shards, so most have several endpoints. The server's memory is free after each put and get.
 */
class FlightRoundTripTest {
  @TempDir static Path dir;
  static FlightFixture flight;

  @BeforeAll
  static void start() throws Exception {
    flight = new FlightFixture(dir, TableOptions.defaults().withChunkRows(2).withShardRows(4));
  }

  @AfterAll
  static void stop() throws Exception {
    flight.close();
  }

  @AfterEach
  void serverMemoryFreed() throws InterruptedException {
    flight.assertServerMemoryFreed();
  }

  @TestFactory
  List<DynamicTest> goldStreams() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.roundTrippableStreams()) { // the others: see ExportRoundTripTest
      String name = GoldStreams.caseName(stream);
      if (GoldStreams.REPEATED_NAMES.contains(name)) {
        // Arrow Java's FlightStream loads batches with its VectorLoader, which merges struct children
        // that repeat a name, on either side of the wire: a limit of Flight in Java (README, Flight).
        continue;
      }
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(a -> roundTrip("gold/" + name, Files.readAllBytes(stream), a))));
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> jsonFixtures() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path json : ArrowJsonFiles.fixtureFiles()) {
      String name = json.getFileName().toString().replace(".json", "");
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(a -> roundTrip("fixtures/" + name, GoldStreams.jsonToStream(json, a), a))));
    }
    return tests;
  }

  private static void roundTrip(String path, byte[] ipcStream, BufferAllocator allocator) throws Exception {
    StreamSnapshot original = GoldStreams.snapshotOf(new ByteArrayInputStream(ipcStream), allocator);
    try (FlightClient client = flight.client(allocator)) {
      try (InputStream in = new ByteArrayInputStream(ipcStream); ArrowStreamReader source = new ArrowStreamReader(in, allocator)) {
        assertEquals("{\"path\":\"" + path + "\",\"rows\":" + original.rows() + "}", FlightClients.put(client, path, source));
      }
      flight.assertServerMemoryFreed();
      FlightInfo info = client.getInfo(FlightDescriptor.path(path));
      assertEquals(original.rows(), info.getRecords(), path + ": total_records");
      assertEquals((original.rows() + 3) / 4, info.getEndpoints().size(), path + ": one endpoint per 4-row shard");
      StreamSnapshot fetched = FlightClients.fetchAll(client, info);
      assertEquals(original, fetched, path);
      ZarrGroup group = Zarr.openGroup(flight.store, path);
      try (TableReader reader = TableReader.of(group, allocator)) {
        assertEquals(StreamSnapshot.of(reader), fetched, path + ": the library's reader of the table");
      }
    }
  }
}
