package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.arrow.ArrowJsonFiles;
import dev.zarrow.table.ExportRoundTripTest;
import dev.zarrow.table.StreamSnapshot;
import dev.zarrow.testing.NodePeer;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line end to end: {@code zarrow import} then {@code zarrow export} gives back what went
 * in, read by Arrow Java (every readable gold stream, every JSON fixture) and by apache-arrow (npm).
 */
class ImportExportCliTest {
  @TempDir Path tmp;

  private Path importThenExport(Path file, String name, String... importOptions) {
    Path store = tmp.resolve("store-" + name);
    Path out = tmp.resolve(name + ".arrows");
    List<Object> args = new ArrayList<>(List.of("import", file, store, "t"));
    args.addAll(List.of(importOptions));
    Cli.Result imported = Cli.run(args.toArray());
    assertEquals(0, imported.exit(), imported.toString());
    Cli.Result exported = Cli.run("export", store, "t", out);
    assertEquals(0, exported.exit(), exported.toString());
    assertTrue(exported.err().contains("export: wrote table 't'"), exported.err());
    return out;
  }

  @TestFactory
  List<DynamicTest> goldStreams() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : ExportRoundTripTest.goldenStreams()) {
      String name = ExportRoundTripTest.caseName(stream);
      if (ExportRoundTripTest.NO_JAVA_ROUND_TRIP.contains(name)) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(allocator -> {
        if (ExportRoundTripTest.UNREADABLE.contains(name)) {
          Cli.Result r = Cli.run("import", stream, tmp.resolve("refused-" + name), "t");
          assertEquals(3, r.exit(), r.toString());
          return;
        }
        StreamSnapshot original = ExportRoundTripTest.snapshotOf(Files.newInputStream(stream), allocator);
        Path out = importThenExport(stream, name, "--chunk-rows", "7");
        assertEquals(original, ExportRoundTripTest.snapshotOf(Files.newInputStream(out), allocator), name);
      })));
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> jsonFixtures() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path json : ArrowJsonFiles.fixtureFiles()) {
      String name = json.getFileName().toString().replace(".json", "");
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(allocator -> {
        StreamSnapshot original = ExportRoundTripTest.snapshotOf(
            new ByteArrayInputStream(ExportRoundTripTest.jsonToStream(json, allocator)), allocator);
        Path out = importThenExport(json.toAbsolutePath(), "fixture-" + name, "--chunk-rows", "2", "--arrow-only");
        assertEquals(original, ExportRoundTripTest.snapshotOf(Files.newInputStream(out), allocator), name);
      })));
    }
    return tests;
  }

  @Test
  void apacheArrowStreamThroughTheCommandLine() {
    NodePeer.assumeAvailable();
    Path written = tmp.resolve("js.arrows");
    JsonNode wrote = NodePeer.arrowWrite(written);
    Path out = importThenExport(written, "js", "--chunk-rows", "5", "--shard-rows", "10");
    JsonNode back = NodePeer.arrowRead(out);
    assertEquals(wrote.get("schema"), back.get("schema"));
    assertEquals(wrote.get("num_rows"), back.get("num_rows"));
    assertEquals(wrote.get("columns"), back.get("columns"));
  }
}
