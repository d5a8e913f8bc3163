package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ipc.IpcReader;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.StreamSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the command line: {@code zarrow import} (TableWriter: native types where a
 * column allows, small chunks; and arrow-only in shards) then {@code zarrow export}, for every gold
 * stream but the 32- and 64-bit decimals, and every JSON fixture imported as JSON. What Arrow Java
 * reads back from the export equals the original: the stored schema's JSON text, the row count and
 * every column's values (dictionaries resolved). Struct children that repeat a name, which Arrow
 * Java's readers lose, are read with zarrow's IpcReader ({@link GoldStreams#REPEATED_NAMES}). Each is
 * also exported as an IPC file ({@code --format file}), which zarrow's reader and Arrow Java's {@code
 * ArrowFileReader} read to the same.
 */
class ImportExportRoundTripTest {
  @TempDir Path tmp;

  private static final List<List<String>> LAYOUTS = List.of(
      List.of("--chunk-rows", "3"),
      List.of("--chunk-rows", "2", "--shard-rows", "6", "--arrow-only", "--codec", "gzip:1"));

  @TestFactory
  List<DynamicTest> goldStreams() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.roundTrippableStreams()) { // the others: see ExportRoundTripTest
      String name = GoldStreams.caseName(stream);
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(a -> check(stream, stream, name, a))));
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> jsonFixtures() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path json : ArrowJsonFiles.fixtureFiles()) {
      String name = json.getFileName().toString();
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(a -> {
        Path reference = tmp.resolve(name + ".arrows");
        Files.write(reference, GoldStreams.jsonToStream(json, a));
        check(json, reference, name, a);
      })));
    }
    return tests;
  }

  /** Imports {@code input}, exports it, and compares the export with {@code reference} (an IPC stream of the same data). */
  private void check(Path input, Path reference, String name, BufferAllocator allocator) throws Exception {
    StreamSnapshot original = GoldStreams.snapshot(reference, name, allocator);
    for (List<String> layout : LAYOUTS) {
      Path store = Files.createTempDirectory(tmp, "store");
      List<String> importArgs = new ArrayList<>(List.of("import", input.toString(), store.toString(), "t"));
      importArgs.addAll(layout);
      run(importArgs);
      Path out = tmp.resolve(name + "-" + store.getFileName() + ".arrows");
      run(List.of("export", store.toString(), "t", out.toString()));
      assertSame(original, GoldStreams.snapshot(out, name, allocator), name + " " + layout);

      // The IPC file format: magic at both ends, read through its footer by zarrow's reader and by Arrow Java's.
      Path file = tmp.resolve(name + "-" + store.getFileName() + ".arrow");
      run(List.of("export", store.toString(), "t", file.toString(), "--format", "file"));
      byte[] bytes = Files.readAllBytes(file);
      assertEquals("ARROW1\0\0", new String(bytes, 0, 8, StandardCharsets.ISO_8859_1), name + ": file magic");
      assertEquals("ARROW1", new String(bytes, bytes.length - 6, 6, StandardCharsets.ISO_8859_1), name + ": file magic at the end");
      // Each reader reads the file as it reads the stream (Arrow Java renames list children and reorders
      // schema metadata; zarrow's reader keeps both).
      try (IpcReader stream = IpcReader.open(out, allocator); IpcReader reader = IpcReader.open(file, allocator)) {
        assertSame(StreamSnapshot.of(stream), StreamSnapshot.of(reader), name + " " + layout + " (IPC file, zarrow's reader)");
      }
      if (!GoldStreams.REPEATED_NAMES.contains(name)) {
        try (ArrowFileReader reader = new ArrowFileReader(Files.newByteChannel(file), allocator)) {
          assertSame(original, StreamSnapshot.of(reader), name + " " + layout + " (IPC file, Arrow Java's ArrowFileReader)");
        }
      }
    }
  }

  private static void assertSame(StreamSnapshot original, StreamSnapshot back, String what) {
    assertEquals(original.schema(), back.schema(), what + ": schema");
    assertEquals(original.rows(), back.rows(), what + ": rows");
    for (int c = 0; c < original.columns().size(); c++) {
      assertEquals(original.columns().get(c), back.columns().get(c), what + ": column " + c);
    }
  }

  private static void run(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Main.run(args.toArray(String[]::new), o, e);
    }
    assertTrue(exit == 0, args + ": exit " + exit + "\n" + err.toString(StandardCharsets.UTF_8));
  }
}
