package dev.zarrow.cli;

import dev.zarrow.ZarrOptions;
import dev.zarrow.flight.ZarrFlightProducer;
import dev.zarrow.store.Store;
import dev.zarrow.table.TableOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** What {@code zarrow serve} runs: the Flight server over the store until a signal stops it. */
final class FlightServing {
  private FlightServing() {}

  static int run(ServeCommand serve, ZarrOptions options, TableOptions tableOptions) throws Exception {
    List<Location> others = new ArrayList<>();
    for (String peer : serve.peers) {
      try {
        others.add(new Location(peer));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw serve.usage("--peer " + peer + ": not a location (grpc+tcp://HOST:PORT): " + e.getMessage());
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    try (Store store = serve.openExisting(serve.store);
        BufferAllocator allocator = new RootAllocator();
        ZarrFlightProducer producer = new ZarrFlightProducer(store, options, tableOptions, allocator);
        FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure(serve.host, serve.port), producer).build()) {
      producer.setBatchRows(serve.batchRows);
      try {
        server.start();
      } catch (IOException e) {
        throw serve.usage("cannot listen on " + serve.host + ":" + serve.port + ": "
            + Main.oneLine(String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage())));
      }
      List<Location> where = new ArrayList<>();
      where.add(Location.forGrpcInsecure(serve.host, server.getPort()));
      where.addAll(others);
      producer.setLocations(where);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, stopped), "zarrow-serve-stop"));
      serve.out().println("{\"location\":\"" + where.get(0).getUri() + "\"}");
      serve.out().flush();
      serve.err().println("serve: " + store.describe() + " at " + where.get(0).getUri()
          + (others.isEmpty() ? "" : ", peers " + others) + "; SIGTERM or SIGINT stops it");
      server.awaitTermination();
      serve.err().println("serve: stopped");
    } finally {
      stopped.countDown();
    }
    return Main.OK;
  }

  /**
   * The shutdown hook: no new calls, then waits while the calls in flight finish and the main thread
   * releases the server, producer, allocator and store; then exits 0 (a stop asked for is a clean
   * one, not a failure).
   */
  private static void stop(FlightServer server, CountDownLatch stopped) {
    server.shutdown();
    try {
      if (stopped.await(10, TimeUnit.MINUTES)) {
        Runtime.getRuntime().halt(Main.OK);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
