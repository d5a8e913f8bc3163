package dev.zarrow.codec.arrow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.ipc.BatchLoader;
import dev.zarrow.ipc.IpcMessages;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Gather;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code arrow}: a chunk as an Arrow IPC stream (array->bytes).
 *
 * <pre>
 * chunk = schema message (one field)
 *         dictionary batch*        (one per dictionary the field uses, values before their users)
 *         record batch             (prod(chunk_shape) rows: the chunk flattened in C order)
 *         end-of-stream marker     (0xFFFFFFFF 0x00000000)
 * </pre>
 *
 * <p>Names and configuration: {@code {"name": "arrow"}} (no options; zarrow's spelling, also
 * zarr-python PR 2031's). {@code {"name": "arrow-ipc", "configuration": {"column_name": C}}} is the
 * spelling of the zarr-extensions proposal (PR 41); zarr-python's implementation of it (PR 3613)
 * reads that name but writes {@code "arrow_ipc"}, which is read as the same codec. The codec
 * serializes any data type through its Arrow field ({@link DataType#field}); for the {@code arrow}
 * data type that is the configured field, dictionary encodings included.
 *
 * <p>Writing: the column is named, for {@code arrow}, by the {@code arrow} data type's field (so the
 * chunk's schema is exactly the array's field) or {@code "zarr_chunk"} for other data types (the
 * name PR 2031 reads); for {@code arrow-ipc}, {@code column_name} ({@code "zarr_array"}, PR 3613's
 * default, when absent). Dictionary-encoded levels are encoded per chunk: a chunk's dictionary is
 * its distinct values. The body is never compressed: compress with a bytes->bytes codec.
 *
 * <p>Reading: any single column whose type, children and dictionary encodings (index types) match
 * the array's field, whatever its name, nullability and metadata; any number of record batches
 * totalling the chunk's size (concatenated); dictionary ids as the stream numbers them; bodies
 * uncompressed or ZSTD-compressed (LZ4 is refused); the pre-0.15 message framing without the
 * continuation marker; a missing end-of-stream marker. Delta dictionaries are refused. Bodies are
 * not copied: vectors point into the chunk's memory when that is the caller's own (a writable
 * direct buffer), which they keep alive until closed. Everything read is checked before use (see
 * {@link IpcMessages}, {@link StreamSchema}, {@link BatchLoader}): bad input
 * is a {@link CorruptChunkException}, or an {@link UnsupportedExtensionException} for valid Arrow
 * that zarrow does not read.
 */
public final class ArrowIpcCodec implements ArrayToBytesCodec {
  /** zarrow's name (and zarr-python PR 2031's). */
  public static final String NAME = "arrow";
  /** The name in the zarr-extensions proposal (PR 41). */
  public static final String IPC_NAME = "arrow-ipc";
  /** The name zarr-python's PR 3613 writes for {@link #IPC_NAME}. */
  public static final String IPC_ALIAS = "arrow_ipc";
  /** The column name under {@code arrow} for data types other than {@code arrow} (PR 2031's). */
  public static final String CHUNK_COLUMN = "zarr_chunk";
  /** The column name under {@code arrow-ipc} when the configuration names none (PR 3613's default). */
  public static final String IPC_DEFAULT_COLUMN = "zarr_array";

  private final NamedConfig metadata;
  private final String columnName; // null: the data type's own name (arrow)
  private final long budget;

  private ArrowIpcCodec(NamedConfig metadata, String columnName, long budget) {
    this.metadata = metadata;
    this.columnName = columnName;
    this.budget = budget;
  }

  /** {@code {"name": "arrow"}} with the default limits. */
  public static ArrowIpcCodec arrow() {
    return new ArrowIpcCodec(NamedConfig.of(NAME, null), null, CodecOptions.DEFAULT.maxChunkBytes());
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  /** The stored field (with the column name written) and the field of decoded chunks. */
  private record Target(Field written, Field stored, Field memory) {}

  private Target target(ChunkSpec spec) {
    DataType type = spec.dataType();
    if (type instanceof ArrowDataType arrow) {
      Field stored = arrow.storedField();
      return new Target(columnName == null ? stored : arrow.storedField(columnName), stored, arrow.memoryField());
    }
    Field memory = type.field("");
    if (Dictionaries.isEncoded(memory)) {
      throw new CodecException("codec " + metadata.name() + " cannot serialize data type " + type.name());
    }
    Field written = type.field(columnName == null ? CHUNK_COLUMN : columnName);
    return new Target(written, memory, memory);
  }

  @Override
  public void validate(ChunkSpec spec) {
    target(spec);
  }

  // ---- encoding ----

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    Target target = target(spec);
    check(chunk, target.memory);
    Field written = target.written;
    boolean union = Fields.hasUnion(target.memory);
    if (!union && !Dictionaries.isEncoded(written)) {
      return write(written, chunk, Map.of());
    }
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "arrow codec encode");
        // Union type ids on disk are the field's; a vector may number its members otherwise.
        FieldVector normalized = union ? Gather.gather(target.memory, List.of(Gather.Run.of(chunk)), temp) : null) {
      FieldVector values = normalized == null ? chunk : normalized;
      if (!Dictionaries.isEncoded(written)) {
        return write(written, values, Map.of());
      }
      try (Dictionaries.Encoded encoded = Dictionaries.encode(values, written, temp)) {
        return write(written, encoded.vector(), encoded.dictionaries());
      }
    }
  }

  /** Refuses a vector that does not have the memory field's structure, or nulls it cannot hold. */
  private void check(FieldVector chunk, Field memory) {
    if (!Fields.sameLayout(chunk.getField(), memory)) {
      throw new IllegalArgumentException("codec " + metadata.name() + ": a chunk of Arrow field " + memory
          + " cannot be written from a vector of " + chunk.getField());
    }
    int refused = Fields.refusedNulls(memory, chunk);
    if (refused > 0) {
      throw new IllegalArgumentException("codec " + metadata.name() + ": field '" + memory.getName()
          + "' is not nullable, the chunk has " + refused + " nulls");
    }
  }

  private ByteBuffer write(Field field, FieldVector vector, Map<Long, FieldVector> dictionaries) {
    try {
      return serialize(field, vector, dictionaries);
    } catch (IOException e) {
      throw new CodecException("codec " + metadata.name() + ": " + e.getMessage(), e);
    }
  }

  private static ByteBuffer serialize(Field field, FieldVector vector, Map<Long, FieldVector> dictionaries)
      throws IOException {
    long estimate = 1024;
    for (FieldVector d : dictionaries.values()) {
      estimate += d.getBufferSize() + 512;
    }
    estimate += vector.getBufferSize();
    HeapOut out = new HeapOut(estimate);
    WriteChannel channel = new WriteChannel(out);
    MessageSerializer.serialize(channel, new org.apache.arrow.vector.types.pojo.Schema(List.of(field)));
    for (Map.Entry<Long, FieldVector> d : dictionaries.entrySet()) {
      try (ArrowDictionaryBatch batch = new ArrowDictionaryBatch(d.getKey(), unload(d.getValue()), false)) {
        MessageSerializer.serialize(channel, batch);
      }
    }
    try (ArrowRecordBatch batch = unload(vector)) {
      MessageSerializer.serialize(channel, batch);
    }
    channel.writeIntLittleEndian(-1); // end of stream: continuation marker, zero length
    channel.writeIntLittleEndian(0);
    return out.result();
  }

  /** The record batch of one column; the vector is borrowed (the batch holds its own references). */
  private static ArrowRecordBatch unload(FieldVector vector) {
    // Not closed: closing a root closes its vectors, which are the caller's.
    VectorSchemaRoot root = new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), vector.getValueCount());
    return new VectorUnloader(root).getRecordBatch();
  }

  /**
   * A growable heap buffer to serialize into. Heap, not direct: allocating (and zeroing) a fresh
   * direct buffer per chunk made encoding twice as slow as Arrow Java's ArrowStreamWriter, heap
   * makes it faster (ArrowCodecBench.main); compressors and stores take either.
   */
  private static final class HeapOut implements WritableByteChannel {
    private ByteBuffer buffer;

    HeapOut(long estimate) {
      buffer = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 64, estimate));
    }

    @Override
    public int write(ByteBuffer src) {
      int n = src.remaining();
      if (buffer.remaining() < n) {
        long wanted = Math.max((long) buffer.capacity() * 2, (long) buffer.position() + n);
        if ((long) buffer.position() + n > Integer.MAX_VALUE - 64) {
          throw new CodecException("an Arrow IPC chunk of more than 2 GiB cannot be held in one buffer");
        }
        ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 64, wanted));
        bigger.put(buffer.flip());
        buffer = bigger;
      }
      buffer.put(src);
      return n;
    }

    ByteBuffer result() {
      return buffer.flip();
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  // ---- decoding ----

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    try (ArrowBuf whole = Buffers.wrap(bytes, allocator)) {
      return decode(whole, bytes.remaining(), spec, allocator);
    }
  }

  /** The vectors point into {@code bytes} (retained) where the stream's bodies are their buffers. */
  @Override
  public FieldVector decode(ArrowBuf whole, long length, ChunkSpec spec, BufferAllocator allocator) {
    ByteBuffer bytes = Buffers.readOnlyView(whole, 0, length);
    Target target = target(spec);
    int expected = spec.size();
    IpcMessages messages = new IpcMessages(bytes);
    IpcMessages.Msg first = messages.next();
    if (first == null) {
      throw new CorruptChunkException("Arrow IPC stream: no schema message (" + bytes.remaining() + " bytes)");
    }
    if (first.headerType() != MessageHeader.Schema) {
      throw IpcMessages.corrupt(first.at(), "the stream starts with a " + first.kind() + " message, not a schema");
    }
    Schema schema;
    try {
      schema = (Schema) first.message().header(new Schema());
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(first.at(), "unreadable schema");
    }
    Map<Long, Long> ids = StreamSchema.check(schema, target.stored, first.at(), first.v4());
    Map<Long, Field> values = Dictionaries.valueFields(target.stored);
    Field indexed = Dictionaries.indexedField(target.stored);
    Map<Long, FieldVector> dictionaries = new HashMap<>();
    List<FieldVector> batches = new ArrayList<>();
    try {
      BatchLoader loader = new BatchLoader(whole, allocator, budget);
      long rows = 0;
      for (IpcMessages.Msg m = messages.next(); m != null; m = messages.next()) {
        if (m.headerType() == MessageHeader.DictionaryBatch) {
          dictionary(m, ids, values, loader, dictionaries);
        } else if (m.headerType() == MessageHeader.RecordBatch) {
          RecordBatch batch = m.header(new RecordBatch());
          try (FieldVector column = loader.load(batch, m.bodyStart(), m.bodyLength(), indexed, m.at(), "record batch")) {
            rows += column.getValueCount();
            if (rows > expected) {
              throw IpcMessages.corrupt(m.at(), "the stream holds more than the chunk's " + expected + " elements");
            }
            batches.add(Dictionaries.decode(column, target.stored, dictionaries, allocator));
          }
        } else {
          throw IpcMessages.corrupt(m.at(), "unexpected " + m.kind() + " message");
        }
      }
      if (messages.trailing() > 0) {
        throw new CorruptChunkException("Arrow IPC stream: " + messages.trailing() + " bytes after the end-of-stream marker");
      }
      if (rows != expected) {
        throw new CorruptChunkException("Arrow IPC stream holds " + rows + " elements, the chunk " + expected);
      }
      FieldVector out = join(batches, target.memory, allocator);
      batches.clear();
      int refused = Fields.refusedNulls(target.memory, out);
      if (refused > 0) {
        out.close();
        throw new CorruptChunkException("Arrow IPC stream holds " + refused + " nulls for field '"
            + target.memory.getName() + "', which is not nullable");
      }
      return out;
    } finally {
      batches.forEach(FieldVector::close);
      dictionaries.values().forEach(FieldVector::close);
    }
  }

  private static void dictionary(
      IpcMessages.Msg m, Map<Long, Long> ids, Map<Long, Field> values, BatchLoader loader,
      Map<Long, FieldVector> dictionaries) {
    DictionaryBatch batch = m.header(new DictionaryBatch());
    long streamId;
    boolean delta;
    RecordBatch data;
    try {
      streamId = batch.id();
      delta = batch.isDelta();
      data = batch.data();
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(m.at(), "unreadable dictionary batch");
    }
    Long id = ids.get(streamId);
    if (id == null) {
      throw IpcMessages.corrupt(m.at(), "dictionary batch for id " + streamId + ", which the schema does not use");
    }
    if (delta) {
      throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + m.at()
          + ": delta dictionary batches are not supported");
    }
    if (data == null) {
      throw IpcMessages.corrupt(m.at(), "dictionary batch without data");
    }
    FieldVector root = loader.load(data, m.bodyStart(), m.bodyLength(),
        Dictionaries.indexedField(values.get(id)), m.at(), "dictionary batch " + streamId);
    FieldVector replaced = dictionaries.put(id, root);
    if (replaced != null) {
      replaced.close();
    }
  }

  /** One vector of all batches (closing them), sharing the memory of a single batch. */
  private static FieldVector join(List<FieldVector> batches, Field memory, BufferAllocator allocator) {
    if (batches.size() == 1) {
      return batches.get(0);
    }
    try {
      List<Gather.Run> runs = new ArrayList<>();
      for (FieldVector b : batches) {
        runs.add(Gather.Run.of(b));
      }
      return Gather.gather(memory, runs, allocator);
    } finally {
      batches.forEach(FieldVector::close);
    }
  }

  @Override
  public String toString() {
    return Json.compact(metadata.toJson());
  }

  /** Makes {@code arrow}, {@code arrow-ipc} and {@code arrow_ipc} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME, IPC_NAME, IPC_ALIAS);
    }

    @Override
    public ArrowIpcCodec create(NamedConfig metadata, CodecContext context) {
      long budget = context.options().maxChunkBytes();
      JsonNode column = null;
      for (Iterator<Map.Entry<String, JsonNode>> it = metadata.config().fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (metadata.name().equals(NAME) || !e.getKey().equals("column_name")) {
          throw new MetadataException("/configuration/" + e.getKey() + ": unknown option of codec " + metadata.name()
              + (metadata.name().equals(NAME) ? " (it has none)" : " (known: column_name)"));
        }
        column = e.getValue();
      }
      if (metadata.name().equals(NAME)) {
        return new ArrowIpcCodec(metadata, null, budget);
      }
      if (column != null && !column.isTextual()) {
        throw new MetadataException("/configuration/column_name: expected a string, got " + Json.kind(column));
      }
      return new ArrowIpcCodec(metadata, column == null ? IPC_DEFAULT_COLUMN : column.textValue(), budget);
    }
  }
}
