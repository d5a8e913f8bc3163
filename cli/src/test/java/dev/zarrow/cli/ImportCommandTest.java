package dev.zarrow.cli;

import dev.zarrow.testing.ProjectPaths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableChecks;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.HandStreams;
import dev.zarrow.testing.NodePeer;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(AllocatorExtension.class)
class ImportCommandTest {
  @TempDir Path tmp;

  /** A fixture as an IPC stream and an IPC file, written by Arrow Java from its JSON (two batches, dictionaries). */
  private void toIpc(Path json, Path stream, Path file, BufferAllocator allocator) throws Exception {
    try (JsonFileReader reader = new JsonFileReader(json.toFile(), allocator)) {
      Schema schema = reader.start();
      List<VectorSchemaRoot> batches = new ArrayList<>();
      try {
        for (VectorSchemaRoot b = reader.read(); b != null; b = reader.read()) {
          batches.add(b);
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.create(batches.get(0).getSchema(), allocator);
            OutputStream out = Files.newOutputStream(stream);
            ArrowStreamWriter s = new ArrowStreamWriter(root, reader, out);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            ArrowFileWriter f = new ArrowFileWriter(root, reader, ch)) {
          s.start();
          f.start();
          for (VectorSchemaRoot b : batches) {
            for (int c = 0; c < b.getFieldVectors().size(); c++) {
              b.getVector(c).makeTransferPair(root.getVector(c)).transfer();
            }
            root.setRowCount(b.getRowCount());
            s.writeBatch();
            f.writeBatch();
          }
          s.end();
          f.end();
        }
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
      assertEquals(schema.getFields().size(), FieldJson.parseSchema(ArrowJsonFiles.read(json).get("schema")).getFields().size());
    }
  }

  /** The table at {@code path} holds exactly what Arrow Java reads from {@code stream}. */
  private static void assertTable(Path store, String path, Path stream, BufferAllocator allocator) throws Exception {
    List<List<FieldVector>> expected = new ArrayList<>();
    try (FileSystemStore s = FileSystemStore.open(store);
        ArrowStreamReader reader = new ArrowStreamReader(Files.newInputStream(stream), allocator)) {
      Schema schema = TableWriter.storedSchema(reader.getVectorSchemaRoot().getSchema(), reader);
      while (reader.loadNextBatch()) {
        expected.add(TableChecks.decodedColumns(reader.getVectorSchemaRoot(), schema, reader, allocator));
      }
      ZarrGroup group = Zarr.openGroup(s, path);
      TableLayout layout = TableLayout.fromAttributes(group.attributes()).orElseThrow();
      assertEquals(schema.getFields().stream().map(Field::getName).toList(),
          layout.schema().getFields().stream().map(Field::getName).toList());
      assertEquals(schema.getFields(), layout.schema().getFields(), "the stored fields are the stream's");
      TableChecks.assertColumns(group, layout, expected, allocator);
    } finally {
      expected.forEach(b -> b.forEach(FieldVector::close));
    }
  }

  @Test
  void importsStreamFileAndJsonByContent(BufferAllocator allocator) throws Exception {
    for (String fixture : List.of("primitives", "dictionary", "metadata", "strings_binary", "null")) {
      Path json = ProjectPaths.fixture(fixture);
      // Extensions that say nothing: the format is told by the content.
      Path stream = tmp.resolve(fixture + ".json.bin");
      Path file = tmp.resolve(fixture + ".stream");
      toIpc(json, stream, file, allocator);
      Path store = tmp.resolve("store-" + fixture);
      for (Object[] input : new Object[][] {{stream, "s", "stream"}, {file, "f", "file"}, {json, "j", "json"}}) {
        Cli.Result r = Cli.run("import", input[0], store, input[1], "--chunk-rows", "2");
        assertEquals(0, r.exit(), r.toString());
        JsonNode summary = Json.parse(r.out().getBytes(java.nio.charset.StandardCharsets.UTF_8), "stdout");
        assertEquals(input[2], summary.get("format").asText(), fixture);
        assertEquals(input[1], summary.get("path").asText());
        assertTrue(r.err().contains("import: " + summary.get("rows").asLong() + " rows"), r.err());
        assertTable(store, (String) input[1], stream, allocator);
      }
      // The JSON import keeps the schema exactly as the file spells it (metadata order too).
      try (FileSystemStore s = FileSystemStore.open(store)) {
        JsonNode stored = Zarr.openGroup(s, "j").attributes().at("/zarrow_table/schema");
        assertEquals(ArrowJsonFiles.text(FieldJson.writeSchema(FieldJson.parseSchema(ArrowJsonFiles.read(json).get("schema")))),
            ArrowJsonFiles.text(stored), fixture);
      }
    }
  }

  @Test
  void optionsShardsCodecsAndArrowOnly(BufferAllocator allocator) throws Exception {
    Path json = ProjectPaths.fixture("primitives");
    Path store = tmp.resolve("store");
    Cli.Result r = Cli.run("import", json, store, "g/t", "--chunk-rows", "2", "--shard-rows", "4", "--codec", "gzip:5",
        "--codec", "crc32c", "--arrow-only");
    assertEquals(0, r.exit(), r.toString());
    try (FileSystemStore s = FileSystemStore.open(store)) {
      ZarrGroup group = Zarr.openGroup(s, "g/t");
      for (String node : TableLayout.fromAttributes(group.attributes()).orElseThrow().nodes()) {
        ZarrArray a = group.array(node);
        assertEquals("arrow", a.dataType().name(), node);
        assertEquals(4, a.grid().chunkShape()[0]);
        JsonNode sharding = a.metadata().codecs().get(0).toJson();
        assertEquals("sharding_indexed", sharding.get("name").asText());
        assertEquals(2, sharding.at("/configuration/chunk_shape/0").asInt());
        List<String> inner = new ArrayList<>();
        sharding.at("/configuration/codecs").forEach(c -> inner.add(c.get("name").asText()));
        assertEquals(List.of("arrow", "gzip", "crc32c"), inner);
      }
    }
    Cli.Result defaults = Cli.run("import", json, store, "d");
    assertEquals(0, defaults.exit(), defaults.toString());
    try (FileSystemStore s = FileSystemStore.open(store)) {
      ZarrArray a = Zarr.openGroup(s, "d").array("int32_required");
      assertEquals("int32", a.dataType().name());
      List<String> codecs = new ArrayList<>();
      a.metadata().codecs().forEach(c -> codecs.add(c.name()));
      assertEquals(List.of("bytes", "zstd", "crc32c"), codecs);
    }
  }

  @Test
  void badInputIsADataErrorAndBadOptionsAUsageError(BufferAllocator allocator) throws Exception {
    Path store = tmp.resolve("store");
    Path json = ProjectPaths.fixture("primitives");
    Path stream = tmp.resolve("p.arrows");
    toIpc(json, stream, tmp.resolve("p.arrow"), allocator);
    byte[] bytes = Files.readAllBytes(stream);
    Path truncated = Files.write(tmp.resolve("truncated.arrows"), Arrays.copyOf(bytes, bytes.length / 2));
    Path garbage = Files.write(tmp.resolve("garbage"), "this is not arrow at all".getBytes());
    Path empty = Files.write(tmp.resolve("empty"), new byte[0]);
    Path notTable = Files.write(tmp.resolve("x.json"), "{\"batches\": []}".getBytes());
    Path badJson = Files.write(tmp.resolve("y.json"), "{\"schema\": {\"fields\": [{\"name\": 1}]}}".getBytes());
    Path truncatedFile = Files.write(tmp.resolve("t.arrow"), Arrays.copyOf(Files.readAllBytes(tmp.resolve("p.arrow")), 200));
    for (Path bad : List.of(truncated, garbage, empty, notTable, badJson, truncatedFile, tmp.resolve("missing.arrows"))) {
      Cli.Result r = Cli.run("import", bad, store, "t");
      assertEquals(3, r.exit(), bad + ": " + r);
      assertEquals(1, r.errLines().stream().filter(l -> l.startsWith("zarrow: ")).count(), r.toString());
      assertFalse(r.err().contains("\tat "), "no stack trace: " + r);
      assertTrue(r.err().contains(bad.getFileName().toString()), "the message names the file: " + r);
    }
    try (FileSystemStore s = FileSystemStore.open(store)) {
      assertTrue(Zarr.tryOpen(s, "t", dev.zarrow.ZarrOptions.defaults()).isEmpty(), "a failed import leaves no node");
    }
    for (Object[] args : new Object[][] {
        {"import", json, store, "t", "--chunk-rows", "0"},
        {"import", json, store, "t", "--chunk-rows", "2", "--shard-rows", "3"},
        {"import", json, store, "t", "--codec", "bytes"},
        {"import", json, store, "t", "--codec", "zstd:x"},
        {"import", json, store},
        {"import", json, store, "../x"}}) {
      Cli.Result r = Cli.run(args);
      assertEquals(2, r.exit(), Arrays.toString(args) + ": " + r);
    }
    Cli.Result help = Cli.run("import", "--help");
    assertEquals(0, help.exit());
    assertTrue(help.out().contains("--arrow-only") && help.out().contains("--shard-rows"), help.out());
    assertTrue(Cli.run("--help").out().contains("import"));
  }

  /**
   * Every way an import can fail releases all the Arrow memory it took: the CLI's allocator closes at
   * zero, which it reports as a suppressed exception (printed by {@code --verbose}) when it does not.
   * Streams that break after a first good batch (truncated, a batch that declares LZ4, a batch longer
   * than its buffers), garbage, a truncated IPC file, a truncated JSON file, and the decimal widths Arrow Java cannot hold
   * (refused as unsupported, exit 3, as IPC and as JSON).
   */
  @Test
  void failedImportsReleaseAllArrowMemory(BufferAllocator allocator) throws Exception {
    Path json = ProjectPaths.fixture("primitives");
    Path stream = tmp.resolve("p.arrows");
    Path file = tmp.resolve("p.arrow");
    toIpc(json, stream, file, allocator);
    byte[] bytes = Files.readAllBytes(stream);
    Path gold = ArrowJsonFiles.goldenDir();
    List<Path> inputs = List.of(
        Files.write(tmp.resolve("truncated.arrows"), Arrays.copyOf(bytes, bytes.length - 100)),
        Files.write(tmp.resolve("garbage.arrows"), new byte[] {-1, -1, -1, -1, 16, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
        Files.write(tmp.resolve("lz4.arrows"), HandStreams.lz4MidStream(allocator)),
        Files.write(tmp.resolve("overlong.arrows"), HandStreams.overlongMidStream(allocator)),
        Files.write(tmp.resolve("truncated.arrow"), Arrays.copyOf(Files.readAllBytes(file), (int) Files.size(file) - 40)),
        Files.write(tmp.resolve("truncated.json"), Arrays.copyOf(Files.readAllBytes(ProjectPaths.fixture("dictionary")),
            (int) Files.size(ProjectPaths.fixture("dictionary")) * 2 / 3)),
        gold.resolve("generated_decimal32.stream"),
        gold.resolve("generated_decimal64.stream"),
        ArrowJsonFiles.plain(gold.resolve("generated_decimal32.json.gz"), tmp),
        ArrowJsonFiles.plain(gold.resolve("generated_decimal64.json.gz"), tmp));
    for (Path bad : inputs) {
      Cli.Result r = Cli.run("--verbose", "import", bad, tmp.resolve("store"), "t", "--chunk-rows", "2");
      assertEquals(3, r.exit(), bad + ": " + r);
      assertFalse(r.err().contains("leaked") || r.err().contains("Suppressed"), bad + ": all memory released: " + r);
    }
    for (Path decimal : inputs.subList(6, 10)) {
      Cli.Result r = Cli.run("import", decimal, tmp.resolve("store"), "t");
      assertTrue(r.err().contains("not supported") || r.err().contains("does not support"), "refused as unsupported: " + r);
    }
  }

  /** An IPC stream written by apache-arrow (npm): 35 columns, two batches sharing a dictionary. */
  @Test
  void importsAStreamWrittenByApacheArrow(BufferAllocator allocator) throws Exception {
    NodePeer.assumeAvailable();
    Path stream = tmp.resolve("js.arrows");
    JsonNode written = NodePeer.arrowWrite(stream);
    Path store = tmp.resolve("store");
    Cli.Result r = Cli.run("import", stream, store, "js", "--chunk-rows", "5");
    assertEquals(0, r.exit(), r.toString());
    JsonNode summary = Json.parse(r.out().getBytes(java.nio.charset.StandardCharsets.UTF_8), "stdout");
    assertEquals(written.get("num_rows").asLong(), summary.get("rows").asLong());
    assertEquals(written.get("schema").get("fields").size(), summary.get("columns").size());
    for (int i = 0; i < summary.get("columns").size(); i++) {
      assertEquals(written.at("/schema/fields/" + i + "/name").asText(), summary.at("/columns/" + i + "/name").asText());
    }
    assertEquals("weird_name___1", summary.at("/columns/34/node").asText(), summary.toString());
    assertTable(store, "js", stream, allocator);
    // And out again through zarrow export: apache-arrow reads back what it wrote (native and sharded tables).
    Cli.Result sharded = Cli.run("import", stream, store, "js_sharded", "--chunk-rows", "2", "--shard-rows", "4", "--arrow-only");
    assertEquals(0, sharded.exit(), sharded.toString());
    for (String table : List.of("js", "js_sharded")) {
      Path back = tmp.resolve(table + ".arrows");
      Cli.Result export = Cli.run("export", store, table, back);
      assertEquals(0, export.exit(), export.toString());
      JsonNode read = NodePeer.arrowRead(back);
      assertEquals(written.get("schema"), read.get("schema"), table + ": schema");
      assertEquals(written.get("num_rows"), read.get("num_rows"), table + ": rows");
      assertEquals(written.get("columns"), read.get("columns"), table + ": values");
    }
  }
}
