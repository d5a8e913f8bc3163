package dev.zarrow.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.Json;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.HandStreams;
import dev.zarrow.testing.StreamSnapshot;
import dev.zarrow.vector.JsonValueWriter;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrow's IPC reader against the truth: every Arrow gold stream reads as its JSON-integration twin
 * says (values, batch by batch, dictionaries resolved), and as Arrow Java reads it; IPC files; deltas
 * and replacements at any depth; ZSTD bodies; sparse unions shorter than their members; and every way
 * a stream can be broken is a {@link ZarrException} that leaves nothing allocated.
 */
@ExtendWith(AllocatorExtension.class)
class IpcReaderTest {
  @TempDir Path tmp;

  /** The stream of this case names the map's entries canonically (key, value); its JSON does not. */
  static final java.util.Set<String> STREAM_DIFFERS_FROM_JSON = java.util.Set.of("map_non_canonical");

  @TestFactory
  List<DynamicTest> everyGoldStreamReadsAsItsJsonSays() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.goldenStreams()) {
      String name = GoldStreams.caseName(stream);
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(allocator -> {
        if (GoldStreams.UNREADABLE.contains(name)) {
          UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class, () -> columns(stream, allocator));
          assertTrue(e.getMessage().contains("-bit decimal"), e.getMessage());
          return;
        }
        if (!STREAM_DIFFERS_FROM_JSON.contains(name)) {
          Path json = ArrowJsonFiles.plain(stream.resolveSibling("generated_" + name + ".json.gz"), Files.createTempDirectory(tmp, name));
          assertEquals(jsonColumns(json, allocator), columns(stream, allocator), name);
        }
        if (!GoldStreams.REPEATED_NAMES.contains(name)) {
          try (IpcReader reader = IpcReader.open(stream, allocator)) {
            assertEquals(GoldStreams.snapshotOf(Files.newInputStream(stream), allocator).columns(),
                StreamSnapshot.of(reader).columns(), name + ": as Arrow Java reads it");
          }
        }
      })));
    }
    return tests;
  }

  /** {@code stream} rewritten as an IPC file by Arrow Java. */
  private byte[] arrowJavaFile(Path stream, BufferAllocator allocator) throws Exception {
    Path file = Files.createTempFile(tmp, "java", ".arrow");
    try (ArrowStreamReader reader = new ArrowStreamReader(Files.newInputStream(stream), allocator);
        FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(reader.getVectorSchemaRoot(), reader, out)) {
      writer.start();
      while (reader.loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
    return Files.readAllBytes(file);
  }

  /** Gold streams rewritten as IPC files by Arrow Java read as the streams do. */
  @TestFactory
  List<DynamicTest> ipcFilesReadAsTheirStreams() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path stream : GoldStreams.goldenStreams()) {
      String name = GoldStreams.caseName(stream);
      if (GoldStreams.UNREADABLE.contains(name) || GoldStreams.REPEATED_NAMES.contains(name)) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(name, () -> ArrowJsonFiles.withAllocator(allocator -> {
        Path file = Files.write(tmp.resolve(name + ".arrow"), arrowJavaFile(stream, allocator));
        try (IpcReader reader = IpcReader.open(file, allocator)) {
          assertEquals(IpcReader.Format.FILE, reader.format());
          assertEquals(columns(stream, allocator), StreamSnapshot.of(reader).columns(), name);
        }
      })));
    }
    return tests;
  }

  @Test
  void nestedDictionaryDeltasAndReplacementsReadAsArrowJavaReadsThem(BufferAllocator allocator) throws Exception {
    byte[] stream = HandStreams.nestedDictionaries(allocator);
    Path file = Files.write(tmp.resolve("nested.arrows"), stream);
    StreamSnapshot java = GoldStreams.snapshotOf(new ByteArrayInputStream(stream), allocator);
    try (IpcReader reader = IpcReader.open(file, allocator)) {
      assertEquals(IpcReader.Format.STREAM, reader.format());
      StreamSnapshot zarrow = StreamSnapshot.of(reader);
      assertEquals(java.columns(), zarrow.columns());
      assertEquals(15, zarrow.rows());
      assertEquals(HandStreams.nestedDictionarySchema(), reader.storedSchema());
    }
  }

  @Test
  void readsZstdBodies(BufferAllocator allocator) throws Exception {
    Path file = Files.write(tmp.resolve("zstd.arrows"), HandStreams.zstd(allocator));
    try (IpcReader reader = IpcReader.open(file, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<String> rows = new ArrayList<>();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          rows.add(((IntVector) root.getVector(0)).get(i) + " " + ((VarCharVector) root.getVector(1)).getObject(i));
        }
      }
      assertEquals(List.of("0 row 0", "10 row 1", "20 row 2", "0 row 0", "10 row 1"), rows);
    }
  }

  /** A sparse union whose members end where their last selected element is, as apache-arrow writes them. */
  @Test
  void sparseUnionMembersShorterThanTheUnion(BufferAllocator allocator) throws Exception {
    Path file = Files.write(tmp.resolve("union.arrows"), HandStreams.shortUnionMembers(allocator));
    try (IpcReader reader = IpcReader.open(file, allocator)) {
      assertTrue(reader.loadNextBatch());
      UnionVector union = (UnionVector) reader.getVectorSchemaRoot().getVector(0);
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < union.getValueCount(); i++) {
        values.add(String.valueOf(union.getObject(i)));
      }
      assertEquals(List.of("1", "a", "2", "null", "bb", "c"), values);
      assertFalse(reader.loadNextBatch());
    }
  }

  /**
   * Broken input: every prefix of a valid stream (cut at every byte; a cut between two messages is
   * a shorter valid stream), a flipped bit, garbage, a batch declaring LZ4 or lengths beyond its
   * buffers after a good batch, 32-bit decimals, a file without the end of its footer. Each is read
   * or refused with a {@link ZarrException} (corrupt or unsupported), and once the reader is closed
   * its allocator is back at zero.
   */
  @Test
  void brokenInputIsAZarrExceptionAndLeavesNothingAllocated(BufferAllocator allocator) throws Exception {
    byte[] nested = HandStreams.nestedDictionaries(allocator);
    List<byte[]> mayRead = new ArrayList<>();
    for (int n = 0; n < nested.length - 8; n++) {
      mayRead.add(Arrays.copyOf(nested, n));
    }
    byte[] flipped = nested.clone();
    flipped[flipped.length / 2] ^= 0x40;
    mayRead.add(flipped);
    byte[] file = arrowJavaFile(ArrowJsonFiles.goldenDir().resolve("generated_primitive.stream"), allocator);
    List<byte[]> mustFail = List.of(
        "not arrow at all, not at all".getBytes(),
        new byte[] {-1, -1, -1, -1, 16, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
        HandStreams.lz4MidStream(allocator),
        HandStreams.overlongMidStream(allocator),
        Files.readAllBytes(ArrowJsonFiles.goldenDir().resolve("generated_decimal32.stream")),
        Arrays.copyOf(file, file.length - 3),
        Arrays.copyOf(file, file.length / 2),
        Arrays.copyOf(nested, nested.length / 3));
    int failed = 0;
    for (List<byte[]> inputs : List.of(mayRead, mustFail)) {
      for (byte[] input : inputs) {
        if (read(input)) {
          assertTrue(inputs == mayRead, input.length + " bytes must be refused");
        } else {
          failed++;
        }
      }
    }
    assertTrue(failed > mayRead.size() / 2, failed + " of " + (mayRead.size() + mustFail.size()) + " refused");
  }

  /**
   * A stream of unknown length (standard input) reads as the same bytes in a file do; cut anywhere it
   * is read or refused with nothing left allocated; and lengths it cannot vouch for (a body of 2 GB
   * in a message of a few bytes) cost only the bytes that arrive.
   */
  @Test
  void aStreamOfUnknownLengthReadsAsItArrives(BufferAllocator allocator) throws Exception {
    byte[] nested = HandStreams.nestedDictionaries(allocator);
    try (IpcReader fromFile = IpcReader.open(Files.write(tmp.resolve("n.arrows"), nested), allocator);
        IpcReader piped = IpcReader.stream(new ByteArrayInputStream(nested), "stdin", allocator)) {
      assertEquals(StreamSnapshot.of(fromFile), StreamSnapshot.of(piped));
    }
    for (int n = 0; n < nested.length; n += 7) {
      byte[] cut = Arrays.copyOf(nested, n);
      try (RootAllocator own = new RootAllocator()) {
        try (IpcReader reader = IpcReader.stream(new ByteArrayInputStream(cut), "stdin", own)) {
          while (reader.loadNextBatch()) {
            continue;
          }
        } catch (ZarrException e) {
          assertTrue(e instanceof CorruptChunkException, e.toString());
        }
        assertEquals(0, own.getAllocatedMemory(), n + " bytes: all released");
      }
    }
    // A record batch that says its body is 2 GB, followed by 100 bytes.
    byte[] schemaAndBatch = HandStreams.lz4MidStream(allocator);
    IpcMessages messages = new IpcMessages(java.nio.ByteBuffer.wrap(schemaAndBatch));
    IpcMessages.Msg schema = messages.next();
    IpcMessages.Msg batch = messages.next();
    int lengthAt = (int) (schema.bodyStart() + schema.bodyLength());
    byte[] liar = Arrays.copyOf(schemaAndBatch, (int) batch.bodyStart() + 100);
    patchBodyLength(liar, lengthAt, batch, Integer.MAX_VALUE - 100);
    try (RootAllocator own = new RootAllocator()) {
      try (IpcReader reader = IpcReader.stream(new ByteArrayInputStream(liar), "stdin", own)) {
        CorruptChunkException e = assertThrows(CorruptChunkException.class, reader::loadNextBatch);
        assertTrue(e.getMessage().contains("ends inside the body"), e.getMessage());
      }
      assertTrue(own.getPeakMemoryAllocation() < 8 << 20, "peak " + own.getPeakMemoryAllocation());
      assertEquals(0, own.getAllocatedMemory());
    }
  }

  /** Rewrites, in place, the body length of message {@code m} (starting at {@code at}) to {@code length}. */
  private static void patchBodyLength(byte[] stream, int at, IpcMessages.Msg m, long length) {
    long old = m.bodyLength();
    // The flatbuffer stores bodyLength as a little-endian int64: find its bytes in the metadata.
    for (int i = at; i + 8 <= m.bodyStart(); i++) {
      if (java.nio.ByteBuffer.wrap(stream, i, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong() == old) {
        java.nio.ByteBuffer.wrap(stream, i, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(length);
        return;
      }
    }
    throw new AssertionError("no body length " + old + " in the metadata");
  }

  /** Reads {@code input} to its end with an allocator of its own; false when refused. Fails on a leak or another exception. */
  private boolean read(byte[] input) throws Exception {
    Path path = Files.write(tmp.resolve("input.arrows"), input);
    try (RootAllocator own = new RootAllocator()) {
      try {
        try (IpcReader reader = IpcReader.open(path, own)) {
          while (reader.loadNextBatch()) {
            continue;
          }
        }
        return true;
      } catch (ZarrException e) {
        assertTrue(e instanceof CorruptChunkException || e instanceof UnsupportedExtensionException, e.toString());
        return false;
      } finally {
        assertEquals(0, own.getAllocatedMemory(), input.length + " bytes: all released");
      }
    }
  }

  /** Every column of the stream (or file) read by zarrow's reader, as JSON text per column. */
  private static List<String> columns(Path ipc, BufferAllocator allocator) throws Exception {
    try (IpcReader reader = IpcReader.open(ipc, allocator)) {
      return StreamSnapshot.of(reader).columns();
    }
  }

  /** Every column of a JSON-integration file, read by Arrow Java into zarrow's vectors, as {@link #columns} writes them. */
  private static List<String> jsonColumns(Path json, BufferAllocator allocator) throws Exception {
    try (JsonFileReader reader = new JsonFileReader(json.toFile(), allocator)) {
      Schema memory = reader.start();
      List<StringWriter> texts = new ArrayList<>();
      List<JsonGenerator> generators = new ArrayList<>();
      for (int c = 0; c < memory.getFields().size(); c++) {
        StringWriter text = new StringWriter();
        JsonGenerator g = Json.FACTORY.createGenerator(text);
        g.writeStartArray();
        texts.add(text);
        generators.add(g);
      }
      for (VectorSchemaRoot next = ArrowJsonFiles.nextBatch(reader, memory, allocator); next != null;
          next = ArrowJsonFiles.nextBatch(reader, memory, allocator)) {
        try (VectorSchemaRoot batch = next) {
          for (int c = 0; c < generators.size(); c++) {
            new JsonValueWriter(generators.get(c), reader).writeAll(batch.getVector(c));
          }
        }
      }
      List<String> out = new ArrayList<>();
      for (int c = 0; c < generators.size(); c++) {
        generators.get(c).writeEndArray();
        generators.get(c).close();
        out.add(texts.get(c).toString());
      }
      return out;
    }
  }
}
