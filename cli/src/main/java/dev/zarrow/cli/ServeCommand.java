package dev.zarrow.cli;

import dev.zarrow.ZarrOptions;
import dev.zarrow.flight.ZarrFlightProducer;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow serve STORE [--host H] [--port P] [--peer LOCATION]...}: an Arrow Flight server over
 * the store ({@link ZarrFlightProducer}). Prints exactly one line on stdout once it accepts calls,
 * {@code {"location":"grpc+tcp://H:PORT"}}; on SIGTERM or SIGINT it stops taking calls, finishes
 * those in flight, releases everything and exits 0.
 */
@Command(
    name = "serve",
    description = {
      "Serve the store's arrays and group tables over Arrow Flight: path descriptors of one element, the"
          + " node path; one endpoint per shard (or chunk) row range in row order; DoPut writes a group"
          + " table (claimed only when the stream ends cleanly; an existing node is ALREADY_EXISTS).",
      "Prints {\"location\":\"grpc+tcp://H:PORT\"} on stdout once it accepts calls; SIGTERM or SIGINT"
          + " stops it after the calls in flight. The layout options say how DoPut lays out tables."
    })
final class ServeCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store directory.")
  Path storeDir;

  @Option(names = "--host", paramLabel = "H", description = "The address to listen on and advertise (default: ${DEFAULT-VALUE}).")
  String host = "localhost";

  @Option(names = "--port", paramLabel = "P", description = "The port; 0 (default) for any free port.")
  int port;

  @Option(names = "--peer", paramLabel = "LOCATION",
      description = "Another server over the same store (grpc+tcp://H:P) that endpoints also list, after this one (repeat).")
  List<String> peers = new ArrayList<>();

  @Option(names = "--batch-rows", paramLabel = "N", description = "Rows per DoGet batch (default: a chunk's rows, a shard's when sharded).")
  int batchRows;

  @Mixin TableLayoutOptions layout = new TableLayoutOptions();

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw usage("--port " + port + ": not a port (0 for any free one)");
    }
    if (batchRows < 0) {
      throw usage("--batch-rows must be 0 or more, not " + batchRows);
    }
    List<Location> others = new ArrayList<>();
    for (String peer : peers) {
      try {
        others.add(new Location(peer));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw usage("--peer " + peer + ": not a location (grpc+tcp://HOST:PORT): " + e.getMessage());
      }
    }
    ZarrOptions options = options();
    var tableOptions = layout.toTableOptions(options, this::usage);
    CountDownLatch stopped = new CountDownLatch(1);
    try (FileSystemStore store = openExisting(storeDir);
        BufferAllocator allocator = new RootAllocator();
        ZarrFlightProducer producer = new ZarrFlightProducer(store, options, tableOptions, allocator);
        FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure(host, port), producer).build()) {
      producer.setBatchRows(batchRows);
      try {
        server.start();
      } catch (IOException e) {
        throw usage("cannot listen on " + host + ":" + port + ": " + Main.oneLine(String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage())));
      }
      List<Location> where = new ArrayList<>();
      where.add(Location.forGrpcInsecure(host, server.getPort()));
      where.addAll(others);
      producer.setLocations(where);
      Thread hook = new Thread(() -> stop(server, stopped), "zarrow-serve-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      out().println("{\"location\":\"" + where.get(0).getUri() + "\"}");
      out().flush();
      err().println("serve: " + store.describe() + " at " + where.get(0).getUri() + (others.isEmpty() ? "" : ", peers " + others)
          + "; SIGTERM or SIGINT stops it");
      server.awaitTermination();
      err().println("serve: stopped");
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
