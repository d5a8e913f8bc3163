package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.HandStreams;
import dev.zarrow.testing.NodePeer;
import dev.zarrow.testing.StreamSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-implementation, through the command line as users run it: data that apache-arrow (npm) wrote
 * or reads goes through {@code zarrow import} and {@code zarrow export}, and apache-arrow reads the
 * export back equal to the original (schema, dictionary ids, every decoded value).
 *
 * <ul>
 *   <li>{@code arrow-write-case.mjs}: sparse and dense unions as apache-arrow's builders make them
 *       (sparse children shorter than the union), and dictionaries nested two and three deep with
 *       deltas and replacements over four batches; each as an IPC stream and an IPC file. Arrow Java's
 *       reader reads the exports too, equal to what it reads from the original stream of dictionaries.
 *   <li>Every Arrow gold file with dictionaries: apache-arrow reads the export as it reads the original
 *       (apache-arrow binds a nested dictionary when it arrives, so inner dictionaries must come first).
 * </ul>
 */
class ArrowPeerRoundTripTest {
  @TempDir Path tmp;

  private static final List<List<String>> IMPORTS = List.of(
      List.of("--chunk-rows", "3"),
      List.of("--chunk-rows", "2", "--shard-rows", "6", "--arrow-only"));

  @TestFactory
  List<DynamicTest> apacheArrowWritesZarrowRoundTrips() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String name : List.of("unions", "dictionaries")) {
      for (String format : List.of("stream", "file")) {
        tests.add(DynamicTest.dynamicTest(name + " " + format, () -> ArrowJsonFiles.withAllocator(allocator -> {
          NodePeer.assumeAvailable();
          Path written = tmp.resolve(name + "." + format);
          JsonNode wrote = NodePeer.arrowWriteCase(name, format, written);
          // Arrow Java reads the dictionaries stream (not the unions: they are what zarrow's own loader is
          // for; nor the file: Arrow Java's file reader does not apply delta dictionaries).
          StreamSnapshot javaOriginal = name.equals("unions") || format.equals("file") ? null
              : GoldStreams.snapshotOf(Files.newInputStream(written), allocator);
          for (List<String> options : IMPORTS) {
            for (String batchRows : List.of("0", "4")) {
              String what = name + " " + format + " " + options + " --batch-rows " + batchRows;
              Path back = roundTrip(written, options, batchRows);
              JsonNode read = NodePeer.arrowRead(back);
              assertEquals(wrote.get("schema"), read.get("schema"), what + ": schema");
              assertEquals(wrote.get("num_rows"), read.get("num_rows"), what + ": rows");
              assertEquals(wrote.get("columns"), read.get("columns"), what + ": values");
              StreamSnapshot java = GoldStreams.snapshotOf(Files.newInputStream(back), allocator);
              assertEquals(wrote.get("num_rows").asLong(), java.rows(), what + ": rows as Arrow Java reads them");
              if (javaOriginal != null) {
                assertEquals(javaOriginal, java, what + ": as Arrow Java reads it");
              }
            }
          }
        })));
      }
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> goldFilesWithDictionariesReadByApacheArrow() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.goldenStreams()) {
      String name = GoldStreams.caseName(stream);
      if (!GoldStreams.hasDictionaries(stream)) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(name, () -> {
        NodePeer.assumeAvailable();
        JsonNode original = NodePeer.arrowRead(stream);
        for (List<String> options : IMPORTS) {
          for (String batchRows : List.of("0", "5")) {
            String what = name + " " + options + " --batch-rows " + batchRows;
            JsonNode read = NodePeer.arrowRead(roundTrip(stream, options, batchRows));
            assertEquals(original.get("schema"), read.get("schema"), what + ": schema");
            assertEquals(original.get("columns"), read.get("columns"), what + ": values");
          }
        }
      }));
    }
    return tests;
  }

  /**
   * Deltas and replacements of dictionaries at every depth, and an id shared by a top-level column and
   * a level three deep ({@link HandStreams#nestedDictionaries}): Arrow Java and apache-arrow each read
   * the export as they read the original.
   */
  @TestFactory
  List<DynamicTest> nestedDictionaryDeltasAndReplacements() {
    return List.of(DynamicTest.dynamicTest("hand-written", () -> ArrowJsonFiles.withAllocator(allocator -> {
      Path stream = Files.write(tmp.resolve("nested.arrows"), HandStreams.nestedDictionaries(allocator));
      StreamSnapshot javaOriginal = GoldStreams.snapshotOf(Files.newInputStream(stream), allocator);
      assertEquals(15, javaOriginal.rows());
      NodePeer.assumeAvailable();
      JsonNode jsOriginal = NodePeer.arrowRead(stream);
      for (List<String> options : IMPORTS) {
        for (String batchRows : List.of("0", "2", "6")) {
          String what = options + " --batch-rows " + batchRows;
          Path back = roundTrip(stream, options, batchRows);
          assertEquals(javaOriginal, GoldStreams.snapshotOf(Files.newInputStream(back), allocator), what + ": Arrow Java");
          JsonNode js = NodePeer.arrowRead(back);
          assertEquals(jsOriginal.get("schema"), js.get("schema"), what + ": apache-arrow, schema");
          assertEquals(jsOriginal.get("columns"), js.get("columns"), what + ": apache-arrow, values");
        }
      }
    })));
  }

  /** {@code input} imported with {@code options}, then exported in batches of {@code batchRows}. */
  private Path roundTrip(Path input, List<String> options, String batchRows) throws Exception {
    Path store = Files.createTempDirectory(tmp, "store");
    List<Object> args = new ArrayList<>(List.of("import", input, store, "t"));
    args.addAll(options);
    Cli.Result imported = Cli.run(args.toArray());
    assertEquals(0, imported.exit(), imported.toString());
    Path out = Files.createTempFile(tmp, "export", ".arrows");
    Cli.Result exported = Cli.run("export", store, "t", out, "--batch-rows", batchRows);
    assertEquals(0, exported.exit(), exported.toString());
    return out;
  }
}
