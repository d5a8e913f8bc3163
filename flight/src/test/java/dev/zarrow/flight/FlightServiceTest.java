package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.StreamSnapshot;
import dev.zarrow.testing.Vectors;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service over a store written by the library: what ListFlights lists, arrays as flights, the
 * status codes of bad requests, missing and corrupt data, puts that cannot be claimed, and clients
 * that go away mid-stream. One server for the class; its memory is free after each test.
 */
@ExtendWith(AllocatorExtension.class)
class FlightServiceTest {
  @TempDir static Path dir;
  static FlightFixture flight;

  @BeforeAll
  static void start() throws Exception {
    flight = new FlightFixture(dir, TableOptions.defaults().withChunkRows(4));
    try (BufferAllocator allocator = new RootAllocator()) {
      write(allocator);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    flight.close();
  }

  @AfterEach
  void serverMemoryFreed() throws InterruptedException {
    flight.producer.setBatchRows(0);
    flight.assertServerMemoryFreed();
  }

  /**
   * tables/people (20 rows in 3-row chunks, 6-row shards), arrays/temps (1-D, 10 in chunks of 4),
   * arrays/grid (5 x 3 in 2 x 3 chunks), arrays/scalar (0-d), obs (two aligned arrays, no table
   * attribute), misaligned (arrays of 3 and 4 rows), empty (a group), big (200K rows in 50K-row
   * chunks).
   */
  private static void write(BufferAllocator allocator) {
    Zarr.createGroup(flight.store, "empty");
    try (VectorSchemaRoot rows = people(allocator, 20)) {
      TableWriter.write(Zarr.createGroup(flight.store, "tables/people"), rows, TableOptions.defaults().withChunkRows(3).withShardRows(6));
    }
    ZarrArray temps = Zarr.createArray(flight.store, "arrays/temps", ArraySpec.of(FixedType.FLOAT64, 10).chunks(4));
    try (Float8Vector v = new Float8Vector("v", allocator)) {
      v.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        v.set(i, i / 4.0);
      }
      v.setValueCount(10);
      temps.write(0, v);
    }
    ZarrArray grid = Zarr.createArray(flight.store, "arrays/grid", ArraySpec.of(FixedType.INT32, 5, 3).chunks(2, 3));
    try (IntVector v = ints(allocator, 15)) {
      grid.write(new long[] {0, 0}, new NdVector(v, new long[] {5, 3}));
    }
    Zarr.createArray(flight.store, "arrays/scalar", ArraySpec.of(FixedType.INT32));
    for (String node : List.of("obs/a", "obs/b", "misaligned/x")) {
      try (IntVector v = ints(allocator, 3)) {
        Zarr.createArray(flight.store, node, ArraySpec.of(FixedType.INT32, 3).chunks(2)).write(0, v);
      }
    }
    Zarr.createArray(flight.store, "misaligned/y", ArraySpec.of(FixedType.INT32, 4).chunks(2));
    try (BigIntVector v = new BigIntVector("n", allocator)) {
      int n = 200_000;
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i);
      }
      v.setValueCount(n);
      Zarr.createArray(flight.store, "big", ArraySpec.of(FixedType.INT64, n).chunks(50_000)).write(0, v);
    }
  }

  private static IntVector ints(BufferAllocator allocator, int n) {
    IntVector v = new IntVector("v", allocator);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, i * 3);
    }
    v.setValueCount(n);
    return v;
  }

  /** {@code rows} people: id (int64), name (utf8), city (utf8, some null). The caller closes the root. */
  static VectorSchemaRoot people(BufferAllocator allocator, int rows) {
    String[] names = new String[rows];
    String[] cities = new String[rows];
    String[] places = {"Oslo", "Lima", null, "Pune"};
    for (int i = 0; i < rows; i++) {
      names[i] = "person " + i;
      cities[i] = places[i % places.length];
    }
    BigIntVector ids = new BigIntVector("id", allocator);
    ids.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      ids.set(i, 1000 + i);
    }
    ids.setValueCount(rows);
    VarCharVector name = Vectors.utf8(allocator, "name", names);
    VarCharVector city = Vectors.utf8(allocator, "city", cities);
    VectorSchemaRoot root = VectorSchemaRoot.of(ids, name, city);
    root.setRowCount(rows);
    return root;
  }

  @Test
  void listFlightsListsEveryArrayAndEveryGroupTable(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      Map<String, Long> listed = new TreeMap<>();
      for (FlightInfo info : client.listFlights(Criteria.ALL)) {
        listed.put(info.getDescriptor().getPath().get(0), info.getRecords());
        assertTrue(info.getOrdered());
      }
      Map<String, Long> expected = new TreeMap<>(Map.ofEntries(
          Map.entry("tables/people", 20L), Map.entry("tables/people/id", 20L), Map.entry("tables/people/name", 20L),
          Map.entry("tables/people/city", 20L), Map.entry("arrays/temps", 10L), Map.entry("arrays/grid", 5L),
          Map.entry("arrays/scalar", 1L), Map.entry("obs/a", 3L), Map.entry("obs/b", 3L),
          Map.entry("misaligned/x", 3L), Map.entry("misaligned/y", 4L), Map.entry("big", 200_000L)));
      // groups of arrays that claim no table (obs, misaligned, the root) are not tables
      assertEquals(expected, listed);

      List<String> tables = new ArrayList<>();
      client.listFlights(new Criteria("tables".getBytes(StandardCharsets.UTF_8)))
          .forEach(info -> tables.add(info.getDescriptor().getPath().get(0)));
      assertEquals(List.of("tables/people", "tables/people/city", "tables/people/id", "tables/people/name"),
          tables.stream().sorted().toList());
      assertFalse(client.listFlights(new Criteria("nothing/here".getBytes(StandardCharsets.UTF_8))).iterator().hasNext());
    }
  }

  @Test
  void aTableHasOneEndpointPerShardInRowOrderAtTheServersLocations(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      FlightInfo info = client.getInfo(FlightDescriptor.path("/tables/people/"));
      assertEquals(List.of("tables/people"), info.getDescriptor().getPath());
      assertEquals(4, info.getEndpoints().size());
      assertEquals(info.getSchema(), client.getSchema(FlightDescriptor.path("tables/people")).getSchema());
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        assertEquals(List.of(flight.location), endpoint.getLocations());
      }
      List<Long> firstIds = new ArrayList<>();
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        try (FlightStream stream = client.getStream(endpoint.getTicket())) {
          assertTrue(stream.next());
          firstIds.add(((BigIntVector) stream.getRoot().getVector("id")).get(0));
        }
      }
      assertEquals(List.of(1000L, 1006L, 1012L, 1018L), firstIds);
      List<Integer> batches = new ArrayList<>();
      try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
        while (stream.next()) {
          batches.add(stream.getRoot().getRowCount());
        }
      }
      assertEquals(List.of(3, 3), batches, "a shard's endpoint streams a batch per inner chunk");
      ZarrGroup group = Zarr.openGroup(flight.store, "tables/people");
      try (TableReader reader = TableReader.of(group, allocator)) {
        assertEquals(StreamSnapshot.of(reader), FlightClients.fetchAll(client, info));
      }
    }
  }

  @Test
  void arraysOfEveryRankAreFlights(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      for (String path : List.of("arrays/temps", "arrays/grid", "arrays/scalar", "big")) {
        FlightInfo info = client.getInfo(FlightDescriptor.path(path));
        ZarrArray array = Zarr.openArray(flight.store, path);
        try (ArrayReader reader = ArrayReader.of(array, allocator)) {
          assertEquals((reader.rows() + reader.chunkRows() - 1) / reader.chunkRows(), info.getEndpoints().size(), path);
        }
        try (ArrayReader reader = ArrayReader.of(array, allocator)) {
          assertEquals(StreamSnapshot.of(reader), FlightClients.fetchAll(client, info), path);
        }
      }
      FlightInfo grid = client.getInfo(FlightDescriptor.path("arrays/grid"));
      assertEquals("arrow.fixed_shape_tensor", grid.getSchema().getFields().get(0).getMetadata().get("ARROW:extension:name"));
      assertEquals(3, client.getInfo(FlightDescriptor.path("arrays/temps")).getEndpoints().size());
    }
  }

  @Test
  void smallerBatchesStreamAnEndpointInPieces(BufferAllocator allocator) throws Exception {
    flight.producer.setBatchRows(7_000);
    try (FlightClient client = flight.client(allocator)) {
      FlightInfo info = client.getInfo(FlightDescriptor.path("big"));
      int batches = 0;
      try (FlightStream stream = client.getStream(info.getEndpoints().get(1).getTicket())) {
        while (stream.next()) {
          batches++;
        }
      }
      assertEquals(8, batches, "rows [50000, 100000) cut at multiples of 7000");
      try (ArrayReader reader = ArrayReader.of(Zarr.openArray(flight.store, "big"), allocator)) {
        assertEquals(StreamSnapshot.of(reader), FlightClients.fetchAll(client, info));
      }
    }
  }

  @Test
  void badRequestsAreInvalidArguments(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      assertEquals(Status.Code.INVALID_ARGUMENT,
          flight.failureOf(() -> client.getInfo(FlightDescriptor.command("SELECT 1".getBytes(StandardCharsets.UTF_8)))));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> client.getInfo(FlightDescriptor.path("tables", "people"))));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> client.getSchema(FlightDescriptor.path("a/../b"))));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> drain(client, new Ticket(new byte[] {1, 2, 3}))));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> drain(client,
          new Ticket("{\"zarrow_ticket\":1,\"path\":\"big\",\"from\":5,\"to\":2}".getBytes(StandardCharsets.UTF_8)))));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> drain(client, Tickets.of("big", 0, 200_001))));
    }
  }

  @Test
  void missingNodesAreNotFound(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      assertEquals(Status.Code.NOT_FOUND, flight.failureOf(() -> client.getInfo(FlightDescriptor.path("tables/nobody"))));
      assertEquals(Status.Code.NOT_FOUND, flight.failureOf(() -> client.getSchema(FlightDescriptor.path("nothing"))));
      assertEquals(Status.Code.NOT_FOUND, flight.failureOf(() -> drain(client, Tickets.of("gone", 0, 1))));
    }
  }

  @Test
  void corruptDataIsDataLoss(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator); VectorSchemaRoot rows = people(allocator, 12)) {
      TableWriter.write(Zarr.createGroup(flight.store, "corrupt/people"), rows, TableOptions.defaults().withChunkRows(6));
      Path chunk = dir.resolve("corrupt/people/name/c/1");
      byte[] bytes = Files.readAllBytes(chunk);
      bytes[bytes.length / 2] ^= 0x5a;
      Files.write(chunk, bytes);
      FlightInfo info = client.getInfo(FlightDescriptor.path("corrupt/people"));
      assertEquals(6, FlightClients.fetch(client, info.getEndpoints().get(0), info.getSchema()).rows());
      assertEquals(Status.Code.DATA_LOSS, flight.failureOf(() -> drain(client, info.getEndpoints().get(1).getTicket())));
      assertTrue(flight.lastStatus.get().getDescription().contains("corrupt/people/name"), flight.lastStatus.get().getDescription());

      Files.writeString(dir.resolve("corrupt/people/city/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\"");
      assertEquals(Status.Code.DATA_LOSS, flight.failureOf(() -> client.getInfo(FlightDescriptor.path("corrupt/people"))));
    } finally {
      deleteTree(dir.resolve("corrupt"));
    }
  }

  @Test
  void putsWhereANodeIsAreRefused(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator)) {
      for (String path : List.of("tables/people", "obs", "obs/a")) {
        assertEquals(Status.Code.ALREADY_EXISTS, flight.failureOf(() -> putPeople(client, path, allocator)), path);
      }
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> putPeople(client, "arrays/temps/below", allocator)));
      assertEquals(Status.Code.INVALID_ARGUMENT, flight.failureOf(() -> putPeople(client, "/", allocator)));
      assertEquals(List.of(), flight.store.list("arrays/temps/below/"));
    }
  }

  @Test
  void aPutThatDoesNotEndCleanlyClaimsNothing(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator); VectorSchemaRoot rows = people(allocator, 9)) {
      SyncPutListener answer = new SyncPutListener();
      FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path("halfway/people"), rows, answer);
      put.putNext();
      put.putNext();
      // The server takes the call (its allocator made) before the client gives up: otherwise the checks
      // below could run before the server saw the put at all, and prove nothing (or fail on its allocator).
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (flight.serverMemory.getChildAllocators().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertFalse(flight.serverMemory.getChildAllocators().isEmpty(), "the server took the put");
      put.error(new RuntimeException("the client gives up"));
      answer.close();
      while (!flight.store.list("halfway/people/").isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(List.of(), flight.store.list("halfway/people/"), "the abandoned put's arrays were removed");
      assertTrue(Zarr.tryOpen(flight.store, "halfway/people", dev.zarrow.ZarrOptions.defaults()).isEmpty());
      flight.assertServerMemoryFreed();
      // the path is free again once the server has answered the abandoned put (which the client does not wait for)
      String answer2 = null;
      for (int tries = 0; answer2 == null; tries++) {
        try {
          answer2 = putPeople(client, "halfway/people", allocator);
        } catch (org.apache.arrow.flight.FlightRuntimeException e) {
          if (tries > 100) {
            throw e;
          }
          Thread.sleep(50);
        }
      }
      assertEquals("{\"path\":\"halfway/people\",\"rows\":20}", answer2);
    }
  }

  @Test
  void aClientThatGoesAwayMidStreamLeavesNothingOnTheServer(BufferAllocator allocator) throws Exception {
    flight.producer.setBatchRows(1_000);
    FlightInfo info;
    try (FlightClient client = flight.client(allocator)) {
      info = client.getInfo(FlightDescriptor.path("big"));
    }
    FlightClient leaving = flight.client(allocator);
    FlightStream stream = leaving.getStream(info.getEndpoints().get(0).getTicket());
    assertTrue(stream.next());
    assertEquals(1_000, stream.getRoot().getRowCount());
    stream.close(); // cancels the call: 49 batches unsent
    leaving.close();
    flight.assertServerMemoryFreed();
    try (FlightClient client = flight.client(allocator)) {
      assertEquals(50_000, FlightClients.fetch(client, info.getEndpoints().get(0), info.getSchema()).rows());
    }
  }

  private static String putPeople(FlightClient client, String path, BufferAllocator allocator) {
    try (VectorSchemaRoot rows = people(allocator, 20); ArrowReader one = new OneBatch(rows, allocator)) {
      return FlightClients.put(client, path, one);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void drain(FlightClient client, Ticket ticket) {
    try (FlightStream stream = client.getStream(ticket)) {
      while (stream.next()) {
        // read to the end (or the failure)
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path root) throws Exception {
    if (Files.exists(root)) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** A reader of one batch: {@code rows} (borrowed), loaded into the reader's own root. */
  private static final class OneBatch extends ArrowReader {
    private final VectorSchemaRoot rows;
    private boolean done;

    OneBatch(VectorSchemaRoot rows, BufferAllocator allocator) {
      super(allocator);
      this.rows = rows;
    }

    @Override
    public boolean loadNextBatch() {
      if (done) {
        return false;
      }
      done = true;
      try (var batch = new org.apache.arrow.vector.VectorUnloader(rows).getRecordBatch()) {
        new org.apache.arrow.vector.VectorLoader(getVectorSchemaRootUnchecked()).load(batch);
      }
      return true;
    }

    private VectorSchemaRoot getVectorSchemaRootUnchecked() {
      try {
        return getVectorSchemaRoot();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
      return rows.getSchema();
    }
  }
}
