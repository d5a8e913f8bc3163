package dev.zarrow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.AssertionFailedError;

/**
 * Debian's Python 3 with {@code python3-numcodecs} (c-blosc) and {@code python3-zarr} (zarr-python 2) as
 * a cross-implementation peer, running the scripts of {@code core/src/test/python} (see its README.md).
 * {@code /usr/bin/python3} is preferred (Debian's packages live there; a {@code python3} earlier on PATH
 * may be another one). When it or the packages are missing, a test fails on CI ({@code CI=true}) and is
 * skipped loudly elsewhere, as {@link NodePeer} does.
 */
public final class PythonPeer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static volatile Optional<String> unavailable;

  private PythonPeer() {}

  /** Skips (locally) or fails (on CI) the calling test unless python3 with numcodecs and zarr runs. */
  public static void assumeAvailable() {
    Optional<String> reason = unavailableReason();
    if (reason.isEmpty()) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionFailedError("the Python peer is required on CI (CI=true) but unavailable: " + reason.get()
          + " (.ci/run installs python3-numcodecs and python3-zarr)");
    }
    System.err.println("SKIPPED cross-implementation test: " + reason.get());
    Assumptions.abort("SKIPPED cross-implementation test: " + reason.get());
  }

  static synchronized Optional<String> unavailableReason() {
    if (unavailable == null) {
      Result r = exec(List.of(python(), "-c", "import numcodecs, zarr, numpy"), Duration.ofMinutes(1));
      unavailable = r.exitCode == 0 ? Optional.empty()
          : Optional.of(python() + " cannot import numcodecs, zarr and numpy (apt-get install python3-numcodecs python3-zarr): "
              + r.stderr.strip());
    }
    return unavailable;
  }

  /** As {@link #assumeAvailable}, and xarray too ({@code python3-xarray}: the gridded dataset tests). */
  public static void assumeXarray() {
    assumeAvailable();
    Result r = exec(List.of(python(), "-c", "import xarray, pandas"), Duration.ofMinutes(1));
    if (r.exitCode == 0) {
      return;
    }
    String reason = python() + " cannot import xarray (apt-get install python3-xarray): " + r.stderr.strip();
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionFailedError("the Python peer is required on CI (CI=true) but unavailable: " + reason);
    }
    System.err.println("SKIPPED cross-implementation test: " + reason);
    Assumptions.abort("SKIPPED cross-implementation test: " + reason);
  }

  private static String python() {
    return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
  }

  /** Runs {@code SCRIPT ARGS...} from {@code core/src/test/python}; returns its stdout as JSON. */
  public static JsonNode run(Duration timeout, String script, String... args) {
    List<String> command = new ArrayList<>(List.of(python(), ProjectPaths.root().resolve("core/src/test/python").resolve(script).toString()));
    command.addAll(List.of(args));
    Result r = exec(command, timeout);
    if (r.exitCode != 0) {
      throw new AssertionError(String.join(" ", command) + " exited with " + r.exitCode + ":\n" + r.stderr);
    }
    try {
      return JSON.readTree(r.stdout);
    } catch (IOException e) {
      throw new AssertionError(String.join(" ", command) + " printed no JSON: " + r.stdout + "\n" + r.stderr, e);
    }
  }

  private record Result(int exitCode, String stdout, String stderr) {}

  private static Result exec(List<String> command, Duration timeout) {
    try {
      Path out = Files.createTempFile("python-peer", ".out");
      Path err = Files.createTempFile("python-peer", ".err");
      try {
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly().waitFor();
          return new Result(-1, "", "timed out after " + timeout);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      return new Result(-1, "", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "", "interrupted");
    }
  }
}
