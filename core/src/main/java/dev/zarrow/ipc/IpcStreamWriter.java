package dev.zarrow.ipc;

import dev.zarrow.vector.Dictionaries;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowFooter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;

/**
 * Writes an Arrow IPC stream of a root's batches (uncompressed, metadata V5) so that every reader
 * reads the same values, nested dictionaries included.
 *
 * <p>Before each batch, a dictionary is written when its message differs from the one last written
 * for its id, or when a dictionary its values point into was just written; inner dictionaries always
 * come first. apache-arrow (JS) binds a nested dictionary when the enclosing one arrives, so the
 * inner one must be there already, and the enclosing one must come again after the inner one
 * changes. The schema message is the stored schema as given, exactly. (Arrow Java's {@code
 * ArrowStreamWriter} writes dictionaries in the order of a hash set of ids, compares each alone, by
 * child name, and derives the schema of dictionary values from the vectors, whose list children
 * Arrow Java names {@code $data$}.)
 *
 * <p>{@link #file} writes the same messages as an Arrow IPC file (random access): the magic {@code
 * ARROW1}, the stream, and a footer that locates every dictionary and batch. A file cannot replace a
 * dictionary, so there a dictionary that changes after it was written is an {@link
 * IllegalStateException} (write such data in one batch, or as a stream).
 *
 * <p>The root and the dictionaries are borrowed. Closing the writer ends the stream (when started)
 * and closes the channel.
 */
public final class IpcStreamWriter implements AutoCloseable {
  private final Schema schema;
  private final VectorSchemaRoot root;
  private final DictionaryProvider dictionaries;
  private final List<Long> ids;
  private final WriteChannel out;
  private final IpcOption option = IpcOption.DEFAULT;
  /** Where the file's dictionaries and batches are, for its footer; null when writing a stream. */
  private final List<ArrowBlock> dictionaryBlocks;
  private final List<ArrowBlock> batchBlocks;
  /** The bytes of the dictionary message last written for each id. */
  private final Map<Long, byte[]> written = new HashMap<>();
  private boolean started;
  private boolean ended;

  /**
   * A writer of {@code reader}'s batches as they are loaded: its root, its dictionaries and, for
   * zarrow's readers ({@link SchemaRootReader}), its stored schema exactly; for other readers, the
   * schema Arrow Java derives from the root and the dictionaries.
   */
  public IpcStreamWriter(ArrowReader reader, WritableByteChannel out) throws IOException {
    this(storedSchema(reader), reader.getVectorSchemaRoot(), reader, out, false);
  }

  /** A writer of {@code reader}'s batches as an Arrow IPC file, as {@link #IpcStreamWriter(ArrowReader, WritableByteChannel)}. */
  public static IpcStreamWriter file(ArrowReader reader, WritableByteChannel out) throws IOException {
    return new IpcStreamWriter(storedSchema(reader), reader.getVectorSchemaRoot(), reader, out, true);
  }

  /**
   * A writer of {@code root}'s batches, whose columns are {@code schema}'s fields in stored form
   * (dictionary-encoded levels with their value types; the root holds their indexes, {@code
   * dictionaries} their values).
   */
  public IpcStreamWriter(Schema schema, VectorSchemaRoot root, DictionaryProvider dictionaries, WritableByteChannel out) {
    this(schema, root, dictionaries, out, false);
  }

  private IpcStreamWriter(Schema schema, VectorSchemaRoot root, DictionaryProvider dictionaries, WritableByteChannel out,
      boolean file) {
    this.dictionaryBlocks = file ? new ArrayList<>() : null;
    this.batchBlocks = file ? new ArrayList<>() : null;
    this.schema = schema;
    this.root = root;
    this.dictionaries = dictionaries;
    this.ids = innerFirst(Dictionaries.valueFields(
        new Field("", FieldType.nullable(ArrowType.Struct.INSTANCE), schema.getFields())).keySet(), dictionaries);
    this.out = new WriteChannel(out);
  }

  private static Schema storedSchema(ArrowReader reader) throws IOException {
    if (reader instanceof SchemaRootReader own) {
      return own.storedSchema();
    }
    Schema memory = reader.getVectorSchemaRoot().getSchema();
    List<Field> fields = new ArrayList<>();
    for (Field field : memory.getFields()) {
      fields.add(DictionaryUtility.toMessageFormat(field, reader, new HashSet<>()));
    }
    return new Schema(fields, memory.getCustomMetadata());
  }

  /** Writes the schema message (once; {@link #writeBatch} starts the stream when needed); a file's magic first. */
  public void start() throws IOException {
    if (!started) {
      started = true;
      if (batchBlocks != null) {
        out.write(IpcReader.MAGIC); // "ARROW1", padded to 8 bytes
        out.align();
      }
      MessageSerializer.serialize(out, schema, option);
    }
  }

  /** Writes the dictionaries that changed, then the batch the root holds now. */
  public void writeBatch() throws IOException {
    if (ended) {
      throw new IllegalStateException("the stream has ended");
    }
    start();
    writeDictionaries();
    try (ArrowRecordBatch batch = new VectorUnloader(root, true, NoCompressionCodec.INSTANCE, true).getRecordBatch()) {
      ArrowBlock block = MessageSerializer.serialize(out, batch, option);
      if (batchBlocks != null) {
        batchBlocks.add(block);
      }
    }
  }

  /** Writes the end-of-stream marker (once); for a file, then its footer and magic. */
  public void end() throws IOException {
    start();
    if (!ended) {
      ended = true;
      ArrowStreamWriter.writeEndOfStream(out, option);
      if (batchBlocks != null) {
        long footerStart = out.getCurrentPosition();
        out.write(new ArrowFooter(schema, dictionaryBlocks, batchBlocks), false);
        out.writeIntLittleEndian(Math.toIntExact(out.getCurrentPosition() - footerStart));
        out.write(IpcReader.MAGIC);
      }
    }
  }

  /** The bytes written so far. */
  public long bytesWritten() {
    return out.getCurrentPosition();
  }

  /** Ends the stream if it was started, then closes the channel. */
  @Override
  public void close() throws IOException {
    try {
      if (started) {
        end();
      }
    } finally {
      out.close();
    }
  }

  private void writeDictionaries() throws IOException {
    Set<Long> sent = new HashSet<>();
    for (long id : ids) {
      Dictionary dictionary = dictionaries.lookup(id);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ArrowBlock block = message(id, dictionary.getVector(), bytes);
      byte[] message = bytes.toByteArray();
      boolean innerSent = inner(dictionary).stream().anyMatch(sent::contains);
      if (!innerSent && Arrays.equals(message, written.get(id))) {
        continue;
      }
      if (dictionaryBlocks != null) {
        if (written.containsKey(id)) {
          throw new IllegalStateException("an Arrow IPC file cannot replace a dictionary, and dictionary " + id
              + " changes at batch " + (batchBlocks.size() + 1) + ": write such data in one batch, or as a stream");
        }
        dictionaryBlocks.add(new ArrowBlock(out.getCurrentPosition(), block.getMetadataLength(), block.getBodyLength()));
      }
      out.write(message);
      written.put(id, message);
      sent.add(id);
    }
  }

  /** {@code ids} in an order where a dictionary follows every dictionary its values point into. */
  private static List<Long> innerFirst(Set<Long> ids, DictionaryProvider provider) {
    List<Long> order = new ArrayList<>();
    Set<Long> placed = new HashSet<>();
    for (long id : new TreeSet<>(ids)) {
      place(id, provider, order, placed, new LinkedHashSet<>());
    }
    return order;
  }

  private static void place(long id, DictionaryProvider provider, List<Long> order, Set<Long> placed, Set<Long> open) {
    if (placed.contains(id)) {
      return;
    }
    if (!open.add(id)) {
      throw new IllegalArgumentException("dictionaries " + open + " point into each other");
    }
    Dictionary dictionary = provider == null ? null : provider.lookup(id);
    if (dictionary == null) {
      throw new IllegalArgumentException("the schema uses dictionary " + id + ", which the provider does not have");
    }
    for (long inner : inner(dictionary)) {
      place(inner, provider, order, placed, open);
    }
    open.remove(id);
    placed.add(id);
    order.add(id);
  }

  /** The ids of the dictionaries that {@code dictionary}'s values are encoded with. */
  private static Set<Long> inner(Dictionary dictionary) {
    Set<Long> ids = new TreeSet<>();
    for (Field child : dictionary.getVector().getField().getChildren()) {
      idsIn(child, ids);
    }
    return ids;
  }

  private static void idsIn(Field field, Set<Long> ids) {
    if (field.getDictionary() != null) {
      ids.add(field.getDictionary().getId());
      return; // an index: its values are that dictionary's
    }
    for (Field child : field.getChildren()) {
      idsIn(child, ids);
    }
  }

  /** Writes the dictionary batch message of {@code vector} as dictionary {@code id} to {@code bytes}; its block there. */
  private ArrowBlock message(long id, FieldVector vector, ByteArrayOutputStream bytes) throws IOException {
    // Not closed: closing the root would close the provider's vector.
    VectorSchemaRoot values = new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), vector.getValueCount());
    ArrowRecordBatch batch = new VectorUnloader(values, true, NoCompressionCodec.INSTANCE, true).getRecordBatch();
    try (ArrowDictionaryBatch message = new ArrowDictionaryBatch(id, batch, false)) {
      return MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), message, option);
    }
  }
}
