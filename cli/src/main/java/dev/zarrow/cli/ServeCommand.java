package dev.zarrow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Locale;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow serve STORE [--host H] [--port P] [--peer LOCATION]...}: an Arrow Flight server over
 * the store ({@link FlightServing}). Prints exactly one line on stdout once it accepts calls, {@code
 * {"location":"grpc+tcp://H:PORT"}} ({@code grpc+tls} with TLS); on SIGTERM or SIGINT it stops taking calls, finishes those in
 * flight, releases everything and exits 0.
 *
 * <p>Flight's classes are touched only by {@link FlightServing} (and {@link FileAuthenticator} and {@link
 * CallLimit}, which it uses), when the command runs: the other
 * commands work where Flight is absent (the CLI on a Spark class path, which brings no flight-core).
 */
@Command(
    name = "serve",
    description = {
      "Serve the store's arrays and group tables over Arrow Flight: path descriptors of one element, the"
          + " node path; one endpoint per shard (or chunk) row range in row order; DoPut writes a group"
          + " table (claimed only when the stream ends cleanly; an existing node is ALREADY_EXISTS).",
      "Prints {\"location\":\"grpc+tcp://H:PORT\"} (grpc+tls:// with TLS) on stdout once it accepts calls; SIGTERM or SIGINT"
          + " stops it after the calls in flight. The layout options say how DoPut lays out tables.",
      "Read-only unless --allow-writes. Listening on an address that is not loopback needs TLS (--tls-cert, --tls-key)"
          + " and authentication (--auth-token-file, --auth-basic-file or --tls-client-ca), or --insecure."
    })
final class ServeCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, s3://BUCKET/PREFIX, a .zip archive, http(s):// or gs://BUCKET/PREFIX (read-only).")
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

  @Option(names = "--tls-cert", paramLabel = "FILE", description = "Serve grpc+tls with this certificate chain (PEM); needs --tls-key.")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "The certificate's private key (PEM, PKCS#8: BEGIN PRIVATE KEY).")
  Path tlsKey;

  @Option(names = "--tls-client-ca", paramLabel = "FILE",
      description = "Require client certificates signed by this CA (PEM): mutual TLS. Needs --tls-cert.")
  Path tlsClientCa;

  @Option(names = "--auth-token-file", paramLabel = "FILE",
      description = "Accept calls with Authorization: Bearer TOKEN, one token per line (at least 16 characters); the file must"
          + " be readable by its owner only. Read again when it changes.")
  Path authTokenFile;

  @Option(names = "--auth-basic-file", paramLabel = "FILE",
      description = "Accept users of this file, USER:HASH lines (zarrow hash-password makes them), by basic authentication;"
          + " clients get a bearer token for their next calls. Owner-only, read again when it changes.")
  Path authBasicFile;

  @Option(names = "--allow-writes", description = "Let DoPut write tables into the store (without it DoPut is PERMISSION_DENIED).")
  boolean allowWrites;

  @Option(names = "--insecure",
      description = "Serve on an address that is not loopback without TLS or authentication (refused without this).")
  boolean insecure;

  @Option(names = "--max-calls", paramLabel = "N",
      description = "The most calls running at once; more are RESOURCE_EXHAUSTED (default: 4 per core, ${DEFAULT-VALUE}).")
  int maxCalls = 4 * Runtime.getRuntime().availableProcessors();

  @Option(names = "--max-put-bytes", paramLabel = "SIZE",
      description = "The most Arrow data one DoPut may bring (bytes, or with k, m, g, t); a larger put is aborted and"
          + " removed (default: ${DEFAULT-VALUE}).")
  String maxPutBytes = "16g";

  @Option(names = "--idle-timeout", paramLabel = "SECONDS",
      description = "A DoPut whose client sends nothing this long, or a connection without calls, is closed; 0 never"
          + " (default: ${DEFAULT-VALUE}).")
  long idleTimeout = 300;

  @Mixin TableLayoutOptions layout = new TableLayoutOptions();

  @Override
  public Integer call() throws Exception {
    return FlightServing.run(this, start());
  }

  /** Checks the options and starts the server (usage errors for what cannot be served); the caller closes it. */
  FlightServing.Running start() throws Exception {
    if (port < 0 || port > 65535) {
      throw usage("--port " + port + ": not a port (0 for any free one)");
    }
    if (batchRows < 0) {
      throw usage("--batch-rows must be 0 or more, not " + batchRows);
    }
    if (maxCalls < 1) {
      throw usage("--max-calls " + maxCalls + ": must be at least 1");
    }
    if (idleTimeout < 0) {
      throw usage("--idle-timeout " + idleTimeout + ": must be 0 or more seconds");
    }
    maxPutBytes();
    var options = options();
    var tableOptions = layout.toTableOptions(options, this::usage);
    return FlightServing.start(this, options, tableOptions);
  }

  /** {@code --max-put-bytes} in bytes: a number, or with k, m, g or t (powers of 1024). */
  long maxPutBytes() {
    String text = maxPutBytes.strip().toLowerCase(Locale.ROOT);
    int shift = text.isEmpty() ? 0 : switch (text.charAt(text.length() - 1)) {
      case 'k' -> 10;
      case 'm' -> 20;
      case 'g' -> 30;
      case 't' -> 40;
      default -> 0;
    };
    try {
      long n = Long.parseLong(shift == 0 ? text : text.substring(0, text.length() - 1));
      if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw usage("--max-put-bytes " + maxPutBytes + ": not a positive size (bytes, or a number with k, m, g or t)");
    }
  }
}
