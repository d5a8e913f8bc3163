package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableReader;
import dev.zarrow.testing.AllocatorExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 with real processes: {@code zarrow copy} and {@code zarrow import} run in a child JVM that is
 * killed (SIGINT: shutdown hooks run; SIGKILL: nothing runs) once it has written 1 file, about half of
 * its files, or all but the last few; the library's reader then finds the old node exactly or the new
 * one exactly (never a part), {@code check} reports what the killed write left, and the next write of
 * the path removes it. Also: SIGINT and SIGTERM during {@code export} leave no temporary file, and a
 * 4-byte "IPC stream" fails with exit 3 under a 64 MB heap.
 */
@ExtendWith(AllocatorExtension.class)
class InterruptedWritesTest {
  private static final ZarrOptions OPTIONS = ZarrOptions.defaults();
  private static final int ROWS = 1200;
  private static final int COLS = 1600;
  private static final int TABLE_ROWS = 300_000;

  @TempDir Path dir;

  private enum State { OLD, NEW, NONE }

  private Process zarrow(List<String> jvm, Object... args) throws IOException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    command.addAll(jvm);
    command.addAll(List.of("-cp", classpath, Main.class.getName()));
    for (Object a : args) {
      command.add(a.toString());
    }
    return new ProcessBuilder(command)
        .redirectOutput(dir.resolve("child.out").toFile())
        .redirectError(dir.resolve("child.err").toFile())
        .start();
  }

  /** The files under {@code root} written since {@code since} (millis), hidden ones included. */
  private static long newFiles(Path root, long since) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> {
        try {
          BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
          return a.isRegularFile() && a.lastModifiedTime().toMillis() >= since;
        } catch (IOException vanished) {
          return false;
        }
      }).count();
    } catch (java.io.UncheckedIOException vanished) {
      return 0; // a directory renamed or removed while walked: ask again
    }
  }

  /** Runs {@code args}, sends {@code signal} once {@code files} new files are under {@code root}; true when it was killed. */
  private boolean killAfter(Path root, long files, String signal, Object... args) throws Exception {
    long since = System.currentTimeMillis() - 1000;
    Process child = zarrow(List.of("-Xmx512m"), args);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (child.isAlive() && newFiles(root, since) < files) {
      if (System.nanoTime() > deadline) {
        child.destroyForcibly();
        fail("the child wrote too slowly");
      }
      Thread.sleep(5);
    }
    boolean killed = child.isAlive();
    if (signal.equals("KILL")) {
      child.destroyForcibly();
    } else {
      new ProcessBuilder("sh", "-c", "kill -" + signal + " " + child.pid()).start().waitFor();
    }
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not stop");
    if (!killed) {
      assertEquals(0, child.exitValue(), Files.readString(dir.resolve("child.err")));
    }
    return killed;
  }

  /** {@code check}: no problem, or only what an interrupted write left. */
  private static void checkReportsOnlyLeftovers(Path store, boolean leftovers) {
    Cli.Result r = Cli.run("check", store);
    JsonNode problems = Json.parse(r.out(), "check").get("problems");
    for (JsonNode p : problems) {
      assertTrue(p.get("error").asText().contains("interrupted write"), r.toString());
    }
    assertEquals(leftovers ? 3 : 0, r.exit(), r.toString());
    assertEquals(leftovers, problems.size() > 0, r.toString());
  }

  // ---- copy ----

  private static float newValue(long i) {
    return i * 0.25f + 1;
  }

  private static float oldValue(long i) {
    return -i;
  }

  private static void fill(ZarrArray a, int rows, int cols, boolean isNew, BufferAllocator allocator) {
    try (Float4Vector v = new Float4Vector("v", allocator)) {
      v.allocateNew(rows * cols);
      for (int i = 0; i < rows * cols; i++) {
        v.set(i, isNew ? newValue(i) : oldValue(i));
      }
      v.setValueCount(rows * cols);
      a.write(new long[] {0, 0}, new NdVector(v, new long[] {rows, cols}));
    }
  }

  private static State arrayState(Path store, String path, BufferAllocator allocator) {
    try (FileSystemStore s = FileSystemStore.open(store)) {
      Optional<ZarrNode> node = Zarr.tryOpen(s, path, OPTIONS);
      if (node.isEmpty()) {
        return State.NONE;
      }
      ZarrArray a = (ZarrArray) node.get();
      boolean isNew = a.shape()[0] == ROWS;
      try (NdVector all = a.read(allocator)) {
        Float4Vector v = (Float4Vector) all.vector();
        for (int i = 0; i < v.getValueCount(); i++) {
          float want = isNew ? newValue(i) : oldValue(i);
          if (v.isNull(i) || v.get(i) != want) {
            fail(path + ": element " + i + " is " + (v.isNull(i) ? null : v.get(i)) + ", not " + want + " of the "
                + (isNew ? "new" : "old") + " array: a mix");
          }
        }
      }
      return isNew ? State.NEW : State.OLD;
    }
  }

  @Test
  void aKilledCopyLeavesTheOldArrayOrTheNewOneWhole(BufferAllocator allocator) throws Exception {
    Path src = dir.resolve("src");
    try (FileSystemStore s = FileSystemStore.open(src)) {
      fill(Zarr.createArray(s, "a", ArraySpec.of(FixedType.FLOAT32, ROWS, COLS).chunks(40, 40)
          .compressors(List.of(ArraySpec.zstd(1)))), ROWS, COLS, true, allocator);
    }
    int files = (ROWS / 40) * (COLS / 40);
    List<String> seen = new ArrayList<>();
    int run = 0;
    for (String signal : List.of("INT", "KILL")) {
      for (long after : new long[] {1, files / 2, files - 3}) {
        Path dst = dir.resolve("dst-" + run++);
        try (FileSystemStore s = FileSystemStore.open(dst)) {
          fill(Zarr.createArray(s, "g/a", ArraySpec.of(FixedType.FLOAT32, 300, 400).chunks(50, 50)), 300, 400, false, allocator);
        }
        boolean killed = killAfter(dst, after, signal, "copy", src, "a", dst, "g/a", "--overwrite");
        State state = arrayState(dst, "g/a", allocator);
        seen.add("SIG" + signal + " after " + after + " files: " + state + (killed ? "" : " (finished first)"));
        boolean leftovers = !TestFiles.leftovers(dst).isEmpty();
        if (state == State.NONE) {
          assertTrue(leftovers, "no node and nothing to move back");
        }
        checkReportsOnlyLeftovers(dst, leftovers);
        Cli.Result again = Cli.run("copy", src, "a", dst, "g/a", "--overwrite");
        assertEquals(0, again.exit(), again.toString());
        assertEquals(State.NEW, arrayState(dst, "g/a", allocator));
        assertEquals(List.of(), TestFiles.leftovers(dst), "the next write removes what the killed one left");
        checkReportsOnlyLeftovers(dst, false);
      }
    }
    // a new path: nothing, or the whole array
    Path fresh = dir.resolve("fresh");
    Files.createDirectories(fresh);
    killAfter(fresh, files / 2, "KILL", "copy", src, "a", fresh, "a");
    State state = arrayState(fresh, "a", allocator);
    seen.add("SIGKILL of a copy to a new path: " + state);
    assertTrue(state != State.OLD);
    System.out.println("interrupted copies: " + seen);
    assertTrue(seen.stream().anyMatch(s -> s.contains(": OLD")), "no kill landed before the swap: " + seen);
  }

  /** The state of the group {@code g}: the old one (arrays a and old), the new one (a and b), whole, or none. */
  private static State groupState(Path store, BufferAllocator allocator) {
    State a = arrayState(store, "g/a", allocator);
    try (FileSystemStore s = FileSystemStore.open(store)) {
      if (a == State.NONE) {
        assertTrue(Zarr.tryOpen(s, "g", OPTIONS).isEmpty(), "a group without its arrays");
        return State.NONE;
      }
      List<String> children = Zarr.openGroup(s, "g", OPTIONS).childNames();
      assertEquals(a == State.NEW ? List.of("a", "b") : List.of("a", "old"), children, "the " + a + " group's arrays: a mix");
    }
    if (a == State.NEW) {
      assertEquals(State.NEW, arrayState(store, "g/b", allocator));
    }
    return a;
  }

  /** Issue 27: a group copy is one write: killed anywhere, the old group or the new one, whole. */
  @Test
  void aKilledGroupCopyLeavesTheOldGroupOrTheNewOneWhole(BufferAllocator allocator) throws Exception {
    Path src = dir.resolve("src");
    try (FileSystemStore s = FileSystemStore.open(src)) {
      for (String name : List.of("ds/a", "ds/b")) {
        fill(Zarr.createArray(s, name, ArraySpec.of(FixedType.FLOAT32, ROWS, COLS / 2).chunks(40, 40)
            .compressors(List.of(ArraySpec.zstd(1)))), ROWS, COLS / 2, true, allocator);
      }
    }
    int files = 2 * (ROWS / 40) * (COLS / 2 / 40);
    List<String> seen = new ArrayList<>();
    int run = 0;
    for (String signal : List.of("INT", "KILL")) {
      for (long after : new long[] {1, files / 2, files - 3}) {
        Path dst = dir.resolve("group-dst-" + run++);
        try (FileSystemStore s = FileSystemStore.open(dst)) {
          for (String name : List.of("g/a", "g/old")) {
            fill(Zarr.createArray(s, name, ArraySpec.of(FixedType.FLOAT32, 300, 400).chunks(50, 50)), 300, 400, false, allocator);
          }
        }
        boolean killed = killAfter(dst, after, signal, "copy", src, "ds", dst, "g", "--overwrite");
        State state = groupState(dst, allocator);
        seen.add("SIG" + signal + " after " + after + " files: " + state + (killed ? "" : " (finished first)"));
        boolean leftovers = !TestFiles.leftovers(dst).isEmpty();
        checkReportsOnlyLeftovers(dst, leftovers);
        Cli.Result again = Cli.run("copy", src, "ds", dst, "g", "--overwrite");
        assertEquals(0, again.exit(), again.toString());
        assertEquals(State.NEW, groupState(dst, allocator));
        assertEquals(List.of(), TestFiles.leftovers(dst), "the next write removes what the killed one left");
      }
    }
    System.out.println("interrupted group copies: " + seen);
    assertTrue(seen.stream().anyMatch(s -> s.contains(": OLD")), "no kill landed before the swap: " + seen);
  }

  // ---- import ----

  private static State tableState(Path store, BufferAllocator allocator) throws Exception {
    try (FileSystemStore s = FileSystemStore.open(store)) {
      Optional<ZarrNode> node = Zarr.tryOpen(s, "t", OPTIONS);
      if (node.isEmpty()) {
        return State.NONE;
      }
      ZarrGroup group = (ZarrGroup) node.get();
      try (ArrowReader reader = TableReader.of(group, allocator)) {
        List<String> names = reader.getVectorSchemaRoot().getSchema().getFields().stream().map(Field::getName).toList();
        boolean isNew = names.equals(List.of("p", "q", "r"));
        assertTrue(isNew || names.equals(List.of("x", "y")), names.toString());
        assertEquals(names, group.childNames(), "the table's columns, and no others");
        long seed = isNew ? 2 : 1;
        long row = 0;
        while (reader.loadNextBatch()) {
          int n = reader.getVectorSchemaRoot().getRowCount();
          for (int c = 0; c < names.size(); c++) {
            BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(c);
            for (int i = 0; i < n; i++) {
              assertEquals(TestFiles.value(c, row + i, seed), v.get(i), "column " + names.get(c) + ", row " + (row + i));
            }
          }
          row += n;
        }
        assertEquals(isNew ? TABLE_ROWS : 1000, row, "rows of the " + (isNew ? "new" : "old") + " table");
        return isNew ? State.NEW : State.OLD;
      }
    }
  }

  @Test
  void aKilledImportLeavesTheOldTableOrTheNewOneWhole(BufferAllocator allocator) throws Exception {
    Path stream = TestFiles.int64Stream(dir.resolve("new.arrows"), List.of("p", "q", "r"), TABLE_ROWS, 5000, 2, allocator);
    Path old = TestFiles.int64Stream(dir.resolve("old.arrows"), List.of("x", "y"), 1000, 100, 1, allocator);
    int files = 3 * (TABLE_ROWS / 1000);
    List<String> seen = new ArrayList<>();
    int run = 0;
    for (String signal : List.of("INT", "KILL")) {
      for (long after : new long[] {1, files / 2, files - 3}) {
        Path store = dir.resolve("store-" + run++);
        assertEquals(0, Cli.run("import", old, store, "t", "--chunk-rows", "100").exit());
        boolean killed = killAfter(store, after, signal, "import", stream, store, "t", "--overwrite", "--chunk-rows", "1000");
        State state = tableState(store, allocator);
        seen.add("SIG" + signal + " after " + after + " files: " + state + (killed ? "" : " (finished first)"));
        boolean leftovers = !TestFiles.leftovers(store).isEmpty();
        if (state == State.NONE) {
          assertTrue(leftovers, "no node and nothing to move back");
        }
        checkReportsOnlyLeftovers(store, leftovers);
        Cli.Result again = Cli.run("import", stream, store, "t", "--overwrite", "--chunk-rows", "1000");
        assertEquals(0, again.exit(), again.toString());
        assertEquals(State.NEW, tableState(store, allocator));
        assertEquals(List.of(), TestFiles.leftovers(store), "the next write removes what the killed one left");
        checkReportsOnlyLeftovers(store, false);
      }
    }
    System.out.println("interrupted imports: " + seen);
    assertTrue(seen.stream().anyMatch(s -> s.contains(": OLD")), "no kill landed before the swap: " + seen);
  }

  // ---- export, and a 4-byte import under 64 MB ----

  @Test
  void aStoppedExportLeavesNoTemporaryFile(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    Path stream = TestFiles.int64Stream(dir.resolve("t.arrows"), List.of("p", "q", "r"), TABLE_ROWS, 5000, 2, allocator);
    assertEquals(0, Cli.run("import", stream, store, "t", "--chunk-rows", "1000").exit());
    Path outDir = Files.createDirectories(dir.resolve("out"));
    for (String signal : List.of("INT", "TERM")) {
      Path out = outDir.resolve("t-" + signal + ".arrows");
      Process child = zarrow(List.of("-Xmx512m"), "export", store, "t", out, "--batch-rows", "1000");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (child.isAlive() && !partFile(outDir)) {
        assertTrue(System.nanoTime() < deadline, "no temporary file appeared");
        Thread.sleep(2);
      }
      boolean caught = child.isAlive();
      new ProcessBuilder("sh", "-c", "kill -" + signal + " " + child.pid()).start().waitFor();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      assertFalse(partFile(outDir), "SIG" + signal + " left a temporary file");
      if (caught && child.exitValue() != 0) {
        assertFalse(Files.exists(out), "a stopped export leaves no OUT");
      }
      System.out.println("export stopped by SIG" + signal + (caught ? " while writing" : " after it finished")
          + ": exit " + child.exitValue() + ", no temporary file left");
    }
  }

  private static boolean partFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(".part"));
    }
  }

  @Test
  void aFourByteFileFailsWithExit3UnderA64MbHeap() throws Exception {
    Path four = Files.write(dir.resolve("four.txt"), "abcd".getBytes());
    Process child = zarrow(List.of("-Xmx64m"), "import", four, dir.resolve("store"), "t");
    assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    String err = Files.readString(dir.resolve("child.err"));
    assertEquals(3, child.exitValue(), err);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("zarrow: ") && err.contains("four.txt"), err);
    assertFalse(Files.exists(dir.resolve("store/t")));
  }
}
