package dev.zarrow.table;

import static dev.zarrow.testing.ArrowJsonFiles.withAllocator;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.store.FileSystemStore;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Arrow JSON-integration fixture and every gold stream Arrow Java reads becomes a group table,
 * checked against the source: the stored schema JSON, and each array's values batch by batch
 * (dictionary columns decoded). Each file is written twice: small chunks with native types (chunks
 * cut across the source's batches), and {@code arrow}-only in shards of three inner chunks.
 */
class TableWriterFilesTest {
  @TempDir Path tmp;

  /** Gold cases Arrow Java cannot read as IPC (README of the gold files). */
  static final List<String> UNREADABLE = List.of("decimal32", "decimal64");

  static final TableOptions SMALL = TableOptions.defaults().withChunkRows(3);
  static final TableOptions SHARDED = TableOptions.defaults().withChunkRows(2).withShardRows(6).withNativeTypes(false);

  @TestFactory
  Stream<DynamicTest> fixtures() {
    return ArrowJsonFiles.fixtureFiles().stream()
        .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> withAllocator(a -> fromJson(f, a))));
  }

  @TestFactory
  Stream<DynamicTest> goldenStreams() {
    return ArrowJsonFiles.goldenFiles().stream()
        .map(ArrowJsonFiles::caseName)
        .filter(c -> !UNREADABLE.contains(c))
        .map(c -> DynamicTest.dynamicTest(c, () -> withAllocator(a -> fromStream(c, a))));
  }

  /** Through the incremental API, as {@code zarrow import} reads JSON: the schema exactly as the file spells it. */
  private void fromJson(Path file, BufferAllocator allocator) throws Exception {
    JsonNode schemaJson = ArrowJsonFiles.read(file).get("schema");
    Schema schema = FieldJson.parseSchema(schemaJson);
    for (TableOptions options : List.of(SMALL, SHARDED)) {
      Path dir = Files.createTempDirectory(tmp, "t");
      List<List<FieldVector>> expected = new ArrayList<>();
      try (FileSystemStore store = FileSystemStore.open(dir);
          JsonFileReader reader = new JsonFileReader(file.toFile(), allocator)) {
        Schema memory = reader.start();
        ZarrGroup group = Zarr.createGroup(store, "table");
        try (TableWriter writer = TableWriter.create(group, schema, options, allocator)) {
          for (VectorSchemaRoot next = ArrowJsonFiles.nextBatch(reader, memory, allocator); next != null;
              next = ArrowJsonFiles.nextBatch(reader, memory, allocator)) {
            try (VectorSchemaRoot b = next) {
              writer.append(b, reader);
              expected.add(TableChecks.decodedColumns(b, schema, reader, allocator));
            }
          }
          group = writer.finish();
        }
        TableLayout layout = TableChecks.assertLayout(group, schema);
        assertEquals(schemaJson.get("metadata"), group.attributes().at("/zarrow_table/schema/metadata").isMissingNode()
            ? null : group.attributes().at("/zarrow_table/schema/metadata"), "schema metadata in the file's order");
        TableChecks.assertColumns(group, layout, expected, allocator);
      } finally {
        expected.forEach(b -> b.forEach(FieldVector::close));
      }
    }
  }

  /**
   * Through {@link TableWriter#write(ZarrGroup, org.apache.arrow.vector.ipc.ArrowReader, TableOptions)}
   * from zarrow's {@link IpcReader}, against what Arrow Java's reader reads (zarrow's for the cases
   * Arrow Java's readers lose children of, {@link GoldStreams#REPEATED_NAMES}).
   */
  private void fromStream(String name, BufferAllocator allocator) throws Exception {
    Path stream = ArrowJsonFiles.goldenDir().resolve("generated_" + name + ".stream");
    for (TableOptions options : List.of(SMALL, SHARDED)) {
      Path dir = Files.createTempDirectory(tmp, name);
      List<List<FieldVector>> expected = new ArrayList<>();
      try (FileSystemStore store = FileSystemStore.open(dir)) {
        ZarrGroup group;
        Schema schema;
        try (IpcReader reader = IpcReader.open(stream, allocator)) {
          group = TableWriter.write(Zarr.createGroup(store, ""), reader, options, allocator);
          assertEquals(0, reader.loadNextBatch() ? 1 : 0, "the source was read to its end");
          // The schema message as Arrow Java converts it (its readers' own schema would name the
          // children of lists inside dictionaries $data$).
          schema = reader.storedSchema();
        }
        try (ArrowReader again = GoldStreams.REPEATED_NAMES.contains(name) ? IpcReader.open(stream, allocator)
            : new ArrowStreamReader(new FileInputStream(stream.toFile()), allocator)) {
          while (again.loadNextBatch()) {
            expected.add(TableChecks.decodedColumns(again.getVectorSchemaRoot(), schema, again, allocator));
          }
        }
        TableLayout layout = TableChecks.assertLayout(group, schema);
        TableChecks.assertColumns(group, layout, expected, allocator);
      } finally {
        expected.forEach(b -> b.forEach(FieldVector::close));
      }
    }
  }
}
