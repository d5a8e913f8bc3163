package dev.zarrow.cli;

import dev.zarrow.ZarrOptions;
import dev.zarrow.flight.ZarrFlightProducer;
import dev.zarrow.store.Store;
import dev.zarrow.table.TableOptions;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.ServerCallHeaderAuthMiddleware;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * What {@code zarrow serve} runs: the Flight server over the store until a signal stops it, with
 * Flight's own TLS (the server builder's {@code useTls}, {@code useMTlsClientVerification}) and
 * authentication ({@link FileAuthenticator} on Flight's header authenticators), read-only unless
 * {@code --allow-writes}, and the limits of {@code --max-calls}, {@code --max-put-bytes} and {@code
 * --idle-timeout}.
 */
final class FlightServing {
  private FlightServing() {}

  /** Serves until a signal stops the server; closes {@code running}. */
  static int run(ServeCommand serve, Running started) throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    try (Running running = started) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(running.server, stopped), "zarrow-serve-stop"));
      serve.out().println("{\"location\":\"" + running.location.getUri() + "\"}");
      serve.out().flush();
      serve.err().println("serve: " + running.store.describe() + " at " + running.location.getUri()
          + (serve.peers.isEmpty() ? "" : ", peers " + serve.peers) + (serve.allowWrites ? ", writable" : ", read-only")
          + "; SIGTERM or SIGINT stops it");
      serve.err().flush();
      running.server.awaitTermination();
      serve.err().println("serve: stopped");
    } finally {
      stopped.countDown();
    }
    return Main.OK;
  }

  /** A started server and what it holds; closing it stops the server and releases everything. */
  static final class Running implements AutoCloseable {
    final Store store;
    final BufferAllocator allocator;
    final ZarrFlightProducer producer;
    final FlightServer server;
    final Location location;

    Running(Store store, BufferAllocator allocator, ZarrFlightProducer producer, FlightServer server, Location location) {
      this.store = store;
      this.allocator = allocator;
      this.producer = producer;
      this.server = server;
      this.location = location;
    }

    @Override
    public void close() throws Exception {
      try (store; allocator; producer; server) {
        server.shutdown();
      }
    }
  }

  /** Checks the options, then starts the server; a usage error (exit 2) for what cannot be served. */
  static Running start(ServeCommand serve, ZarrOptions options, TableOptions tableOptions) throws Exception {
    List<Location> others = new ArrayList<>();
    for (String peer : serve.peers) {
      try {
        others.add(new Location(peer));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw serve.usage("--peer " + peer + ": not a location (grpc+tcp://HOST:PORT): " + e.getMessage());
      }
    }
    boolean tls = checkTls(serve);
    FileAuthenticator authenticator = authenticator(serve);
    boolean authenticated = authenticator != null || serve.tlsClientCa != null;
    if (!loopback(serve) && !serve.insecure && !(tls && authenticated)) {
      List<String> missing = new ArrayList<>();
      if (!tls) {
        missing.add("TLS (--tls-cert FILE --tls-key FILE)");
      }
      if (!authenticated) {
        missing.add("authentication (--auth-token-file FILE, --auth-basic-file FILE or --tls-client-ca FILE)");
      }
      throw serve.usage("--host " + serve.host + " is not a loopback address: serving it needs "
          + String.join(" and ", missing) + ", or --insecure to serve it without");
    }
    long maxPutBytes = serve.maxPutBytes();
    Store store = serve.openExisting(serve.store);
    BufferAllocator allocator = null;
    ZarrFlightProducer producer = null;
    try {
      allocator = new RootAllocator();
      producer = new ZarrFlightProducer(store, options, tableOptions, allocator);
      producer.setBatchRows(serve.batchRows);
      producer.setWritesAllowed(serve.allowWrites);
      producer.setMaxPutBytes(maxPutBytes);
      producer.setIdleTimeout(Duration.ofSeconds(serve.idleTimeout));
      Location listen = tls ? Location.forGrpcTls(serve.host, serve.port) : Location.forGrpcInsecure(serve.host, serve.port);
      FlightServer.Builder builder = FlightServer.builder(allocator, listen, producer)
          // no single message larger than a whole put may be (gRPC refuses it before it is buffered)
          .maxInboundMessageSize((int) Math.min(Integer.MAX_VALUE, maxPutBytes + (1 << 20)))
          .transportHint("grpc.builderConsumer", keepAlive(serve.idleTimeout));
      if (tls) {
        builder.useTls(serve.tlsCert.toFile(), serve.tlsKey.toFile());
        if (serve.tlsClientCa != null) {
          builder.useMTlsClientVerification(serve.tlsClientCa.toFile());
        }
      }
      if (authenticator != null) {
        // Flight's own header authentication, registered first: a call without valid credentials
        // ends here, before the call limit counts it and before the producer sees it.
        builder.middleware(FlightServerMiddleware.Key.of(Auth2Constants.AUTHORIZATION_HEADER),
            new ServerCallHeaderAuthMiddleware.Factory(authenticator));
      }
      builder.middleware(CallLimit.KEY, new CallLimit(serve.maxCalls));
      FlightServer server;
      try {
        server = builder.build();
      } catch (RuntimeException e) {
        if (!tls) {
          throw e;
        }
        throw serve.usage("--tls-cert " + serve.tlsCert + ", --tls-key " + serve.tlsKey
            + (serve.tlsClientCa == null ? "" : ", --tls-client-ca " + serve.tlsClientCa) + ": cannot be used: "
            + Main.oneLine(String.valueOf(rootCause(e).getMessage())));
      }
      try {
        server.start();
      } catch (IOException e) {
        server.close();
        throw serve.usage("cannot listen on " + serve.host + ":" + serve.port + ": "
            + Main.oneLine(String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage())));
      }
      Location here = tls ? Location.forGrpcTls(serve.host, server.getPort()) : Location.forGrpcInsecure(serve.host, server.getPort());
      List<Location> where = new ArrayList<>();
      where.add(here);
      where.addAll(others);
      producer.setLocations(where);
      return new Running(store, allocator, producer, server, here);
    } catch (Exception | Error e) {
      try (store) {
        if (producer != null) {
          producer.close();
        }
        if (allocator != null) {
          allocator.close();
        }
      }
      throw e;
    }
  }

  /** Whether TLS is asked for, its files checked; a client CA without a certificate is a usage error. */
  private static boolean checkTls(ServeCommand serve) {
    if ((serve.tlsCert == null) != (serve.tlsKey == null)) {
      throw serve.usage(serve.tlsCert == null ? "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key");
    }
    if (serve.tlsClientCa != null && serve.tlsCert == null) {
      throw serve.usage("--tls-client-ca needs --tls-cert and --tls-key (mutual TLS is TLS)");
    }
    String[] names = {"--tls-cert", "--tls-key", "--tls-client-ca"};
    Path[] files = {serve.tlsCert, serve.tlsKey, serve.tlsClientCa};
    for (int i = 0; i < files.length; i++) {
      if (files[i] != null && !Files.isReadable(files[i])) {
        throw serve.usage(names[i] + " " + files[i] + ": cannot read it");
      }
    }
    return serve.tlsCert != null;
  }

  /** The authenticator of the credential files given, or null when none is. */
  private static FileAuthenticator authenticator(ServeCommand serve) {
    if (serve.authTokenFile == null && serve.authBasicFile == null) {
      return null;
    }
    try {
      CredentialFile<Set<String>> tokens = serve.authTokenFile == null ? null
          : new CredentialFile<>("--auth-token-file", serve.authTokenFile, FileAuthenticator::parseTokens, serve.err());
      CredentialFile<Map<String, PasswordHash>> users = serve.authBasicFile == null ? null
          : new CredentialFile<>("--auth-basic-file", serve.authBasicFile, FileAuthenticator::parseUsers, serve.err());
      return FileAuthenticator.of(tokens, users);
    } catch (IllegalArgumentException e) {
      throw serve.usage(e.getMessage());
    }
  }

  /** Whether every address {@code --host} names is a loopback address. */
  private static boolean loopback(ServeCommand serve) {
    try {
      for (InetAddress address : InetAddress.getAllByName(serve.host)) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      throw serve.usage("--host " + serve.host + ": unknown host");
    }
  }

  /**
   * gRPC's keep-alive finds connections whose peer died (their calls are cancelled and release
   * everything); a connection without calls for the idle time-out is closed.
   */
  private static Consumer<NettyServerBuilder> keepAlive(long idleSeconds) {
    return builder -> {
      builder.keepAliveTime(60, TimeUnit.SECONDS).keepAliveTimeout(20, TimeUnit.SECONDS);
      if (idleSeconds > 0) {
        builder.maxConnectionIdle(idleSeconds, TimeUnit.SECONDS);
      }
    };
  }

  private static Throwable rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
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
