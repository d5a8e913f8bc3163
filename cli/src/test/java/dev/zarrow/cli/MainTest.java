package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CorruptChunkException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The top level: version, help, usage errors and the one mapping of failures to exit codes. */
class MainTest {

  @Test
  void version() {
    Cli.Result r = Cli.run("--version");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().matches("zarrow \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(Arrow 18\\.3\\.0, Java 17[^)]*\\)\n"), r.out());
  }

  @Test
  void versionWithoutAModelAnswersAsPicocliDoes() {
    // --version alone skips picocli; with another option (or as -V) picocli answers: same bytes, same exit.
    Cli.Result picocli = Cli.run("--verbose", "--version");
    assertEquals(0, picocli.exit(), picocli.toString());
    for (String flag : List.of("--version", "-V")) {
      Cli.Result r = Cli.run(flag);
      assertEquals(picocli, r, flag);
    }
  }

  @Test
  void helpListsEveryCommandAndTheExitCodes() {
    Cli.Result r = Cli.run("--help");
    assertEquals(0, r.exit(), r.toString());
    for (String word : List.of("info", "ls", "cat", "copy", "check", "demo", "Exit codes:", "3   data error")) {
      assertTrue(r.out().contains(word), word + " in\n" + r.out());
    }
    assertEquals(0, Cli.run("help", "cat").exit());
    assertTrue(Cli.run("cat", "--help").out().contains("--region"));
  }

  @Test
  void usageErrorsExitWithTwo() {
    for (String[] args : List.of(new String[] {}, new String[] {"frobnicate"}, new String[] {"cat"},
        new String[] {"cat", "a", "b", "--nope"}, new String[] {"info", "x", "bad//path"}, new String[] {"ls", "x", "../up"})) {
      Cli.Result r = Cli.run((Object[]) args);
      assertEquals(2, r.exit(), String.join(" ", args) + ": " + r);
      assertEquals("", r.out(), String.join(" ", args));
      assertTrue(r.err().startsWith("zarrow: "), r.toString());
    }
  }

  @Test
  void zarrExceptionsAreDataErrorsOnOneLine() {
    StringWriter text = new StringWriter();
    int code = Main.failure(new CorruptChunkException("array 'a', chunk [0]:\n  bad\n  bytes"), false, new PrintWriter(text));
    assertEquals(3, code);
    assertEquals("zarrow: array 'a', chunk [0]: bad bytes\n", text.toString());
  }

  @Test
  void callerMistakesTheUserTypedAreUsageErrors(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    dev.zarrow.Zarr.createArray(dev.zarrow.store.FileSystemStore.open(dir), "a",
        dev.zarrow.ArraySpec.of(dev.zarrow.dtype.FixedType.INT8, 4).chunks(2));
    // The library refuses these with IllegalArgumentException; the commands say which input was wrong.
    for (Object[] args : List.of(new Object[] {"cat", dir, "a", "--region", "2:9"}, new Object[] {"cat", dir, "a\\b"},
        new Object[] {"info", dir, "a/../../x"}, new Object[] {"copy", dir, "a", dir.resolve("out"), "b", "--chunks", "0"})) {
      Cli.Result r = Cli.run(args);
      assertEquals(2, r.exit(), java.util.Arrays.toString(args) + ": " + r);
      assertTrue(r.err().startsWith("zarrow: ") && !r.err().contains("internal error"), r.toString());
    }
  }

  @Test
  void callerMistakesThatReachTheMappingAreTheCliBugs() {
    // Whatever the user typed was checked where it was passed on: an IllegalArgumentException that gets
    // this far is the CLI misusing the library, and exit 2 would wrongly blame the user.
    StringWriter text = new StringWriter();
    assertEquals(1, Main.failure(new IllegalArgumentException("array 'a': region [0:9] is outside the shape [4]"), false,
        new PrintWriter(text)));
    assertTrue(text.toString().startsWith("zarrow: internal error: "), text.toString());
  }

  @Test
  void anythingElseIsAnInternalError() {
    StringWriter quiet = new StringWriter();
    assertEquals(1, Main.failure(new IllegalStateException("boom"), false, new PrintWriter(quiet)));
    assertEquals("zarrow: internal error: java.lang.IllegalStateException: boom (run with --verbose for the stack trace)\n", quiet.toString());

    StringWriter verbose = new StringWriter();
    assertEquals(1, Main.failure(new OutOfMemoryError("heap"), true, new PrintWriter(verbose)));
    assertTrue(verbose.toString().startsWith("zarrow: internal error: java.lang.OutOfMemoryError: heap\njava.lang.OutOfMemoryError: heap\n\tat "),
        verbose.toString());
  }
}
