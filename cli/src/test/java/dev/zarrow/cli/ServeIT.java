package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.flight.FlightClients;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.StreamSnapshot;
import dev.zarrow.testing.Vectors;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarrow serve} from the shaded jar, as {@code bin/zarrow} runs it: two server processes over
 * one store list each other's locations and serve the endpoints of one table in parallel; SIGTERM and
 * SIGINT stop a server after the calls in flight; stdout is exactly the one location line.
 */
@ExtendWith(AllocatorExtension.class)
class ServeIT {
  private static final int ROWS = 120_000;
  @TempDir Path dir;
  private Path store;

  @BeforeEach
  void writeStore(BufferAllocator allocator) {
    store = dir.resolve("store");
    String[] names = new String[ROWS];
    for (int i = 0; i < ROWS; i++) {
      names[i] = i % 7 == 0 ? null : "n" + (i % 1000);
    }
    try (FileSystemStore fs = FileSystemStore.open(store);
        BigIntVector id = new BigIntVector("id", allocator);
        Float8Vector value = new Float8Vector("value", allocator);
        VarCharVector name = Vectors.utf8(allocator, "name", names)) {
      id.allocateNew(ROWS);
      value.allocateNew(ROWS);
      for (int i = 0; i < ROWS; i++) {
        id.set(i, i);
        value.set(i, i * 0.5);
      }
      id.setValueCount(ROWS);
      value.setValueCount(ROWS);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(id, value, name)) {
        root.setRowCount(ROWS);
        // 4 shards of 30000 rows (6 chunks each): 4 endpoints
        TableWriter.write(Zarr.createGroup(fs, "t"), root, TableOptions.defaults().withChunkRows(5_000).withShardRows(30_000));
      }
    }
  }

  /** A running {@code zarrow serve} and the location it printed. */
  private record Server(Process process, Location location, BufferedReader stdout, Path stderr) {
    void signal(String name) throws Exception {
      // not Process.destroy: that closes our end of the server's stdout too
      new ProcessBuilder("sh", "-c", "kill -" + name + " " + process.pid()).inheritIO().start().waitFor();
    }

    int stop(String name) throws Exception {
      signal(name);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server stopped");
      return process.exitValue();
    }

    /** What the server printed on stdout after the location line (read after it stopped). */
    String rest() throws Exception {
      StringBuilder out = new StringBuilder();
      for (String line; (line = stdout.readLine()) != null; ) {
        out.append(line).append('\n');
      }
      return out.toString();
    }
  }

  private Server serve(String... options) throws Exception {
    Path jar = Path.of(System.getProperty("zarrow.jar"));
    assertTrue(Files.isRegularFile(jar), "the shaded jar " + jar);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m", "-jar", jar.toString(), "serve", store.toString(),
        "--host", "127.0.0.1", "--port", "0"));
    command.addAll(List.of(options));
    Path stderr = Files.createTempFile(dir, "serve", ".err");
    Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = stdout.readLine();
    assertNotNull(line, () -> "no location line; stderr: " + read(stderr));
    JsonNode json = Json.mapper().readTree(line);
    assertEquals(1, json.size(), line);
    String location = json.get("location").textValue();
    assertTrue(location.matches("grpc\\+(tcp|tls)://127\\.0\\.0\\.1:\\d+"), location);
    return new Server(process, new Location(location), stdout, stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (Exception e) {
      return "(" + e + ")";
    }
  }

  @Test
  void twoServersOverOneStoreServeTheEndpointsInParallel(BufferAllocator allocator) throws Exception {
    Server a = serve();
    Server b = serve("--peer", a.location().getUri().toString());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (FlightClient toA = FlightClient.builder(allocator, a.location()).build();
        FlightClient toB = FlightClient.builder(allocator, b.location()).build()) {
      FlightInfo info = toB.getInfo(FlightDescriptor.path("t"));
      assertEquals(ROWS, info.getRecords());
      assertEquals(4, info.getEndpoints().size());
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        assertEquals(List.of(b.location(), a.location()), endpoint.getLocations());
      }
      // each endpoint from the location its position picks: 0 and 2 from B, 1 and 3 from A, all at once
      List<Future<StreamSnapshot>> parts = new ArrayList<>();
      for (int i = 0; i < info.getEndpoints().size(); i++) {
        FlightEndpoint endpoint = info.getEndpoints().get(i);
        FlightClient client = endpoint.getLocations().get(i % 2).equals(a.location()) ? toA : toB;
        parts.add(pool.submit(() -> FlightClients.fetch(client, endpoint, info.getSchema())));
      }
      List<StreamSnapshot> fetched = new ArrayList<>();
      for (Future<StreamSnapshot> part : parts) {
        fetched.add(part.get(120, TimeUnit.SECONDS));
      }
      try (FileSystemStore fs = FileSystemStore.open(store)) {
        ZarrGroup group = Zarr.openGroup(fs, "t");
        try (TableReader reader = TableReader.of(group, allocator)) {
          assertEquals(StreamSnapshot.of(reader), StreamSnapshot.concat(fetched));
        }
      }
      List<String> listed = new ArrayList<>();
      toA.listFlights(Criteria.ALL).forEach(i -> listed.add(i.getDescriptor().getPath().get(0)));
      assertEquals(List.of("t", "t/id", "t/name", "t/value"), listed.stream().sorted().toList());
    } finally {
      pool.shutdownNow();
    }
    assertEquals(0, a.stop("TERM"), () -> read(a.stderr()));
    assertEquals(0, b.stop("INT"), () -> read(b.stderr()));
    assertEquals("", a.rest(), "stdout holds the location line only");
    assertEquals("", b.rest());
    assertTrue(read(a.stderr()).contains("serve: stopped"), read(a.stderr()));
  }

  @Test
  void theShadedJarServesGrpcTlsToBearersOnly(BufferAllocator allocator) throws Exception {
    TestCertificates certs = new TestCertificates(dir.resolve("certs"));
    String token = "it-token-5e0c2b7d91f84a36";
    Path tokens = dir.resolve("tokens");
    Files.createFile(tokens, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tokens, token + "\n");
    Server server = serve("--tls-cert", certs.serverCert.toString(), "--tls-key", certs.serverKey.toString(),
        "--auth-token-file", tokens.toString());
    assertEquals("grpc+tls", server.location().getUri().getScheme());
    try (var ca = Files.newInputStream(certs.ca);
        FlightClient client = FlightClient.builder(allocator, server.location()).trustedCertificates(ca).build()) {
      var bearer = new org.apache.arrow.flight.grpc.CredentialCallOption(new org.apache.arrow.flight.auth2.BearerCredentialWriter(token));
      FlightInfo info = client.getInfo(FlightDescriptor.path("t"), bearer);
      long rows = 0;
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        try (FlightStream stream = client.getStream(endpoint.getTicket(), bearer)) {
          while (stream.next()) {
            rows += stream.getRoot().getRowCount();
          }
        }
      }
      assertEquals(ROWS, rows);
      FlightRuntimeException refused = assertThrows(FlightRuntimeException.class, () -> client.getInfo(FlightDescriptor.path("t")));
      assertEquals(org.apache.arrow.flight.FlightStatusCode.UNAUTHENTICATED, refused.status().code());
    }
    assertEquals(0, server.stop("TERM"), () -> read(server.stderr()));
    assertTrue(read(server.stderr()).contains("read-only"), read(server.stderr()));
    assertTrue(!read(server.stderr()).contains(token), read(server.stderr()));
  }

  @Test
  void sigtermFinishesTheCallsInFlightThenStops(BufferAllocator allocator) throws Exception {
    // one 24 MB shard of 1000-row chunks: more than the network buffers hold, so the server waits on the client
    int big = 3_000_000;
    try (FileSystemStore fs = FileSystemStore.open(store); BigIntVector v = new BigIntVector("v", allocator)) {
      v.allocateNew(big);
      for (int i = 0; i < big; i++) {
        v.set(i, i);
      }
      v.setValueCount(big);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(v)) {
        root.setRowCount(big);
        TableWriter.write(Zarr.createGroup(fs, "big"), root, TableOptions.defaults().withChunkRows(1_000).withShardRows(big));
      }
    }
    Server server = serve("--batch-rows", "1000");
    try (FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
      FlightInfo info = client.getInfo(FlightDescriptor.path("big"));
      long rows = 0;
      try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
        assertTrue(stream.next());
        rows += stream.getRoot().getRowCount();
        server.signal("TERM");
        Thread.sleep(500);
        assertTrue(server.process().isAlive(), "the server waits for the call in flight");
        assertThrows(FlightRuntimeException.class, () -> client.getInfo(FlightDescriptor.path("t")), "no new calls");
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
      }
      assertEquals(big, rows, "the call in flight finished whole");
    }
    assertTrue(server.process().waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, server.process().exitValue(), () -> read(server.stderr()));
    assertEquals("", server.rest());
  }
}
