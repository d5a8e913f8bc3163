package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.ZarrGroup;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.StreamSnapshot;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.ipc.IpcStreamWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Arrow gold IPC stream that Arrow Java reads: read by zarrow's {@link IpcReader} into a group
 * table ({@link TableWriter#write}), out through {@link TableReader} and {@link IpcStreamWriter}, and
 * read back by Arrow Java equal to what Arrow Java reads from the original: the stored schema's JSON
 * text identical, every column's values (dictionaries resolved) identical. Struct children that
 * repeat a name, which Arrow Java's readers lose, are read with zarrow's reader on both sides. Batches cross chunk edges (chunks of 7 rows; the files' batches are longer). The
 * project's own JSON-integration fixtures ({@code arrow-json-fixtures/}) likewise.
 */
class ExportRoundTripTest {
  @TestFactory
  List<DynamicTest> everyReadableGoldStreamRoundTrips() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.goldenStreams()) {
      String name = GoldStreams.caseName(stream);
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(allocator -> {
        if (GoldStreams.UNREADABLE.contains(name)) {
          assertThrows(Exception.class, () -> GoldStreams.snapshotOf(Files.newInputStream(stream), allocator));
          assertThrows(dev.zarrow.error.UnsupportedExtensionException.class, () -> roundTrip(stream, allocator, 7, 0));
          return;
        }
        StreamSnapshot original = GoldStreams.snapshot(stream, name, allocator);
        StreamSnapshot back = snapshot(roundTrip(stream, allocator, 7, 0), name, allocator);
        assertEquals(original.schema(), back.schema(), name + ": schema");
        assertEquals(original.rows(), back.rows(), name + ": rows");
        for (int c = 0; c < original.columns().size(); c++) {
          assertEquals(original.columns().get(c), back.columns().get(c), name + ": column " + c);
        }
        // Batches of another size, across chunk edges; every column of the arrow type; sharded.
        StreamSnapshot again = snapshot(roundTrip(stream, allocator,
            TableOptions.defaults().withChunkRows(4).withNativeTypes(false), 5), name, allocator);
        assertEquals(original, again, name + ": arrow types only, in batches of 5 rows over chunks of 4");
        StreamSnapshot sharded = snapshot(roundTrip(stream, allocator,
            TableOptions.defaults().withChunkRows(3).withShardRows(9), 0), name, allocator);
        assertEquals(original, sharded, name + ": sharded");
      })));
    }
    return tests;
  }

  /**
   * Sparse unions with their own type ids (the gold file's 5 and 7): every batch, clipped edge chunks
   * and multi-chunk and sharded reads included, holds only those ids in its type buffer (Arrow Java's
   * {@code UnionVector.getField()} reports its own type ordinals instead, which must never leak in).
   */
  @org.junit.jupiter.api.Test
  void sparseUnionTypeIdsSurviveEveryReadPath() throws Exception {
    Path stream = ArrowJsonFiles.goldenDir().resolve("generated_union.stream");
    for (TableOptions options : List.of(TableOptions.defaults().withChunkRows(4),
        TableOptions.defaults().withChunkRows(3).withShardRows(9))) {
      for (int batchRows : new int[] {0, 5}) {
        ArrowJsonFiles.withAllocator(allocator -> {
          MemoryStore store = new MemoryStore();
          ZarrGroup group;
          try (InputStream in = Files.newInputStream(stream); ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
            group = TableWriter.write(dev.zarrow.Zarr.createGroup(store, "u"), reader, options, allocator);
          }
          int checked = 0;
          try (ArrowReader reader = TableReader.of(group, allocator, null, batchRows)) {
            while (reader.loadNextBatch()) {
              for (org.apache.arrow.vector.FieldVector v : reader.getVectorSchemaRoot().getFieldVectors()) {
                if (v instanceof org.apache.arrow.vector.complex.UnionVector union) {
                  Set<Integer> declared = Set.of(5, 7);
                  for (int i = 0; i < union.getValueCount(); i++) {
                    int id = union.getTypeBuffer().getByte(i);
                    org.junit.jupiter.api.Assertions.assertTrue(declared.contains(id),
                        v.getField().getName() + " row " + i + ": type id " + id + " with " + options + ", batchRows " + batchRows);
                    checked++;
                  }
                }
              }
            }
          }
          assertEquals(22, checked);
        });
      }
    }
  }

  @TestFactory
  List<DynamicTest> everyJsonFixtureRoundTrips(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path json : ArrowJsonFiles.fixtureFiles()) {
      tests.add(DynamicTest.dynamicTest(json.getFileName().toString(), () -> ArrowJsonFiles.withAllocator(allocator -> {
        Path stream = tmp.resolve(json.getFileName() + ".stream");
        Files.write(stream, GoldStreams.jsonToStream(json, allocator));
        StreamSnapshot original = GoldStreams.snapshotOf(Files.newInputStream(stream), allocator);
        assertEquals(original, GoldStreams.snapshotOf(new ByteArrayInputStream(roundTrip(stream, allocator, 3, 0)), allocator));
        assertEquals(original, GoldStreams.snapshotOf(new ByteArrayInputStream(roundTrip(stream, allocator, 2, 3)), allocator));
      })));
    }
    return tests;
  }

  /** What {@code exported} holds, read as {@link GoldStreams#snapshot} reads gold case {@code name}. */
  private static StreamSnapshot snapshot(byte[] exported, String name, BufferAllocator allocator) throws Exception {
    Path file = Files.createTempFile("export", ".arrows");
    try {
      return GoldStreams.snapshot(Files.write(file, exported), name, allocator);
    } finally {
      Files.delete(file);
    }
  }

  /** The stream imported into a table of chunks of {@code chunkRows}, exported in batches of {@code batchRows}. */
  static byte[] roundTrip(Path stream, BufferAllocator allocator, int chunkRows, int batchRows) throws Exception {
    return roundTrip(stream, allocator, TableOptions.defaults().withChunkRows(chunkRows), batchRows);
  }

  /**
   * The stream read by zarrow's {@link IpcReader} and written by {@link TableWriter#write} with {@code
   * options}, exported by {@link IpcStreamWriter} in batches of {@code batchRows}.
   */
  static byte[] roundTrip(Path stream, BufferAllocator allocator, TableOptions options, int batchRows) throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrGroup group;
    try (IpcReader reader = IpcReader.open(stream, allocator)) {
      group = TableWriter.write(dev.zarrow.Zarr.createGroup(store, "table"), reader, options, allocator);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ArrowReader reader = TableReader.of(group, allocator, null, batchRows);
        IpcStreamWriter writer = new IpcStreamWriter(reader, Channels.newChannel(out))) {
      writer.start();
      while (reader.loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
    return out.toByteArray();
  }
}
