package dev.zarrow.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow serve STORE [--host H] [--port P] [--peer LOCATION]...}: an Arrow Flight server over
 * the store ({@link FlightServing}). Prints exactly one line on stdout once it accepts calls, {@code
 * {"location":"grpc+tcp://H:PORT"}}; on SIGTERM or SIGINT it stops taking calls, finishes those in
 * flight, releases everything and exits 0.
 *
 * <p>Flight's classes are touched only by {@link FlightServing}, when the command runs: the other
 * commands work where Flight is absent (the CLI on a Spark class path, which brings no flight-core).
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
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, s3://BUCKET/PREFIX, a .zip archive, http(s):// (read-only).")
  String store;

  @Option(names = "--host", paramLabel = "H", description = "The address to listen on and advertise (default: ${DEFAULT-VALUE}).")
  String host = "localhost";

  @Option(names = "--port", paramLabel = "P", description = "The port; 0 (default) for any free port.")
  int port;

  @Option(names = "--peer", paramLabel = "LOCATION",
      description = "Another server over the same store (grpc+tcp://H:P) that endpoints also list, after this one (repeat).")
  List<String> peers = new ArrayList<>();

  @Option(names = "--batch-rows", paramLabel = "N",
      description = "Rows per DoGet batch (default: an inner chunk's rows when sharded, else a chunk's).")
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
    var options = options();
    var tableOptions = layout.toTableOptions(options, this::usage);
    return FlightServing.run(this, options, tableOptions);
  }
}
