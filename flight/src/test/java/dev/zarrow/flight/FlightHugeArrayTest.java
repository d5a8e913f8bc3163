package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.table.TableOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetFlightInfo of an array of 2^40 one-row chunks (issue 14): before, one endpoint per chunk, built
 * until memory ran out; now at most {@link ZarrFlightProducer#MAX_ENDPOINTS} endpoints of whole chunks
 * that cover every row, in order.
 */
class FlightHugeArrayTest {
  @TempDir Path dir;

  @Test
  void aHugeGridGetsFewEndpointsCoveringEveryRow() throws Exception {
    long rows = 1L << 40;
    try (FlightFixture flight = new FlightFixture(dir, TableOptions.defaults());
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = flight.client(allocator)) {
      Zarr.createArray(flight.store, "huge", ArraySpec.of(FixedType.INT8, rows).chunks(1));
      FlightInfo info = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> client.getInfo(FlightDescriptor.path("huge")));
      List<FlightEndpoint> endpoints = info.getEndpoints();
      assertTrue(endpoints.size() <= ZarrFlightProducer.MAX_ENDPOINTS, endpoints.size() + " endpoints");
      assertEquals(rows, info.getRecords());
    }
    assertEquals(16L << 20, ZarrFlightProducer.endpointRows(1L << 40, 1));
    assertEquals(4, ZarrFlightProducer.endpointRows(10, 4));
    long step = ZarrFlightProducer.endpointRows(Long.MAX_VALUE, Integer.MAX_VALUE);
    assertTrue(step % Integer.MAX_VALUE == 0 && Long.MAX_VALUE / step < ZarrFlightProducer.MAX_ENDPOINTS, String.valueOf(step));
  }
}
