package dev.zarrow.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The real programs the tests talk to, each with the Debian packages that install it. A test that
 * needs one says so with {@link NeedsPeer} (whole classes, whose {@code @BeforeAll} starts it) or
 * calls {@link #require()} where it starts it: without the peer the test is reported as skipped with
 * the reason and the packages, and on CI ({@code CI=true}) it fails instead.
 *
 * <p>{@code ZARROW_TEST_HIDE_PEERS} (or the JUnit configuration parameter / system property {@code
 * zarrow.test.hidePeers}), a comma-separated list of {@link #id}s, makes peers count as missing: to see
 * what a machine without them runs.
 */
public enum Peer {
  NGINX("nginx", "nginx", () -> missing(Nginx.BINARY)),
  ZIP("zip", "zip unzip", () -> missing(Path.of("/usr/bin/zip")).or(() -> missing(Path.of("/usr/bin/unzip")))),
  PYTHON_ZARR("python", "python3 python3-numpy python3-numcodecs python3-zarr", PythonPeer::unavailableReason),
  XARRAY("xarray", "python3 python3-xarray python3-zarr", PythonPeer::xarrayUnavailableReason),
  NODE("node", "nodejs npm", NodePeer::unavailableReason);

  /** The environment variable and the configuration parameter that hide peers. */
  public static final String HIDE_ENV = "ZARROW_TEST_HIDE_PEERS";
  public static final String HIDE_PARAMETER = "zarrow.test.hidePeers";

  private final String id;
  private final String packages;
  private final Supplier<Optional<String>> probe;
  private Optional<String> probed;

  Peer(String id, String packages, Supplier<Optional<String>> probe) {
    this.id = id;
    this.packages = packages;
    this.probe = probe;
  }

  /** The name used in {@link #HIDE_ENV}. */
  public String id() {
    return id;
  }

  /** The command that installs the peer on Debian. */
  public String install() {
    return "apt-get install " + packages;
  }

  /** Why the peer cannot be used here (hidden, not installed), or empty when it can; probed once per JVM. */
  public Optional<String> unavailable(Set<String> hidden) {
    if (hidden.contains(id)) {
      return Optional.of("hidden by " + HIDE_ENV);
    }
    synchronized (this) {
      if (probed == null) {
        probed = probe.get();
      }
      return probed;
    }
  }

  /** {@link #unavailable(Set)} with the peers hidden by the environment and the system property. */
  public Optional<String> unavailable() {
    return unavailable(hidden(System.getProperty(HIDE_PARAMETER)));
  }

  /** Passes when the peer is here; else fails on CI, or aborts the test (reported as skipped) saying why and what to install. */
  public void require() {
    Peers.require(id, unavailable(), install());
  }

  /** The peers hidden by {@link #HIDE_ENV} and {@code parameter} (a comma-separated list, may be null). */
  public static Set<String> hidden(String parameter) {
    String env = System.getenv(HIDE_ENV);
    return Arrays.stream(((env == null ? "" : env) + "," + (parameter == null ? "" : parameter)).split(","))
        .map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
  }

  private static Optional<String> missing(Path program) {
    return Files.isExecutable(program) ? Optional.empty() : Optional.of(program + " is missing");
  }
}
