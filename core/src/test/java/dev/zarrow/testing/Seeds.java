package dev.zarrow.testing;

import java.util.Random;

/** Seeded randomness whose seed is printed, so a failure can be replayed with -Dzarrow.seed=N. */
public final class Seeds {
  private Seeds() {}

  public static Random random(String what) {
    String fixed = System.getProperty("zarrow.seed");
    long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime();
    System.err.println("[seed] " + what + ": -Dzarrow.seed=" + seed);
    return new Random(seed);
  }
}
