package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code zarrow serve} on a network: grpc+tls with certificates keytool made for the test, mutual
 * TLS, bearer tokens and basic users from files (accepted, refused, removed), read-only unless
 * {@code --allow-writes}, the call and put limits, the refusal rules at start, and no secret in
 * what the server prints or answers. Servers are started in-process by the command's own code
 * ({@link ServeCommand#start}).
 */
@ExtendWith(AllocatorExtension.class)
class ServeSecurityTest {
  private static final String TOKEN = "tok-3f9a1c77e2b04d5e9a81";
  private static final String OTHER_TOKEN = "tok-5b2e88d1c0a94f3b7e62";
  private static final String PASSWORD = "correct horse battery";
  private static final int ROWS = 10;

  @TempDir static Path dir;
  static Path store;
  static TestCertificates certs;
  static Path tokens;
  static Path users;
  static StringWriter serverErr = new StringWriter();
  static FlightServing.Running secure;

  @BeforeAll
  static void start() throws Exception {
    store = dir.resolve("store");
    try (FileSystemStore fs = FileSystemStore.open(store);
        var allocator = new org.apache.arrow.memory.RootAllocator();
        VectorSchemaRoot rows = ints(allocator, ROWS)) {
      TableWriter.write(Zarr.createGroup(fs, "t"), rows, TableOptions.defaults().withChunkRows(4));
    }
    certs = new TestCertificates(dir.resolve("certs"));
    tokens = privateFile("tokens", "# who may read\n" + TOKEN + "\n" + OTHER_TOKEN + "\n");
    users = privateFile("users", hashLine("alice") + "\n" + hashLine("bob") + "\n");
    secure = serve(serverErr, "--host", "127.0.0.1", "--tls-cert", certs.serverCert, "--tls-key", certs.serverKey,
        "--auth-token-file", tokens, "--auth-basic-file", users, "--allow-writes");
  }

  @AfterAll
  static void stop() throws Exception {
    secure.close();
  }

  @Test
  void aClientThatTrustsTheCaReadsOverTlsWithAToken(BufferAllocator allocator) throws Exception {
    assertEquals("grpc+tls", secure.location.getUri().getScheme());
    try (FlightClient client = trusting(allocator)) {
      assertEquals(ROWS, rows(client, "t", bearer(TOKEN)));
    }
  }

  @Test
  void aClientWithoutTheCaCannotConnect(BufferAllocator allocator) throws Exception {
    try (FlightClient client = FlightClient.builder(allocator, secure.location).build()) {
      FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> rows(client, "t", bearer(TOKEN)));
      assertEquals(FlightStatusCode.UNAVAILABLE, e.status().code(), e.toString());
    }
    // nor over plain gRPC
    try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", secure.location.getUri().getPort())).build()) {
      assertThrows(FlightRuntimeException.class, () -> rows(client, "t", bearer(TOKEN)));
    }
  }

  @Test
  void callsWithoutValidCredentialsAreUnauthenticated(BufferAllocator allocator) throws Exception {
    List<String> messages = new ArrayList<>();
    try (FlightClient client = trusting(allocator)) {
      for (CallOption[] options : List.of(new CallOption[0], new CallOption[] {bearer("tok-not-in-the-file-0000")},
          new CallOption[] {bearer(TOKEN + "x")})) {
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> client.getInfo(FlightDescriptor.path("t"), options));
        assertEquals(FlightStatusCode.UNAUTHENTICATED, e.status().code(), e.toString());
        messages.add(e.toString());
      }
      assertThrows(FlightRuntimeException.class, () -> client.authenticateBasicToken("alice", "guess-4711"));
      assertThrows(FlightRuntimeException.class, () -> client.authenticateBasicToken("mallory", PASSWORD));
      FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> client.authenticateBasicToken("alice", "guess-4712"));
      assertEquals(FlightStatusCode.UNAUTHENTICATED, e.status().code());
      messages.add(e.toString());
    }
    for (String m : messages) {
      assertFalse(m.contains(TOKEN) || m.contains("tok-not-in") || m.contains("guess-47"), m);
    }
  }

  @Test
  void basicUsersGetABearerTokenAndLoseItWhenRemovedFromTheFile(BufferAllocator allocator) throws Exception {
    try (FlightClient client = trusting(allocator)) {
      CredentialCallOption alice = client.authenticateBasicToken("alice", PASSWORD).orElseThrow();
      CredentialCallOption bob = client.authenticateBasicToken("bob", PASSWORD).orElseThrow();
      assertEquals(ROWS, rows(client, "t", alice));
      assertEquals(ROWS, rows(client, "t", bob));
      String before = Files.readString(users);
      try {
        rewrite(users, before.lines().filter(l -> !l.startsWith("bob:")).reduce("", (a, b) -> a + b + "\n"));
        assertEquals(ROWS, rows(client, "t", alice));
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> rows(client, "t", bob));
        assertEquals(FlightStatusCode.UNAUTHENTICATED, e.status().code());
        assertThrows(FlightRuntimeException.class, () -> client.authenticateBasicToken("bob", PASSWORD));
      } finally {
        rewrite(users, before);
      }
    }
  }

  @Test
  void aTokenRemovedFromTheFileIsRefusedAndABrokenFileRefusesAll(BufferAllocator allocator) throws Exception {
    try (FlightClient client = trusting(allocator)) {
      assertEquals(ROWS, rows(client, "t", bearer(OTHER_TOKEN)));
      String before = Files.readString(tokens);
      try {
        rewrite(tokens, TOKEN + "\n");
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> rows(client, "t", bearer(OTHER_TOKEN)));
        assertEquals(FlightStatusCode.UNAUTHENTICATED, e.status().code());
        assertEquals(ROWS, rows(client, "t", bearer(TOKEN)));
        // readable by others: refused, every call, until fixed
        Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(FlightRuntimeException.class, () -> rows(client, "t", bearer(TOKEN)));
      } finally {
        rewrite(tokens, before);
      }
      assertEquals(ROWS, rows(client, "t", bearer(OTHER_TOKEN)));
    }
    String err = serverErr.toString();
    assertTrue(err.contains("chmod 600"), err);
    assertFalse(err.contains(TOKEN) || err.contains(OTHER_TOKEN) || err.contains(PASSWORD), err);
  }

  @Test
  void writesNeedCredentialsWhereAuthenticationIsOn(BufferAllocator allocator) throws Exception {
    try (FlightClient client = trusting(allocator); VectorSchemaRoot rows = ints(allocator, 3)) {
      FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> put(client, "anonymous", rows));
      assertEquals(FlightStatusCode.UNAUTHENTICATED, e.status().code());
      assertFalse(Files.exists(store.resolve("anonymous")));
      put(client, "written", rows, bearer(TOKEN));
      assertEquals(3, rows(client, "written", bearer(TOKEN)));
    }
  }

  @Test
  void mutualTlsNeedsAClientCertificateOfTheCa(BufferAllocator allocator) throws Exception {
    try (FlightServing.Running mtls = serve(new StringWriter(), "--host", "127.0.0.1", "--tls-cert", certs.serverCert,
        "--tls-key", certs.serverKey, "--tls-client-ca", certs.ca)) {
      try (InputStream ca = Files.newInputStream(certs.ca); InputStream cert = Files.newInputStream(certs.clientCert);
          InputStream key = Files.newInputStream(certs.clientKey);
          FlightClient client = FlightClient.builder(allocator, mtls.location).trustedCertificates(ca).clientCertificate(cert, key).build()) {
        assertEquals(ROWS, rows(client, "t"));
      }
      try (InputStream ca = Files.newInputStream(certs.ca);
          FlightClient client = FlightClient.builder(allocator, mtls.location).trustedCertificates(ca).build()) {
        assertThrows(FlightRuntimeException.class, () -> rows(client, "t"), "no client certificate");
      }
      try (InputStream ca = Files.newInputStream(certs.ca); InputStream cert = Files.newInputStream(certs.otherClientCert);
          InputStream key = Files.newInputStream(certs.otherClientKey);
          FlightClient client = FlightClient.builder(allocator, mtls.location).trustedCertificates(ca).clientCertificate(cert, key).build()) {
        assertThrows(FlightRuntimeException.class, () -> rows(client, "t"), "a certificate of another CA");
      }
    }
  }

  @Test
  void withoutAllowWritesAPutIsPermissionDeniedAndNothingIsWritten(BufferAllocator allocator) throws Exception {
    List<Path> before = files(store);
    try (FlightServing.Running plain = serve(new StringWriter(), "--host", "127.0.0.1");
        FlightClient client = FlightClient.builder(allocator, plain.location).build();
        VectorSchemaRoot rows = ints(allocator, 3)) {
      FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> put(client, "new", rows));
      assertEquals(FlightStatusCode.UNAUTHORIZED, e.status().code(), "PERMISSION_DENIED in Arrow Java's names");
      assertEquals(ROWS, rows(client, "t"));
    }
    assertEquals(before, files(store));
  }

  @Test
  void callsPastMaxCallsAndPutsPastMaxPutBytesAreRefused(BufferAllocator allocator) throws Exception {
    try (FlightServing.Running limited = serve(new StringWriter(), "--host", "127.0.0.1", "--allow-writes", "--max-calls", "1",
        "--max-put-bytes", "1k");
        FlightClient client = FlightClient.builder(allocator, limited.location).build();
        VectorSchemaRoot rows = ints(allocator, 100)) {
      // a put in flight is the one call allowed
      SyncPutListener answer = new SyncPutListener();
      FlightClient.ClientStreamListener open = client.startPut(FlightDescriptor.path("open"), rows, answer);
      open.putNext();
      FlightRuntimeException e = refusedForMaxCalls(() -> client.getInfo(FlightDescriptor.path("t")));
      assertEquals(FlightStatusCode.RESOURCE_EXHAUSTED, e.status().code(), e.toString());
      assertTrue(e.getMessage().contains("--max-calls"), e.getMessage());
      open.completed();
      open.getResult();
      answer.close();
      assertEquals(100, whenFree(() -> rows(client, "open")));
      // 100 ints are 400 bytes and more: three batches pass 1k
      e = assertThrows(FlightRuntimeException.class, () -> whenFree(() -> {
        try (SyncPutListener big = new SyncPutListener()) {
          FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path("big"), rows, big);
          for (int i = 0; i < 3; i++) {
            put.putNext();
          }
          put.completed();
          put.getResult();
        }
        return null;
      }));
      assertEquals(FlightStatusCode.RESOURCE_EXHAUSTED, e.status().code(), e.toString());
      assertFalse(e.getMessage().contains("--max-calls"), e.getMessage());
      assertFalse(Files.exists(store.resolve("big")) && files(store.resolve("big")).stream().anyMatch(Files::isRegularFile));
    }
  }

  @Test
  void startRefusesWhatIsNotSafe() throws Exception {
    Cli.Result open = Cli.run("serve", store, "--host", "0.0.0.0");
    assertEquals(Main.USAGE_ERROR, open.exit(), open.toString());
    assertTrue(open.err().contains("--tls-cert") && open.err().contains("--auth-token-file") && open.err().contains("--insecure"), open.err());

    Cli.Result tlsOnly = Cli.run("serve", store, "--host", "0.0.0.0", "--tls-cert", certs.serverCert, "--tls-key", certs.serverKey);
    assertEquals(Main.USAGE_ERROR, tlsOnly.exit(), tlsOnly.toString());
    assertTrue(tlsOnly.err().contains("authentication") && !tlsOnly.err().contains("--tls-cert FILE"), tlsOnly.err());

    Path readable = dir.resolve("readable-tokens");
    Files.writeString(readable, TOKEN + "\n");
    Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
    Cli.Result shared = Cli.run("serve", store, "--auth-token-file", readable);
    assertEquals(Main.USAGE_ERROR, shared.exit(), shared.toString());
    assertTrue(shared.err().contains("chmod 600"), shared.err());

    Path shortToken = privateFile("short-tokens", "secret\n");
    Cli.Result weak = Cli.run("serve", store, "--auth-token-file", shortToken);
    assertEquals(Main.USAGE_ERROR, weak.exit(), weak.toString());
    assertTrue(weak.err().contains("line 1") && !weak.err().contains("secret"), weak.err());

    Cli.Result keyOnly = Cli.run("serve", store, "--tls-key", certs.serverKey);
    assertEquals(Main.USAGE_ERROR, keyOnly.exit(), keyOnly.toString());
    Cli.Result badKey = Cli.run("serve", store, "--tls-cert", certs.serverCert, "--tls-key", certs.ca);
    assertEquals(Main.USAGE_ERROR, badKey.exit(), badKey.toString());

    for (Cli.Result r : List.of(open, tlsOnly, shared, weak, keyOnly, badKey)) {
      assertEquals("", r.out(), "nothing served");
      assertFalse(r.err().contains(TOKEN), r.err());
    }
  }

  @Test
  void hashPasswordMakesALineTheServerTakes() throws Exception {
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream((PASSWORD + "\n").getBytes(StandardCharsets.UTF_8)));
      Cli.Result r = Cli.run("hash-password", "carol", "--iterations", "20000");
      assertEquals(0, r.exit(), r.toString());
      assertTrue(r.out().startsWith("carol:$pbkdf2-sha256$i=20000$"), r.out());
      assertFalse(r.out().contains(PASSWORD));
      var parsed = FileAuthenticator.parseUsers(List.of(new CredentialFile.Line(1, r.out().strip())));
      assertTrue(parsed.get("carol").matches(PASSWORD));
      assertFalse(parsed.get("carol").matches(PASSWORD + "!"));
    } finally {
      System.setIn(stdin);
    }
  }

  // ---- helpers ----

  private static FlightServing.Running serve(StringWriter err, Object... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("serve", store.toString(), "--port", "0"));
    for (Object o : options) {
      args.add(o.toString());
    }
    // Main registers only the subcommand a command line names (start-up): this one is serve.
    CommandLine cli = new CommandLine(new Main()).addSubcommand(ServeCommand.class);
    cli.setOut(new PrintWriter(new StringWriter(), true));
    cli.setErr(new PrintWriter(err, true));
    CommandLine.ParseResult parsed = cli.parseArgs(args.toArray(String[]::new));
    ServeCommand serve = parsed.subcommand().commandSpec().commandLine().getCommand();
    return serve.start();
  }

  private static FlightClient trusting(BufferAllocator allocator) throws Exception {
    try (InputStream ca = Files.newInputStream(certs.ca)) {
      return FlightClient.builder(allocator, secure.location).trustedCertificates(ca).build();
    }
  }

  private static CredentialCallOption bearer(String token) {
    return new CredentialCallOption(new BearerCredentialWriter(token));
  }

  /** The rows of every endpoint of {@code path}. */
  /**
   * The refusal of {@code call} for {@code --max-calls}, tried again until it comes: the put started
   * just before may not have reached the server yet, and until it does the one slot is free.
   */
  private static FlightRuntimeException refusedForMaxCalls(org.junit.jupiter.api.function.Executable call) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        call.execute();
      } catch (FlightRuntimeException e) {
        if (e.getMessage().contains("--max-calls") || attempt == 100) {
          return e;
        }
      } catch (Throwable t) {
        throw new AssertionError(t);
      }
      if (attempt == 100) {
        throw new AssertionError("never refused for --max-calls while a put was open");
      }
      Thread.sleep(20);
    }
  }

  /**
   * {@code call}, again while the server refuses it for {@code --max-calls}: a client sees its previous
   * call end before the server's middleware counts it ended, so the next call may find the one slot
   * still taken for a moment (the refusal says to try again later).
   */
  private static <T> T whenFree(java.util.concurrent.Callable<T> call) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.call();
      } catch (FlightRuntimeException e) {
        if (attempt == 100 || e.status().code() != FlightStatusCode.RESOURCE_EXHAUSTED || !e.getMessage().contains("--max-calls")) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  private static long rows(FlightClient client, String path, CallOption... options) throws Exception {
    FlightInfo info = client.getInfo(FlightDescriptor.path(path), options);
    long rows = 0;
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      try (FlightStream stream = client.getStream(endpoint.getTicket(), options)) {
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
      }
    }
    return rows;
  }

  private static void put(FlightClient client, String path, VectorSchemaRoot rows, CallOption... options) {
    try (SyncPutListener answer = new SyncPutListener()) {
      FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path(path), rows, answer, options);
      put.putNext();
      put.completed();
      put.getResult();
    }
  }

  private static VectorSchemaRoot ints(BufferAllocator allocator, int n) {
    IntVector v = new IntVector("v", allocator);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, i);
    }
    v.setValueCount(n);
    VectorSchemaRoot root = VectorSchemaRoot.of(v);
    root.setRowCount(n);
    return root;
  }

  private static String hashLine(String user) {
    return user + ":" + PasswordHash.make(PASSWORD.toCharArray(), PasswordHash.MIN_ITERATIONS);
  }

  private static Path privateFile(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
    return file;
  }

  /** Replaces the file's content, owner-only, and makes sure its modification time moves. */
  private static void rewrite(Path file, String text) throws Exception {
    var before = Files.getLastModifiedTime(file);
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, Set.copyOf(PosixFilePermissions.fromString("rw-------")));
    if (Files.getLastModifiedTime(file).equals(before)) {
      Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(before.toMillis() + 1000));
    }
  }

  private static List<Path> files(Path root) throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.sorted().toList();
    }
  }
}
