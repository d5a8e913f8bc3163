package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.ProjectPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, in process: copy and import never destroy a node they were not asked to replace, replace
 * what they are asked to whole, leave the old node (or nothing) when they fail; export reads only
 * claimed tables and writes its file safely; import checks IPC lengths and reads stdin.
 */
@ExtendWith(AllocatorExtension.class)
class WriteSafetyTest {
  @TempDir Path dir;

  /** The demo store, as the reproductions use it. */
  private Path demo() {
    Path demo = dir.resolve("DEMO");
    if (!Files.exists(demo)) {
      Cli.Result r = Cli.run("demo", demo);
      assertEquals(0, r.exit(), r.toString());
    }
    return demo;
  }

  private Path copyOfDemo(String name) throws IOException {
    Path from = demo();
    Path to = dir.resolve(name);
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  private static String cat(Path store, String path) {
    Cli.Result r = Cli.run("cat", store, path, "--json");
    assertEquals(0, r.exit(), r.toString());
    return r.out();
  }

  @Test
  void copyRefusesAGroupTheRootOrANodeInsideAnArray() throws IOException {
    Path c = copyOfDemo("C");
    Map<String, String> before = TestFiles.snapshot(c);
    Cli.Result group = Cli.run("copy", demo(), "strings/words", c, "numbers");
    assertEquals(2, group.exit(), group.toString());
    assertTrue(group.err().contains("'numbers'") && group.err().contains("group") && group.err().contains("--overwrite"),
        group.err());
    TestFiles.assertUntouched(before, c, "copy over a group");
    Cli.Result table = Cli.run("copy", demo(), "strings/words", c, "readings");
    assertEquals(2, table.exit(), table.toString());
    assertTrue(table.err().contains("table"), table.err());
    Cli.Result root = Cli.run("copy", demo(), "numbers/counts", c, "/");
    assertEquals(2, root.exit(), root.toString());
    assertTrue(root.err().contains("root"), root.err());
    Cli.Result inside = Cli.run("copy", demo(), "numbers/counts", c, "numbers/grid/x", "--overwrite");
    assertEquals(2, inside.exit(), inside.toString());
    assertTrue(inside.err().contains("'numbers/grid' is an array"), inside.err());
    TestFiles.assertUntouched(before, c, "refused copies");

    // --overwrite replaces the group whole, its arrays with it
    Cli.Result overwrite = Cli.run("copy", demo(), "strings/words", c, "numbers", "--overwrite");
    assertEquals(0, overwrite.exit(), overwrite.toString());
    assertEquals(cat(demo(), "strings/words"), cat(c, "numbers"));
    assertFalse(Files.exists(c.resolve("numbers/counts")), "the group's arrays went with it");
    assertEquals(0, Cli.run("check", c).exit());
    assertEquals(List.of(), TestFiles.leftovers(c));
  }

  /**
   * Issue 27: an array is replaced only with --overwrite too (as zarr.copy's if_exists="raise"); without it,
   * copy of an array or a group onto an array, a group or a table exits 2 naming what is there.
   */
  @Test
  void replacingAnyNodeNeedsOverwrite() throws IOException {
    Path c = copyOfDemo("C");
    Map<String, String> before = TestFiles.snapshot(c);
    Cli.Result array = Cli.run("copy", demo(), "numbers/counts", c, "numbers/grid");
    assertEquals(2, array.exit(), array.toString());
    assertEquals("zarrow: 'numbers/grid' in " + c + " is an array (float32 [48, 64]): copy replaces it only with --overwrite",
        array.errLines().get(0));
    Cli.Result groupOnArray = Cli.run("copy", demo(), "numbers", c, "numbers/grid");
    assertEquals(2, groupOnArray.exit(), groupOnArray.toString());
    assertTrue(groupOnArray.err().contains("is an array"), groupOnArray.err());
    Cli.Result groupOnGroup = Cli.run("copy", demo(), "numbers", c, "strings");
    assertEquals(2, groupOnGroup.exit(), groupOnGroup.toString());
    assertTrue(groupOnGroup.err().contains("'strings' in " + c + " is a group of"), groupOnGroup.err());
    Cli.Result groupOnTable = Cli.run("copy", demo(), "numbers", c, "readings");
    assertEquals(2, groupOnTable.exit(), groupOnTable.toString());
    assertTrue(groupOnTable.err().contains("is a table of"), groupOnTable.err());
    Cli.Result wholeStore = Cli.run("copy", demo(), "/", c, "/");
    assertEquals(2, wholeStore.exit(), wholeStore.toString());
    assertTrue(wholeStore.err().contains("the root of " + c), wholeStore.err());
    TestFiles.assertUntouched(before, c, "copies refused without --overwrite");
    // with it: the group copied whole over the array
    Cli.Result replaced = Cli.run("copy", demo(), "numbers", c, "numbers/grid2", "--overwrite");
    assertEquals(0, replaced.exit(), replaced.toString());
    Cli.Result over = Cli.run("copy", demo(), "numbers", c, "strings", "--overwrite");
    assertEquals(0, over.exit(), over.toString());
    assertEquals(cat(demo(), "numbers/grid"), cat(c, "strings/grid"));
    assertFalse(Files.exists(c.resolve("strings/words")), "the old group's arrays went with it");
    assertEquals(0, Cli.run("check", c).exit());
  }

  @Test
  void anArrayReplacesAnArrayOfAnotherShapeWhole() throws IOException {
    Path a = copyOfDemo("A");
    Cli.Result r = Cli.run("copy", demo(), "strings/words", a, "numbers/grid", "--overwrite");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(cat(demo(), "strings/words"), cat(a, "numbers/grid"));
    Cli.Result check = Cli.run("check", a, "numbers/grid");
    assertEquals(0, check.exit(), check.toString());
    assertEquals("[]", Json.compact(Json.parse(check.out(), "check").get("ignored_keys")), "no chunk of the old grid stays");
    assertFalse(Files.exists(a.resolve("numbers/grid/c/0/0")));
  }

  @Test
  void aCopyThatFailsLeavesTheOldArrayOrNothing() throws IOException {
    Path src = copyOfDemo("SRC");
    Path chunk = src.resolve("numbers/counts/c/3");
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(chunk, bytes);
    Path a = copyOfDemo("A");
    Map<String, String> before = TestFiles.snapshot(a);
    Cli.Result replace = Cli.run("copy", src, "numbers/counts", a, "numbers/grid", "--overwrite");
    assertEquals(3, replace.exit(), replace.toString());
    assertTrue(replace.err().contains("numbers/counts/c/3"), replace.err());
    TestFiles.assertUntouched(before, a, "a failed copy over an array");
    Cli.Result fresh = Cli.run("copy", src, "numbers/counts", a, "fresh");
    assertEquals(3, fresh.exit(), fresh.toString());
    TestFiles.assertUntouched(before, a, "a failed copy to a new path");
  }

  private Path stream(String name, List<String> columns, int rows, long seed, BufferAllocator allocator) throws IOException {
    return TestFiles.int64Stream(dir.resolve(name), columns, rows, 7, seed, allocator);
  }

  /** The rows of column {@code c} of the export of {@code path}. */
  private List<Long> exported(Path store, String path, int column, BufferAllocator allocator) throws Exception {
    Path out = dir.resolve("export-" + System.nanoTime() + ".arrows");
    Cli.Result r = Cli.run("export", store, path, out);
    assertEquals(0, r.exit(), r.toString());
    List<Long> values = new java.util.ArrayList<>();
    try (InputStream in = Files.newInputStream(out); ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(column);
        for (int i = 0; i < v.getValueCount(); i++) {
          values.add(v.get(i));
        }
      }
    }
    return values;
  }

  private static List<Long> column(int c, int rows, long seed) {
    List<Long> out = new java.util.ArrayList<>();
    for (int i = 0; i < rows; i++) {
      out.add(TestFiles.value(c, i, seed));
    }
    return out;
  }

  @Test
  void importRefusesAnExistingNodeAndOverwriteReplacesTheTableWhole(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    Path first = stream("first.arrows", List.of("a", "b", "c"), 100, 1, allocator);
    Path second = stream("second.arrows", List.of("d"), 50, 2, allocator);
    assertEquals(0, Cli.run("import", first, store, "t", "--chunk-rows", "16").exit());
    assertEquals(0, Cli.run("copy", store, "t/a", store, "arr").exit());
    Map<String, String> before = TestFiles.snapshot(store);
    for (String path : List.of("t", "arr", "/")) {
      Cli.Result r = Cli.run("import", second, store, path);
      assertEquals(2, r.exit(), path + ": " + r);
      assertTrue(r.err().contains("--overwrite"), r.err());
      TestFiles.assertUntouched(before, store, "import over " + path);
    }
    assertTrue(Cli.run("import", second, store, "t").err().contains("table of 3 columns"));
    Cli.Result r = Cli.run("import", second, store, "t", "--overwrite", "--chunk-rows", "8");
    assertEquals(0, r.exit(), r.toString());
    try (FileSystemStore s = FileSystemStore.open(store)) {
      assertEquals(List.of("d"), Zarr.openGroup(s, "t").childNames(), "no column of the old table stays");
    }
    assertEquals(column(0, 50, 2), exported(store, "t", 0, allocator));
    assertEquals(0, Cli.run("check", store).exit());
    assertEquals(List.of(), TestFiles.leftovers(store));
  }

  @Test
  void aFailedImportLeavesTheOldTableOrNothing(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    Path good = stream("good.arrows", List.of("a", "b"), 300, 1, allocator);
    byte[] bytes = Files.readAllBytes(good);
    Path truncated = Files.write(dir.resolve("truncated.arrows"), java.util.Arrays.copyOf(bytes, bytes.length - 700));
    Path garbage = Files.write(dir.resolve("garbage"), "this is not arrow at all, just some text".getBytes());
    Path four = Files.write(dir.resolve("four.txt"), "abcd".getBytes());
    for (Path bad : List.of(truncated, garbage, four)) {
      Cli.Result r = Cli.run("import", bad, store, "t", "--chunk-rows", "16");
      assertEquals(3, r.exit(), bad + ": " + r);
      assertEquals(1, r.errLines().size(), r.toString());
      try (FileSystemStore s = FileSystemStore.open(store)) {
        assertTrue(Zarr.tryOpen(s, "t", ZarrOptions.defaults()).isEmpty(), bad + " left a node");
      }
      assertFalse(Files.exists(store.resolve("t")), bad + " left keys");
      assertEquals(List.of(), TestFiles.leftovers(store), bad.toString());
    }
    assertEquals(0, Cli.run("import", good, store, "t", "--chunk-rows", "16").exit());
    Map<String, String> before = TestFiles.snapshot(store);
    Cli.Result r = Cli.run("import", truncated, store, "t", "--chunk-rows", "16", "--overwrite");
    assertEquals(3, r.exit(), r.toString());
    TestFiles.assertUntouched(before, store, "a failed re-import");
    assertEquals(column(1, 300, 1), exported(store, "t", 1, allocator));
  }

  @Test
  void aFourByteFileFailsAtOnce() throws IOException {
    Path four = Files.write(dir.resolve("four.txt"), "abcd".getBytes());
    long started = System.nanoTime();
    Cli.Result r = Cli.run("import", four, dir.resolve("store"), "t");
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("four.txt is not an Arrow IPC stream") && r.err().contains("61 62 63 64 (\"abcd\")"), r.err());
    assertTrue(millis < 3000, "took " + millis + " ms");
  }

  @Test
  void importReadsStandardInput(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    Path ipc = stream("in.arrows", List.of("a"), 40, 3, allocator);
    Path json = ProjectPaths.fixture("primitives");
    InputStream stdin = System.in;
    try {
      for (Path input : List.of(ipc, json)) {
        System.setIn(new ByteArrayInputStream(Files.readAllBytes(input)));
        String path = input == ipc ? "s" : "j";
        Cli.Result r = Cli.run("import", "-", store, path);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.err().contains("from stdin"), r.err());
      }
    } finally {
      System.setIn(stdin);
    }
    assertEquals(column(0, 40, 3), exported(store, "s", 0, allocator));
    assertEquals(0, Cli.run("export", store, "j", dir.resolve("j.arrows")).exit());
  }

  @Test
  void exportRefusesAGroupThatHoldsNoTable(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    try (FileSystemStore s = FileSystemStore.open(store); Float4Vector v = new Float4Vector("v", allocator)) {
      v.allocateNew(6);
      for (int i = 0; i < 6; i++) {
        v.set(i, i);
      }
      v.setValueCount(6);
      ZarrGroup g = Zarr.createGroup(s, "g");
      g.createArray("x", ArraySpec.of(FixedType.FLOAT32, 6).chunks(4)).write(0, v);
      Zarr.createGroup(s, "empty");
    }
    Path out = dir.resolve("out.arrows");
    for (String path : List.of("g", "empty")) {
      Cli.Result r = Cli.run("export", store, path, out);
      assertEquals(3, r.exit(), r.toString());
      assertTrue(r.err().contains("'" + path + "'") && r.err().contains("no table"), r.err());
      assertFalse(Files.exists(out));
    }
    Cli.Result aligned = Cli.run("export", store, "g", out, "--aligned-arrays");
    assertEquals(0, aligned.exit(), aligned.toString());
    assertTrue(aligned.err().contains("6 rows"), aligned.err());
  }

  @Test
  void exportReportsIoErrorsAsDataErrorsAndAppliesTheUmask(BufferAllocator allocator) throws Exception {
    Path store = dir.resolve("store");
    assertEquals(0, Cli.run("import", stream("t.arrows", List.of("a"), 10, 1, allocator), store, "t").exit());
    Cli.Result r = Cli.run("export", store, "t", "/proc/zarrow-export-test.arrows");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().startsWith("zarrow: export: cannot write /proc/zarrow-export-test.arrows"), r.err());

    Path out = dir.resolve("t.out.arrows");
    assertEquals(0, Cli.run("export", store, "t", out).exit());
    Path reference = dir.resolve("reference");
    try (OutputStream o = Files.newOutputStream(reference)) {
      o.write(1);
    }
    assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(reference)),
        PosixFilePermissions.toString(Files.getPosixFilePermissions(out)), "the umask, as for any new file");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")).toList());
    }
  }

  @Test
  void aSparseCopyFollowsTheStoredChunksNotTheGrid(BufferAllocator allocator) throws IOException {
    Path src = dir.resolve("sparse");
    long[][] at = {{0, 0}, {0, 99_960}, {50_000, 50_016}, {99_980, 0}, {99_980, 99_960}, {120, 4560}, {7_000, 80_016},
        {42_000, 24}, {99_000, 48}};
    try (FileSystemStore s = FileSystemStore.open(src); Float4Vector v = new Float4Vector("v", allocator)) {
      ZarrArray a = Zarr.createArray(s, "big", ArraySpec.of(FixedType.FLOAT32, 100_000, 100_000).chunks(20, 24));
      v.allocateNew(20 * 24);
      for (int i = 0; i < 20 * 24; i++) {
        v.set(i, i + 0.5f);
      }
      v.setValueCount(20 * 24);
      for (long[] corner : at) {
        a.write(corner, new NdVector(v, new long[] {20, 24}));
      }
    }
    Path dst = dir.resolve("dst");
    long started = System.nanoTime();
    Cli.Result r = Cli.run("copy", src, "big", dst, "big");
    double seconds = (System.nanoTime() - started) / 1e9;
    assertEquals(0, r.exit(), r.toString());
    JsonNode info = Json.parse(r.out(), "copy output");
    assertEquals(9, info.at("/summary/stored_chunks").asInt(), r.out());
    assertTrue(seconds < 20, "a copy of 9 stored chunks in a grid of 20.8M took " + seconds + " s");
    for (long[] corner : at) {
      String region = corner[0] + ":" + (corner[0] + 20) + "," + corner[1] + ":" + (corner[1] + 24);
      Cli.Result expected = Cli.run("cat", src, "big", "--json", "--region", region);
      assertEquals(expected.out(), Cli.run("cat", dst, "big", "--json", "--region", region).out(), region);
    }
  }
}
