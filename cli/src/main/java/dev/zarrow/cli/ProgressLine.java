package dev.zarrow.cli;

import java.io.PrintWriter;
import java.util.function.Supplier;

/** Progress of long work on stderr: a line at most every two seconds, so a fast run stays quiet. */
final class ProgressLine {
  private static final long INTERVAL_NANOS = 2_000_000_000L;

  private final PrintWriter err;
  private long last = System.nanoTime();

  ProgressLine(PrintWriter err) {
    this.err = err;
  }

  /** Prints {@code line} when the last line is two seconds old (the text is built only then). */
  void update(Supplier<String> line) {
    long now = System.nanoTime();
    if (now - last > INTERVAL_NANOS) {
      err.println(line.get());
      last = now;
    }
  }
}
