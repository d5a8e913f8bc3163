package dev.zarrow.testing;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.AssertionFailedError;

/** A test that needs a real peer (a web server, an S3 server, a program): fails on CI without it, skips loudly elsewhere. */
public final class Peers {
  private Peers() {}

  /** Passes when {@code unavailable} is empty; else fails on CI ({@code CI=true}) or skips saying why. */
  public static void require(String peer, Optional<String> unavailable, String install) {
    require(peer, unavailable, install, System.getenv(), System.err);
  }

  static void require(String peer, Optional<String> unavailable, String install, Map<String, String> env, PrintStream err) {
    if (unavailable.isEmpty()) {
      return;
    }
    String why = peer + " is unavailable: " + unavailable.get();
    if ("true".equals(env.get("CI"))) {
      throw new AssertionFailedError(why + " (required on CI; " + install + ")");
    }
    err.println("SKIPPED test with a real " + peer + ": " + why);
    Assumptions.abort("SKIPPED test with a real " + peer + ": " + why);
  }
}
