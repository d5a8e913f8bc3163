package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableLayout;
import dev.zarrow.testing.AllocatorExtension;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarrow export}: arrays and tables to IPC streams (file or stdout), and the exit codes. */
@ExtendWith(AllocatorExtension.class)
class ExportCommandTest {
  @TempDir Path dir;

  private Path store() {
    return dir.resolve("store");
  }

  /** store/nums: int32 [10] in chunks of 4 (i * 2); store/tbl: a table of it named "count ◊" with metadata. */
  private void write(BufferAllocator allocator) {
    try (FileSystemStore store = FileSystemStore.open(store()); IntVector v = new IntVector("v", allocator)) {
      ZarrArray a = Zarr.createArray(store, "nums", ArraySpec.of(FixedType.INT32, 10).chunks(4)
          .compressors(List.of(ArraySpec.crc32c())));
      v.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        v.set(i, i * 2);
      }
      v.setValueCount(10);
      a.write(0, v);
      ZarrGroup table = Zarr.createGroup(store, "tbl");
      Field field = new Field("count ◊", new FieldType(false, new ArrowType.Int(32, true), null, Map.of("k", "v")), List.of());
      TableLayout layout = TableLayout.forSchema(new Schema(List.of(field), Map.of("table", "yes")));
      table.createArray(layout.nodes().get(0), ArraySpec.of(FixedType.INT32, 10).chunks(3)).write(0, v);
      table.withAttributes(layout.into(table.attributes()));
    }
  }

  private static List<Integer> read(InputStream in, BufferAllocator allocator, List<Integer> batchSizes, List<Schema> schema) throws Exception {
    List<Integer> values = new ArrayList<>();
    try (ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      schema.add(root.getSchema());
      while (reader.loadNextBatch()) {
        batchSizes.add(root.getRowCount());
        IntVector v = (IntVector) root.getVector(0);
        for (int i = 0; i < root.getRowCount(); i++) {
          values.add(v.get(i));
        }
      }
    }
    return values;
  }

  private static List<Integer> doubles() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      out.add(i * 2);
    }
    return out;
  }

  @Test
  void exportsASingleArray(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path out = dir.resolve("nums.arrows");
    Cli.Result r = Cli.run("export", store(), "nums", out);
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().contains("10 rows in 3 batches"), r.err());
    List<Integer> sizes = new ArrayList<>();
    List<Schema> schema = new ArrayList<>();
    try (InputStream in = Files.newInputStream(out)) {
      assertEquals(doubles(), read(in, allocator, sizes, schema));
    }
    assertEquals(List.of(4, 4, 2), sizes);
    assertEquals("nums", schema.get(0).getFields().get(0).getName());
  }

  @Test
  void exportsATableWithItsSchemaAndBatchRows(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path out = dir.resolve("tbl.arrows");
    Cli.Result r = Cli.run("export", store(), "tbl", out, "--batch-rows", "6");
    assertEquals(0, r.exit(), r.toString());
    List<Integer> sizes = new ArrayList<>();
    List<Schema> schema = new ArrayList<>();
    try (InputStream in = Files.newInputStream(out)) {
      assertEquals(doubles(), read(in, allocator, sizes, schema));
    }
    assertEquals(List.of(6, 4), sizes);
    Field f = schema.get(0).getFields().get(0);
    assertEquals("count ◊", f.getName());
    assertFalse(f.isNullable());
    assertEquals(Map.of("k", "v"), f.getMetadata());
    assertEquals(Map.of("table", "yes"), schema.get(0).getCustomMetadata());
  }

  @Test
  void exportsToStdout(BufferAllocator allocator) throws Exception {
    write(allocator);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Main.run(new String[] {"export", store().toString(), "tbl", "-"}, o, e);
    }
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    List<Integer> sizes = new ArrayList<>();
    assertEquals(doubles(), read(new ByteArrayInputStream(out.toByteArray()), allocator, sizes, new ArrayList<>()));
    assertEquals(List.of(3, 3, 3, 1), sizes);
  }

  /**
   * OUT that is no regular file (a named pipe here, /dev/null in the benchmark) is written in place:
   * renaming a temporary file over it would replace the pipe or device with a regular file.
   */
  @Test
  void exportsIntoANamedPipeInPlace(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path pipe = dir.resolve("pipe");
    Process mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor());
    CompletableFuture<List<Integer>> values = CompletableFuture.supplyAsync(() -> {
      // A FileInputStream, buffered: Arrow would unwrap it to its FileChannel, and Files.newInputStream's
      // stream asks its channel for the position (available()): both seek, which a pipe cannot.
      try (InputStream in = new BufferedInputStream(new FileInputStream(pipe.toFile()))) {
        return read(in, allocator, new ArrayList<>(), new ArrayList<>());
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });
    Cli.Result r = Cli.run("export", store(), "tbl", pipe);
    assertEquals(doubles(), values.get(1, TimeUnit.MINUTES), r.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("p", Files.getAttribute(pipe, "unix:mode") instanceof Integer m && (m & 0170000) == 0010000 ? "p" : "not a pipe");
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")).toList());
    }
  }

  @Test
  void exitCodes(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path out = dir.resolve("x.arrows");
    assertEquals(2, Cli.run("export", store(), "nums").exit()); // OUT missing
    assertEquals(2, Cli.run("export", store(), "nums", out, "--batch-rows", "-1").exit());
    assertEquals(2, Cli.run("export", store(), "nums", dir.resolve("no/such/dir/x.arrows")).exit());
    assertEquals(2, Cli.run("export", store(), "nums", out, "--column", "a").exit()); // --column on an array
    Cli.Result missingStore = Cli.run("export", dir.resolve("nowhere"), "nums", out);
    assertEquals(3, missingStore.exit(), missingStore.toString());
    Cli.Result missingNode = Cli.run("export", store(), "nope", out);
    assertEquals(3, missingNode.exit(), missingNode.toString());
    Cli.Result missingColumn = Cli.run("export", store(), "tbl", out, "--column", "nope");
    assertEquals(3, missingColumn.exit(), missingColumn.toString());
    assertTrue(missingColumn.err().startsWith("zarrow: ") && missingColumn.err().contains("nope"), missingColumn.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void aCorruptChunkIsADataErrorAndLeavesNoFile(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path chunk = store().resolve("nums/c/1");
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[2] ^= 1;
    Files.write(chunk, bytes);
    Path out = dir.resolve("bad.arrows");
    Cli.Result r = Cli.run("export", store(), "nums", out);
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("nums/c/1"), r.err());
    assertFalse(Files.exists(out));
    // All Arrow memory released: the CLI's allocator would report a leak as a suppressed exception.
    Cli.Result verbose = Cli.run("--verbose", "export", store(), "nums", out);
    assertEquals(3, verbose.exit(), verbose.toString());
    assertFalse(verbose.err().contains("leaked") || verbose.err().contains("Suppressed"), verbose.toString());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.filter(p -> p.getFileName().toString().endsWith(".part")).toList());
    }
  }
}
