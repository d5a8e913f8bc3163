package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.NodePeer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Arrow's gold file {@code duplicate_fieldnames} (two top-level columns named {@code ints}, a struct of
 * two children named {@code ""}) through the CLI as users run it: a JVM of its own started the way
 * {@code bin/zarrow} starts one, without Arrow Java's {@code arrow.struct.conflict.policy} property
 * (which makes Arrow Java keep struct children of one name instead of replacing them). apache-arrow
 * reads the export as it reads the original.
 */
class DuplicateFieldNamesTest {
  @TempDir Path tmp;

  @Test
  void theGoldFileRoundTripsWithoutAnyProperty() throws Exception {
    assertNull(System.getProperty("arrow.struct.conflict.policy"), "the tests run without Arrow's property too");
    Path gold = ArrowJsonFiles.goldenDir();
    Path stream = gold.resolve("generated_duplicate_fieldnames.stream");
    Path json = ArrowJsonFiles.plain(gold.resolve("generated_duplicate_fieldnames.json.gz"), tmp);
    NodePeer.assumeAvailable();
    JsonNode original = NodePeer.arrowRead(stream);
    for (Path input : List.of(stream, json)) {
      for (String layout : List.of("--chunk-rows=3", "--arrow-only")) {
        Path store = Files.createTempDirectory(tmp, "store");
        Path out = tmp.resolve("out-" + store.getFileName() + ".arrows");
        zarrow("import", input.toString(), store.toString(), "t", layout);
        zarrow("export", store.toString(), "t", out.toString());
        JsonNode back = NodePeer.arrowRead(out);
        assertEquals(original.get("schema"), back.get("schema"), input + " " + layout + ": schema");
        assertEquals(original.get("columns"), back.get("columns"), input + " " + layout + ": values");
      }
    }
  }

  /** Runs the CLI in a JVM of its own, with the flags of {@code bin/zarrow} and nothing else; fails unless it exits 0. */
  private static void zarrow(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), Main.class.getName()));
    command.addAll(List.of(args));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try {
      output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertFalse(!child.waitFor(2, TimeUnit.MINUTES), "zarrow " + String.join(" ", args) + " did not finish");
    } finally {
      child.destroyForcibly();
    }
    assertEquals(0, child.exitValue(), "zarrow " + String.join(" ", args) + ":\n" + output);
  }
}
