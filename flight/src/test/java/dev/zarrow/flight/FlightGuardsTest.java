package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrOptions;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What keeps a producer safe from its clients: read-only unless writes are allowed, the bytes a put may
 * bring, and clients that stop sending.
 */
@ExtendWith(AllocatorExtension.class)
class FlightGuardsTest {
  @TempDir Path dir;
  FlightFixture flight;

  @BeforeEach
  void start(BufferAllocator allocator) throws Exception {
    flight = new FlightFixture(dir, TableOptions.defaults().withChunkRows(4));
    try (VectorSchemaRoot rows = FlightServiceTest.people(allocator, 20)) {
      TableWriter.write(Zarr.createGroup(flight.store, "people"), rows, TableOptions.defaults().withChunkRows(2));
    }
  }

  @AfterEach
  void stop() throws Exception {
    flight.assertServerMemoryFreed();
    flight.close();
  }

  @Test
  void aProducerIsReadOnlyUntilWritesAreAllowed(BufferAllocator allocator) throws Exception {
    List<String> before = flight.store.list("");
    // a new producer, in a server of its own: read-only
    try (BufferAllocator serverMemory = allocator.newChildAllocator("fresh server", 0, Long.MAX_VALUE);
        var fresh = new ZarrFlightProducer(flight.store, serverMemory);
        FlightServer server = FlightServer.builder(serverMemory, Location.forGrpcInsecure("127.0.0.1", 0), fresh).build().start();
        FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort())).build();
        VectorSchemaRoot rows = FlightServiceTest.people(allocator, 5)) {
      FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> put(client, "copy", rows, 3));
      assertEquals(FlightStatusCode.UNAUTHORIZED, e.status().code(), "PERMISSION_DENIED, as Arrow Java names it");
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }
    assertEquals(before, flight.store.list(""), "nothing was written");
    flight.producer.setWritesAllowed(false);
    try (FlightClient client = flight.client(allocator); VectorSchemaRoot rows = FlightServiceTest.people(allocator, 5)) {
      assertEquals(Status.Code.PERMISSION_DENIED, flight.failureOf(() -> put(client, "copy", rows, 3)));
      assertEquals(before, flight.store.list(""), "nothing was written");
      flight.producer.setWritesAllowed(true);
      put(client, "copy", rows, 1);
      assertTrue(Zarr.tryOpen(flight.store, "copy", ZarrOptions.defaults()).isPresent());
    }
  }

  @Test
  void aPutLargerThanTheLimitIsAbortedAndRemoved(BufferAllocator allocator) throws Exception {
    try (FlightClient client = flight.client(allocator); VectorSchemaRoot rows = FlightServiceTest.people(allocator, 1000)) {
      long batch = rows.getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
      flight.producer.setMaxPutBytes(batch * 3 + 1);
      put(client, "three", rows, 3); // exactly three batches fit
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, flight.failureOf(() -> put(client, "four", rows, 4)));
      awaitNoKeys("four/");
      assertTrue(Zarr.tryOpen(flight.store, "four", ZarrOptions.defaults()).isEmpty());
    }
  }

  @Test
  void aPutThatGoesQuietTimesOutAndLeavesNothing(BufferAllocator allocator) throws Exception {
    flight.producer.setIdleTimeout(Duration.ofMillis(500));
    try (FlightClient client = flight.client(allocator); VectorSchemaRoot rows = FlightServiceTest.people(allocator, 5)) {
      SyncPutListener answer = new SyncPutListener();
      FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path("quiet"), rows, answer);
      put.putNext();
      long started = System.nanoTime();
      // the client sends nothing more and never ends the stream
      assertEquals(Status.Code.DEADLINE_EXCEEDED, flight.failureOf(put::getResult));
      assertTrue(System.nanoTime() - started < 30_000_000_000L);
      answer.close();
      awaitNoKeys("quiet/");
      assertTrue(Zarr.tryOpen(flight.store, "quiet", ZarrOptions.defaults()).isEmpty());
    }
  }

  private void awaitNoKeys(String prefix) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!flight.store.list(prefix).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(List.of(), flight.store.list(prefix));
  }

  /** Puts {@code rows} {@code batches} times as one stream at {@code path}. */
  private static void put(FlightClient client, String path, VectorSchemaRoot rows, int batches) {
    try (SyncPutListener answer = new SyncPutListener()) {
      FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path(path), rows, answer);
      for (int i = 0; i < batches; i++) {
        put.putNext();
      }
      put.completed();
      put.getResult();
    }
  }
}
