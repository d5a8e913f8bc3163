package dev.zarrow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real cross-implementation peers (zarrita and apache-arrow from npm), run through {@code node}.
 *
 * <p>The scripts live in {@code src/test/node} (see its README.md for what each prints). A test calls
 * {@link #assumeAvailable()} first, then {@link #zarritaWrite}, {@link #zarritaRead}, {@link #arrowWrite},
 * {@link #arrowRead} or {@link #run}. Each returns the script's stdout parsed as JSON; a script that exits
 * non-zero (or outlives its timeout) throws a {@link PeerException} carrying its stderr.
 *
 * <p>Installation: the first use in a JVM makes sure {@code src/test/node/node_modules} holds exactly the
 * pinned packages, running {@code npm ci} when it does not. That happens under a file lock
 * ({@code src/test/node/.install.lock}), so parallel surefire forks install once and never run a script
 * against a half-installed tree.
 *
 * <p>When node, npm or the packages cannot be had: on CI (environment variable {@code CI=true}) the test
 * fails, saying what is missing; elsewhere it is skipped loudly ({@code SKIPPED cross-implementation test:}
 * on stderr, and an aborted test in the report).
 */
public final class NodePeer {

  /** Default limit for one script run. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** Limit for {@code npm ci}. */
  static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);

  /** Overrides where the scripts are (default: {@code src/test/node} under the project). */
  public static final String NODE_DIR_PROPERTY = "zarrow.node.dir";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_STDERR_IN_MESSAGE = 8_000;

  /** Outcome of the one availability check per JVM: empty when ready, else why not. */
  private static volatile Optional<String> unavailable;

  private NodePeer() {}

  /** A peer script failed: non-zero exit, timeout or output that is not JSON. */
  public static final class PeerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PeerException(String message) {
      super(message);
    }

    PeerException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  // ------------------------------------------------------------------------------- public API

  /**
   * Skips (locally) or fails (on CI) the calling test unless node and the pinned npm packages are ready;
   * installs the packages on first use.
   */
  public static void assumeAvailable() {
    assumeAvailable(Peer.NODE.unavailable(), System.getenv(), System.err);
  }

  /** Why the peers cannot run here, or empty when they can (checked and installed once per JVM). */
  public static synchronized Optional<String> unavailableReason() {
    if (unavailable == null) {
      unavailable = Optional.ofNullable(prepare());
    }
    return unavailable;
  }

  /** The directory with the scripts, {@code package.json} and {@code node_modules}. */
  public static Path nodeDir() {
    String override = System.getProperty(NODE_DIR_PROPERTY);
    if (override != null && !override.isBlank()) {
      return Path.of(override).toAbsolutePath();
    }
    return ProjectPaths.root().resolve("core/src/test/node");
  }

  /**
   * {@code zarrita-write.mjs DIR}: writes the zarrita fixture hierarchy into {@code dir} (created; must
   * be empty) and returns its manifest ({@code groups}, {@code arrays} with expected values).
   */
  public static JsonNode zarritaWrite(Path dir) {
    return run("zarrita-write.mjs", dir.toAbsolutePath().toString());
  }

  /**
   * {@code zarrita-read.mjs DIR PATH...}: reads arrays with zarrita; returns
   * {@code {PATH: {shape, data_type, fill_value, values}}}.
   */
  public static JsonNode zarritaRead(Path dir, String... arrayPaths) {
    List<String> args = new ArrayList<>();
    args.add(dir.toAbsolutePath().toString());
    args.addAll(List.of(arrayPaths));
    return run("zarrita-read.mjs", args.toArray(String[]::new));
  }

  /**
   * Like {@link #zarritaRead} but a path zarrita cannot read yields {@code {PATH: {"error": message}}}
   * instead of an exception.
   */
  public static JsonNode zarritaReadKeepGoing(Path dir, String... arrayPaths) {
    List<String> args = new ArrayList<>();
    args.add("--keep-going");
    args.add(dir.toAbsolutePath().toString());
    args.addAll(List.of(arrayPaths));
    return run("zarrita-read.mjs", args.toArray(String[]::new));
  }

  /** {@code arrow-write.mjs OUT}: writes an IPC stream with apache-arrow; returns its JSON form. */
  public static JsonNode arrowWrite(Path out) {
    return run("arrow-write.mjs", out.toAbsolutePath().toString());
  }

  /**
   * {@code arrow-write-case.mjs CASE FORMAT OUT}: writes one focused table ({@code unions}, {@code
   * dictionaries}) with apache-arrow as an IPC {@code stream} or {@code file}; returns its JSON form.
   */
  public static JsonNode arrowWriteCase(String name, String format, Path out) {
    return run("arrow-write-case.mjs", name, format, out.toAbsolutePath().toString());
  }

  /** {@code arrow-read.mjs FILE}: reads an IPC stream or file with apache-arrow; returns its JSON form. */
  public static JsonNode arrowRead(Path file) {
    return run("arrow-read.mjs", file.toAbsolutePath().toString());
  }

  /** Runs {@code node SCRIPT ARGS...} in {@link #nodeDir()} with {@link #DEFAULT_TIMEOUT}. */
  public static JsonNode run(String script, String... args) {
    return run(DEFAULT_TIMEOUT, script, args);
  }

  /** Runs {@code node SCRIPT ARGS...} in {@link #nodeDir()}; returns stdout parsed as JSON. */
  public static JsonNode run(Duration timeout, String script, String... args) {
    Optional<String> reason = unavailableReason();
    if (reason.isPresent()) {
      throw new PeerException("node peers unavailable: " + reason.get());
    }
    Path node = findOnPath("node").orElseThrow();
    List<String> command = new ArrayList<>();
    command.add(node.toString());
    command.add(nodeDir().resolve(script).toString());
    command.addAll(List.of(args));
    Result result = exec(command, nodeDir(), timeout);
    String what = String.join(" ", command);
    if (result.timedOut) {
      throw new PeerException(what + " did not finish within " + timeout + "; stderr:\n" + tail(result.stderr));
    }
    if (result.exitCode != 0) {
      throw new PeerException(what + " exited with " + result.exitCode + "; stderr:\n" + tail(result.stderr));
    }
    try {
      return JSON.readTree(result.stdout);
    } catch (IOException e) {
      throw new PeerException(what + " printed no JSON: " + tail(result.stdout) + "\nstderr:\n" + tail(result.stderr), e);
    }
  }

  /** The exact version of an npm package that {@code package.json} pins, e.g. {@code "zarrita"}. */
  public static String pinnedVersion(String npmPackage) {
    try {
      JsonNode v = JSON.readTree(nodeDir().resolve("package.json").toFile()).path("dependencies").path(npmPackage);
      if (!v.isTextual()) {
        throw new IllegalArgumentException(npmPackage + " is not a dependency in package.json");
      }
      return v.asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------------------- skip or fail

  /** The decision of {@link #assumeAvailable()}, apart for testing. */
  static void assumeAvailable(Optional<String> reason, Map<String, String> env, PrintStream err) {
    Peers.require(Peer.NODE.id(), reason, Peer.NODE.install() + "; the first run installs the pinned npm packages", env, err);
  }

  // ------------------------------------------------------------------------------- installation

  /** Checks node and the packages, running {@code npm ci} when needed; returns why not, or null. */
  private static String prepare() {
    Path dir = nodeDir();
    if (!Files.isRegularFile(dir.resolve("package.json"))) {
      return "no package.json in " + dir + " (set -D" + NODE_DIR_PROPERTY + "=...)";
    }
    Optional<Path> node = findOnPath("node");
    if (node.isEmpty()) {
      return "`node` is not on PATH (install Node.js 18+ and npm, e.g. `apt-get install -y nodejs npm`)";
    }
    Result version = exec(List.of(node.get().toString(), "--version"), dir, Duration.ofSeconds(30));
    if (version.exitCode != 0) {
      return node.get() + " --version failed: " + tail(version.stderr);
    }
    String v = version.stdout.trim();
    try {
      int major = Integer.parseInt(v.replaceFirst("^v", "").split("\\.")[0]);
      if (major < 18) {
        return "node " + v + " is too old (18+ needed)";
      }
    } catch (NumberFormatException e) {
      return "cannot tell the version of " + node.get() + ": " + v;
    }
    Path lockFile = dir.resolve(".install.lock");
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock ignored = channel.lock()) {
      String stale = staleReason(dir);
      if (stale == null) {
        return null;
      }
      Optional<Path> npm = findOnPath("npm");
      if (npm.isEmpty()) {
        return "node_modules is not installed (" + stale + ") and `npm` is not on PATH";
      }
      System.err.println("NodePeer: " + stale + "; running npm ci in " + dir);
      Result ci =
          exec(
              List.of(npm.get().toString(), "ci", "--no-audit", "--no-fund", "--loglevel=error"),
              dir,
              INSTALL_TIMEOUT);
      if (ci.timedOut) {
        return "npm ci did not finish within " + INSTALL_TIMEOUT + ": " + tail(ci.stderr);
      }
      if (ci.exitCode != 0) {
        return "npm ci failed (exit " + ci.exitCode + "): " + tail(ci.stderr + ci.stdout);
      }
      String still = staleReason(dir);
      return still == null ? null : "after npm ci: " + still;
    } catch (IOException e) {
      return "cannot lock " + lockFile + ": " + e;
    }
  }

  /** Null when node_modules holds exactly the versions package.json pins, else what is off. */
  private static String staleReason(Path dir) {
    try {
      JsonNode deps = JSON.readTree(dir.resolve("package.json").toFile()).path("dependencies");
      for (Map.Entry<String, JsonNode> dep : deps.properties()) {
        Path installed = dir.resolve("node_modules").resolve(dep.getKey()).resolve("package.json");
        if (!Files.isRegularFile(installed)) {
          return dep.getKey() + " is not installed";
        }
        String have = JSON.readTree(installed.toFile()).path("version").asText();
        if (!have.equals(dep.getValue().asText())) {
          return dep.getKey() + " " + have + " is installed but package.json pins " + dep.getValue().asText();
        }
      }
      if (!Files.isRegularFile(dir.resolve("node_modules/.package-lock.json"))) {
        return "node_modules was not installed by npm";
      }
      return null;
    } catch (IOException e) {
      return "cannot read the installed packages: " + e;
    }
  }

  static Optional<Path> findOnPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    boolean windows = File.pathSeparatorChar == ';';
    for (String entry : path.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      for (String name : windows ? List.of(program + ".exe", program + ".cmd") : List.of(program)) {
        Path candidate = Path.of(entry, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  // ------------------------------------------------------------------------------- processes

  private record Result(int exitCode, boolean timedOut, String stdout, String stderr) {}

  /** Runs a command with stdout and stderr going to temporary files (no pipe can fill up and block). */
  private static Result exec(List<String> command, Path dir, Duration timeout) {
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("nodepeer-", ".out");
      err = Files.createTempFile("nodepeer-", ".err");
      ProcessBuilder pb =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File(isWindows() ? "NUL" : "/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      pb.environment().put("NO_UPDATE_NOTIFIER", "1");
      pb.environment().put("npm_config_update_notifier", "false");
      Process p = pb.start();
      boolean done;
      try {
        done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new PeerException("interrupted while running " + command, e);
      }
      if (!done) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      return new Result(
          done ? p.exitValue() : -1,
          !done,
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return new Result(-1, false, "", "cannot run " + command + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PeerException("interrupted while stopping " + command, e);
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  private static boolean isWindows() {
    return File.pathSeparatorChar == ';';
  }

  private static void deleteQuietly(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException ignored) {
        // a temp file left behind is harmless
      }
    }
  }

  private static String tail(String s) {
    String t = s.strip();
    return t.length() <= MAX_STDERR_IN_MESSAGE ? t : "..." + t.substring(t.length() - MAX_STDERR_IN_MESSAGE);
  }
}
