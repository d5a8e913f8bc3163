package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.ArraySpec;
import dev.zarrow.NodeWriter;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write of a whole node "killed" after every possible number of store changes ({@link CrashingStore}:
 * nothing runs after the crash, no finally block, no clean-up), on a store that renames (directory:
 * new beside old, then swapped) and one that cannot (memory: in place, claimed last). After each
 * crash the node reads as the old one or the new one, exactly, or is absent (in place; on the directory
 * store only between the two renames, and then the next write moves the old one back); never a
 * mix, never a node that reads as complete. Then a write of the same path succeeds and leaves nothing
 * of the crashed one behind: no temporary name, no marker, no empty directory.
 */
@ExtendWith(AllocatorExtension.class)
class NodeWriteCrashTest {
  private static final ZarrOptions OPTIONS = ZarrOptions.defaults().withExecutor(Runnable::run);

  @TempDir Path dir;

  private enum State { OLD, NEW, NONE }

  /** A scenario: what the store holds before, the write that crashes, and how to tell old from new. */
  private interface Scenario {
    void before(WritableStore store, BufferAllocator allocator);

    void write(WritableStore store, BufferAllocator allocator);

    State state(WritableStore store, BufferAllocator allocator);
  }

  private static IntVector ints(BufferAllocator allocator, int n, int times, int plus) {
    return ints(allocator, "v", n, times, plus);
  }

  private static IntVector ints(BufferAllocator allocator, String name, int n, int times, int plus) {
    IntVector v = new IntVector(name, allocator);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, i * times + plus);
    }
    v.setValueCount(n);
    return v;
  }

  /** The values of {@code array}, whole. */
  private static List<Integer> values(ZarrArray array, BufferAllocator allocator) {
    try (var all = array.read(allocator)) {
      IntVector v = (IntVector) all.vector();
      List<Integer> out = new ArrayList<>();
      for (int i = 0; i < v.getValueCount(); i++) {
        out.add(v.isNull(i) ? null : v.get(i));
      }
      return out;
    }
  }

  private static List<Integer> expected(int n, int times, int plus) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i * times + plus);
    }
    return out;
  }

  /** The new array (10 elements in chunks of 3, i * 7 + 2) at {@code path}, through a NodeWriter. */
  private static void writeNewArray(WritableStore store, String path, BufferAllocator allocator) {
    try (NodeWriter writer = NodeWriter.begin(store, path, OPTIONS); IntVector v = ints(allocator, 10, 7, 2)) {
      ZarrArray array = writer.array("", ArraySpec.of(FixedType.INT32, 10).chunks(3).toMetadata());
      array.write(0, v);
      writer.commit(array);
    }
  }

  /** g/a: 12 elements in chunks of 4 (i * 10 + 1), replaced by 10 in chunks of 3 (i * 7 + 2): chunk keys overlap. */
  private static final Scenario ARRAY = new Scenario() {
    @Override
    public void before(WritableStore store, BufferAllocator allocator) {
      try (IntVector v = ints(allocator, 12, 10, 1)) {
        Zarr.createArray(store, "g/a", ArraySpec.of(FixedType.INT32, 12).chunks(4), OPTIONS).write(0, v);
      }
    }

    @Override
    public void write(WritableStore store, BufferAllocator allocator) {
      writeNewArray(store, "g/a", allocator);
    }

    @Override
    public State state(WritableStore store, BufferAllocator allocator) {
      Optional<ZarrNode> node = Zarr.tryOpen(store, "g/a", OPTIONS);
      if (node.isEmpty()) {
        return State.NONE;
      }
      List<Integer> values = values((ZarrArray) node.get(), allocator);
      if (values.equals(expected(12, 10, 1))) {
        return State.OLD;
      }
      assertEquals(expected(10, 7, 2), values, "neither the old array nor the new one");
      return State.NEW;
    }
  };

  /** The table t (columns a, b of 9 rows) replaced by a table of column c (5 rows), through TableWriter. */
  private static final Scenario TABLE = new Scenario() {
    private void table(WritableStore store, List<String> names, int rows, int times, BufferAllocator allocator) {
      List<FieldVector> columns = new ArrayList<>();
      for (int c = 0; c < names.size(); c++) {
        columns.add(ints(allocator, names.get(c), rows, times, c));
      }
      try (VectorSchemaRoot root = new VectorSchemaRoot(columns);
          TableWriter writer = TableWriter.create(store, "t", OPTIONS, root.getSchema(),
              TableOptions.defaults().withChunkRows(2), allocator)) {
        root.setRowCount(rows);
        writer.append(root, null);
        writer.finish();
      }
    }

    @Override
    public void before(WritableStore store, BufferAllocator allocator) {
      table(store, List.of("a", "b"), 9, 3, allocator);
    }

    @Override
    public void write(WritableStore store, BufferAllocator allocator) {
      table(store, List.of("c"), 5, 11, allocator);
    }

    @Override
    public State state(WritableStore store, BufferAllocator allocator) {
      Optional<ZarrNode> node = Zarr.tryOpen(store, "t", OPTIONS);
      if (node.isEmpty()) {
        return State.NONE;
      }
      ZarrGroup group = (ZarrGroup) node.get();
      List<String> nodes = TableLayout.fromAttributes(group.attributes()).orElseThrow(
          () -> new AssertionError("a group without its table attribute: " + group.childNames())).nodes();
      assertEquals(nodes, group.childNames(), "the table's columns and nothing else");
      List<List<Integer>> columns = new ArrayList<>();
      try (ArrowReader reader = TableReader.of(group, allocator)) {
        for (int c = 0; c < nodes.size(); c++) {
          columns.add(new ArrayList<>());
        }
        while (reader.loadNextBatch()) {
          for (int c = 0; c < nodes.size(); c++) {
            IntVector v = (IntVector) reader.getVectorSchemaRoot().getVector(c);
            for (int i = 0; i < v.getValueCount(); i++) {
              columns.get(c).add(v.get(i));
            }
          }
        }
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      if (nodes.equals(List.of("a", "b"))) {
        assertEquals(List.of(expected(9, 3, 0), expected(9, 3, 1)), columns, "the old table, changed");
        return State.OLD;
      }
      assertEquals(List.of(expected(5, 11, 0)), columns, "neither the old table nor the new one");
      return State.NEW;
    }
  };

  /** The group g (holding arrays) replaced by an array: the command line's copy --overwrite. */
  private static final Scenario GROUP_BY_ARRAY = new Scenario() {
    @Override
    public void before(WritableStore store, BufferAllocator allocator) {
      ARRAY.before(store, allocator);
      try (IntVector v = ints(allocator, 5, 1, 0)) {
        Zarr.createArray(store, "g/b", ArraySpec.of(FixedType.INT32, 5).chunks(2), OPTIONS).write(0, v);
      }
    }

    @Override
    public void write(WritableStore store, BufferAllocator allocator) {
      writeNewArray(store, "g", allocator);
    }

    @Override
    public State state(WritableStore store, BufferAllocator allocator) {
      Optional<ZarrNode> node = Zarr.tryOpen(store, "g", OPTIONS);
      if (node.isEmpty()) {
        return State.NONE;
      }
      if (node.get() instanceof ZarrGroup g) {
        assertEquals(List.of("a", "b"), g.childNames());
        assertEquals(State.OLD, ARRAY.state(store, allocator));
        assertEquals(List.of(0, 1, 2, 3, 4), values(g.array("b"), allocator));
        return State.OLD;
      }
      assertEquals(expected(10, 7, 2), values((ZarrArray) node.get(), allocator), "neither the old group nor the new array");
      return State.NEW;
    }
  };

  @ParameterizedTest(name = "{0}, directory store: {1}")
  @CsvSource({"array, true", "array, false", "table, true", "table, false", "group by array, true", "group by array, false"})
  void everyCrashPointLeavesTheOldNodeOrTheNewOneOrNone(String scenario, boolean directory, BufferAllocator allocator)
      throws IOException {
    sweep(Map.of("array", ARRAY, "table", TABLE, "group by array", GROUP_BY_ARRAY).get(scenario), directory, allocator);
  }

  /** Crashes the write after 0, 1, 2, ... changes until it completes; checks every state it leaves. */
  private void sweep(Scenario scenario, boolean directory, BufferAllocator allocator) throws IOException {
    int crashes = 0;
    int none = 0;
    int changed = 0;
    for (int survive = 0; ; survive++) {
      Path root = dir.resolve("store-" + survive);
      Supplier<WritableStore> open = directory ? () -> FileSystemStore.open(root) : new Supplier<>() {
        final MemoryStore memory = new MemoryStore();

        @Override
        public WritableStore get() {
          return memory;
        }
      };
      scenario.before(open.get(), allocator);
      CrashingStore crashing = new CrashingStore(open.get(), survive);
      try {
        scenario.write(crashing, allocator);
      } catch (CrashingStore.Crash expected) {
        // killed
      }
      if (!crashing.crashed()) {
        assertEquals(State.NEW, scenario.state(open.get(), allocator));
        assertClean(open.get(), root, directory);
        break;
      }
      crashes++;
      WritableStore after = open.get();
      State state = scenario.state(after, allocator);
      if (state == State.NONE) {
        none++;
        if (directory) {
          // only between the two renames of the swap: the next write moves the old node back
          NodeWriter.begin(after, ZarrNode.normalize(pathOf(scenario)), OPTIONS).close();
          assertEquals(State.OLD, scenario.state(after, allocator), "after " + survive + " changes: the old node is back");
        }
      }
      changed += state == State.NEW ? 1 : 0;
      scenario.write(after, allocator);
      assertEquals(State.NEW, scenario.state(after, allocator), "the next write after a crash at " + survive);
      assertClean(after, root, directory);
    }
    System.out.printf("node write crashes (%s, %s): %d crash points, %d left no node, %d the new node; the rest the old%n",
        directory ? "directory store" : "in place", scenario == ARRAY ? "array" : scenario == TABLE ? "table" : "group by array",
        crashes, none, changed);
    assertTrue(crashes > 5, "the sweep crashed the write " + crashes + " times");
    if (directory) {
      assertTrue(none <= 1, none + " crash points left no node on the directory store");
    }
  }

  private static String pathOf(Scenario scenario) {
    return scenario == TABLE ? "t" : scenario == ARRAY ? "g/a" : "g";
  }

  /** Nothing of an interrupted write is left: no temporary name, no marker, no empty directory. */
  private static void assertClean(WritableStore store, Path root, boolean directory) throws IOException {
    assertFalse(store.list("").stream().anyMatch(k -> k.endsWith(NodeWriter.INCOMPLETE)), store.list("").toString());
    if (!directory) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        String name = p.getFileName().toString();
        if (name.endsWith(".zarrow-tmp")) {
          fail("left behind: " + root.relativize(p));
        }
        if (Files.isDirectory(p) && !p.equals(root)) {
          try (Stream<Path> inside = Files.list(p)) {
            assertTrue(inside.findAny().isPresent(), "an empty directory: " + root.relativize(p));
          }
        }
      }
    }
  }
}
