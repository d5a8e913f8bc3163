package dev.zarrow.testing;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.opentest4j.AssertionFailedError;

/** A test that needs a real peer (a web server, a program): fails on CI without it, skips loudly elsewhere (see {@link Peer}). */
public final class Peers {
  private Peers() {}

  /**
   * Passes when {@code unavailable} is empty; else fails on CI or aborts the test (reported as skipped),
   * saying why and how to install the peer ({@code install}).
   */
  public static void require(String peer, Optional<String> unavailable, String install) {
    require(peer, unavailable, install, System.getenv(), System.err);
  }

  static void require(String peer, Optional<String> unavailable, String install, Map<String, String> env, PrintStream err) {
    if (unavailable.isEmpty()) {
      return;
    }
    String why = peer + " is unavailable: " + unavailable.get() + "; install it with `" + install + "`";
    if ("true".equals(env.get("CI"))) {
      throw new AssertionFailedError(why + " (required on CI, CI=true)");
    }
    err.println("SKIPPED test with a real " + why);
    Assumptions.abort("SKIPPED test with a real " + why);
  }
}
