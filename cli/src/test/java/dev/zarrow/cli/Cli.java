package dev.zarrow.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs {@link Main} in-process and captures what it prints and its exit code. */
final class Cli {
  private Cli() {}

  record Result(int exit, String out, String err) {
    /** The lines of stderr. */
    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  static Result run(Object... args) {
    return run(true, args);
  }

  /** As {@link #run}, every line through picocli (none run as a {@link DirectLine}). */
  static Result runThroughPicocli(Object... args) {
    return run(false, args);
  }

  private static Result run(boolean directLines, Object... args) {
    List<String> strings = new ArrayList<>();
    for (Object a : args) {
      strings.add(a instanceof Path p ? p.toString() : String.valueOf(a));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Main.run(strings.toArray(String[]::new), o, e, directLines);
    }
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
