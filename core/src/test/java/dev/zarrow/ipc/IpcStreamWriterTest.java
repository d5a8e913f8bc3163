package dev.zarrow.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.GoldStreams;
import dev.zarrow.testing.HandStreams;
import dev.zarrow.testing.StreamSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which dictionaries {@link IpcStreamWriter} writes before each batch, and in what order: inner ones
 * first, a dictionary again only when its bytes changed or a dictionary inside it was just written;
 * and the schema exactly as stored.
 */
@ExtendWith(AllocatorExtension.class)
class IpcStreamWriterTest {
  @TempDir Path tmp;

  private static final ArrowType.Int INT8 = new ArrowType.Int(8, true);
  private static final DictionaryEncoding WORDS = new DictionaryEncoding(2, false, INT8);
  private static final DictionaryEncoding LISTS = new DictionaryEncoding(1, false, INT8);

  @Test
  void innerDictionariesComeFirstAndEnclosingOnesFollowTheirChanges(BufferAllocator allocator) throws Exception {
    Field item = new Field("word", new FieldType(true, ArrowType.Utf8.INSTANCE, WORDS), List.of());
    Field column = new Field("c", new FieldType(true, ArrowType.List.INSTANCE, LISTS), List.of(item));
    Schema schema = new Schema(List.of(column));
    try (VarCharVector words = new VarCharVector("DICT2", allocator);
        ListVector lists = (ListVector) new Field("DICT1", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(new Field("word", new FieldType(true, INT8, WORDS), List.of()))).createVector(allocator);
        TinyIntVector indexes = (TinyIntVector) new Field("c", new FieldType(true, INT8, LISTS), List.of()).createVector(allocator);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(indexes))) {
      set(words, "a", "b");
      lists.allocateNew();
      TinyIntVector items = (TinyIntVector) lists.getDataVector();
      lists.startNewValue(0);
      items.setSafe(0, 0);
      items.setSafe(1, 1);
      lists.endValue(0, 2);
      lists.startNewValue(1);
      items.setSafe(2, 1);
      lists.endValue(1, 1);
      items.setValueCount(3);
      lists.setValueCount(2);
      indexes.setSafe(0, 0);
      indexes.setSafe(1, 1);
      indexes.setValueCount(2);
      root.setRowCount(2);
      DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider(
          new Dictionary(lists, LISTS), new Dictionary(words, WORDS));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (IpcStreamWriter writer = new IpcStreamWriter(schema, root, provider, Channels.newChannel(out))) {
        writer.writeBatch();
        writer.writeBatch(); // nothing changed: no dictionary
        set(words, "a", "B"); // only the inner dictionary changes: the lists must follow it
        writer.writeBatch();
      }
      assertEquals(List.of("schema", "dictionary 2", "dictionary 1", "batch", "batch", "dictionary 2", "dictionary 1", "batch"),
          messages(out.toByteArray()));
      StreamSnapshot read = GoldStreams.snapshotOf(new ByteArrayInputStream(out.toByteArray()), allocator);
      assertEquals("[[\"a\",\"b\"],[\"b\"],[\"a\",\"b\"],[\"b\"],[\"a\",\"B\"],[\"B\"]]", read.columns().get(0));
    }
  }

  /** Deltas and replacements at every depth ({@link HandStreams#nestedDictionaries}) come out as replacements, inner first. */
  @Test
  void rewritesWhatIpcReaderReads(BufferAllocator allocator) throws Exception {
    Path stream = Files.write(tmp.resolve("nested.arrows"), HandStreams.nestedDictionaries(allocator));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (IpcReader reader = IpcReader.open(stream, allocator);
        IpcStreamWriter writer = new IpcStreamWriter(reader, Channels.newChannel(out))) {
      while (reader.loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
    assertEquals(List.of("schema",
        "dictionary 3", "dictionary 2", "dictionary 1", "batch",
        "dictionary 3", "dictionary 2", "dictionary 1", "batch",
        "dictionary 3", "dictionary 2", "dictionary 1", "batch",
        "dictionary 1", "batch"), messages(out.toByteArray()));
    try (IpcReader back = IpcReader.open(Files.write(tmp.resolve("back.arrows"), out.toByteArray()), allocator)) {
      assertEquals(HandStreams.nestedDictionarySchema(), back.storedSchema(), "the schema exactly");
      assertEquals(GoldStreams.snapshotOf(Files.newInputStream(stream), allocator).columns(), StreamSnapshot.of(back).columns());
    }
  }

  /** An IPC file: Arrow Java's ArrowFileReader finds every batch through the footer, in any order. */
  @Test
  void writesAnIpcFileReadInAnyOrder(BufferAllocator allocator) throws Exception {
    Path stream = GoldStreams.roundTrippableStreams().stream().filter(p -> GoldStreams.caseName(p).equals("primitive"))
        .findFirst().orElseThrow();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int batches = 0;
    try (IpcReader reader = IpcReader.open(stream, allocator);
        IpcStreamWriter writer = IpcStreamWriter.file(reader, Channels.newChannel(out))) {
      while (reader.loadNextBatch()) {
        writer.writeBatch();
        batches++;
      }
    }
    Path file = Files.write(tmp.resolve("primitive.arrow"), out.toByteArray());
    List<String> inOrder = new ArrayList<>();
    try (ArrowFileReader reader = new ArrowFileReader(Files.newByteChannel(file), allocator)) {
      List<ArrowBlock> blocks = reader.getRecordBlocks();
      assertEquals(batches, blocks.size());
      for (int i = blocks.size() - 1; i >= 0; i--) { // last first: random access
        reader.loadRecordBatch(blocks.get(i));
        inOrder.add(0, reader.getVectorSchemaRoot().contentToTSVString());
      }
    }
    List<String> expected = new ArrayList<>();
    try (ArrowStreamReader reader = new ArrowStreamReader(Files.newInputStream(stream), allocator)) {
      while (reader.loadNextBatch()) {
        expected.add(reader.getVectorSchemaRoot().contentToTSVString());
      }
    }
    assertEquals(expected, inOrder);
  }

  /** A file cannot replace a dictionary: the writer refuses the batch that would need it. */
  @Test
  void anIpcFileRefusesADictionaryReplacement(BufferAllocator allocator) throws Exception {
    Path stream = Files.write(tmp.resolve("nested.arrows"), HandStreams.nestedDictionaries(allocator));
    try (IpcReader reader = IpcReader.open(stream, allocator);
        IpcStreamWriter writer = IpcStreamWriter.file(reader, Channels.newChannel(new ByteArrayOutputStream()))) {
      assertTrue(reader.loadNextBatch());
      writer.writeBatch();
      assertTrue(reader.loadNextBatch());
      IllegalStateException e = assertThrows(IllegalStateException.class, writer::writeBatch);
      assertTrue(e.getMessage().startsWith("an Arrow IPC file cannot replace a dictionary, and dictionary 3 changes at batch 2"),
          e.getMessage());
    }
  }

  private static void set(VarCharVector v, String... values) {
    v.reset();
    for (int i = 0; i < values.length; i++) {
      v.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
    }
    v.setValueCount(values.length);
  }

  /** The kinds of the messages of {@code stream}: schema, dictionary ID, batch. */
  private static List<String> messages(byte[] stream) {
    List<String> out = new ArrayList<>();
    IpcMessages messages = new IpcMessages(ByteBuffer.wrap(stream));
    for (IpcMessages.Msg m = messages.next(); m != null; m = messages.next()) {
      out.add(switch (m.headerType()) {
        case MessageHeader.Schema -> "schema";
        case MessageHeader.DictionaryBatch -> "dictionary " + m.header(new DictionaryBatch()).id();
        case MessageHeader.RecordBatch -> "batch";
        default -> m.kind();
      });
    }
    return out;
  }
}
