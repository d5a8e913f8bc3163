package dev.zarrow.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.NodeWriter;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.store.WritableStore;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Fields;
import dev.zarrow.dtype.DataType;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.ipc.SchemaRootReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;

/**
 * Writes an Arrow table into a group: one 1-D array per column, named by {@link
 * TableLayout#forSchema}, then the {@link TableLayout} attribute {@code zarrow_table}.
 *
 * <p>A column gets a native Zarr data type when {@link TableOptions#nativeTypes()} is on, its type
 * has one ({@link ColumnTypes#nativeType}) and it holds no nulls; otherwise the {@code arrow} data
 * type of its stored field (dictionary encodings included: the codec re-encodes each chunk). A
 * native column that meets a null later is converted to the {@code arrow} type on the spot.
 * Dictionary-encoded columns are decoded before they are written.
 *
 * <p>Batches are appended as they come; each column buffers rows until they fill a chunk (a shard
 * when sharded), so every chunk is encoded once, whole, and chunks and columns are encoded in
 * parallel on the executor of the options. A unit made whole from buffered rows compresses in the
 * background while {@link #append} returns for the next batch (a few per core at most; past that
 * the appending thread helps), so the cores stay busy between batches; a failure there fails the next
 * {@code append} or {@link #finish}. The table is written as {@link NodeWriter} writes a node:
 * each column's {@code zarr.json} once its chunks are written, then the group with the attribute,
 * last, by {@link #finish}, which swaps the new table in for the node that was at its path, whole
 * (no column of an earlier table stays). A write that fails or stops half way leaves the old node
 * (on stores that rename) or no node (elsewhere), never a partial table.
 *
 * <pre>{@code
 * try (TableWriter writer = TableWriter.create(group, schema, TableOptions.defaults(), allocator)) {
 *   while (reader.loadNextBatch()) writer.append(reader.getVectorSchemaRoot(), reader);
 *   group = writer.finish();
 * }
 * }</pre>
 *
 * <p>Not thread-safe. Closing without {@link #finish} abandons the table: buffered rows are dropped
 * and what was written is removed.
 */
public final class TableWriter implements AutoCloseable {
  private final NodeWriter write;
  private final ObjectNode attributes;
  private final TableLayout layout;
  private final ZarrOptions zarrOptions;
  private final BufferAllocator allocator;
  private final List<ColumnWriter> columns = new ArrayList<>();
  /** Whole units (buffered rows made whole by a batch) compressing while the next batches come. */
  private final EncodeQueue background;
  private long rows;
  private boolean finished;

  private TableWriter(NodeWriter write, ObjectNode attributes, TableLayout layout, ZarrOptions zarrOptions, BufferAllocator allocator) {
    this.write = write;
    this.attributes = attributes;
    this.layout = layout;
    this.zarrOptions = zarrOptions;
    this.allocator = allocator;
    this.background = new EncodeQueue(zarrOptions.executor(), 2 * Runtime.getRuntime().availableProcessors());
  }

  /**
   * Starts a table of {@code schema} that replaces {@code group} when {@link #finish}ed, keeping the
   * group's attributes other than {@code zarrow_table}; see {@link #create(WritableStore, String,
   * ZarrOptions, Schema, TableOptions, BufferAllocator)}.
   */
  public static TableWriter create(ZarrGroup group, Schema schema, TableOptions options, BufferAllocator allocator) {
    if (!(group.store() instanceof WritableStore store)) {
      throw new StoreException("group '" + group.path() + "': " + group.store().describe() + " is read-only");
    }
    ObjectNode attributes = group.attributes();
    attributes.remove(TableLayout.ATTRIBUTE);
    return create(store, group.path(), group.options(), attributes, schema, options, allocator);
  }

  /**
   * Starts a table of {@code schema} at {@code path}: checks every field, then begins the write ({@link
   * NodeWriter#begin}: on stores without rename the node at {@code path} is removed now). The group
   * it writes has only the {@code zarrow_table} attribute.
   *
   * @param schema the table's schema in the stored (IPC, JSON-integration) form: a
   *     dictionary-encoded field has its value type and {@link Field#getDictionary()}; see {@link
   *     #storedSchema}
   * @param zarrOptions how the arrays are made and where chunks are encoded
   * @param allocator where buffered rows live (in a child allocator closed by {@link #close})
   */
  public static TableWriter create(WritableStore store, String path, ZarrOptions zarrOptions, Schema schema,
      TableOptions options, BufferAllocator allocator) {
    return create(store, path, zarrOptions, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(),
        schema, options, allocator);
  }

  private static TableWriter create(WritableStore store, String path, ZarrOptions zarrOptions, ObjectNode attributes,
      Schema schema, TableOptions options, BufferAllocator allocator) {
    TableLayout layout = TableLayout.forSchema(schema);
    FieldJson.writeSchema(schema); // refuses what the attribute could not hold, before anything is written
    List<DataType> types = new ArrayList<>();
    for (Field field : schema.getFields()) {
      try {
        types.add(ColumnTypes.initialType(field, options));
      } catch (ZarrException e) {
        throw e.withContext("column '" + field.getName() + "'");
      }
    }
    NodeWriter write = NodeWriter.begin(store, path, zarrOptions);
    TableWriter writer;
    try {
      writer = new TableWriter(write, attributes, layout, zarrOptions,
          allocator.newChildAllocator("TableWriter", 0, Long.MAX_VALUE));
    } catch (RuntimeException e) {
      write.close();
      throw e;
    }
    try {
      for (int i = 0; i < types.size(); i++) {
        String node = layout.nodes().get(i);
        writer.columns.add(new ColumnWriter(write, node, schema.getFields().get(i), types.get(i), options, writer.allocator,
            writer.background, "column '" + schema.getFields().get(i).getName() + "' (array '" + ZarrNode.join(write.path(), node) + "')"));
      }
      return writer;
    } catch (RuntimeException e) {
      writer.close();
      throw e;
    }
  }

  /**
   * The stored form of a schema in Arrow Java's memory form (dictionary-encoded fields as their
   * index type), as {@link ArrowReader#getVectorSchemaRoot()} gives it; {@code dictionaries} (for
   * example the reader) knows every dictionary id. Metadata order follows {@code memory}. The names
   * inside dictionary values come from the dictionaries' vectors, where Arrow Java names a list's
   * child {@code $data$}: zarrow's readers ({@link SchemaRootReader#storedSchema}) know the stored
   * schema exactly.
   */
  public static Schema storedSchema(Schema memory, DictionaryProvider dictionaries) {
    List<Field> fields = new ArrayList<>();
    for (Field field : memory.getFields()) {
      try {
        fields.add(DictionaryUtility.toMessageFormat(field, dictionaries, new HashSet<>()));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("column '" + field.getName() + "': dictionary-encoded without its dictionary ("
            + e.getMessage() + ")", e);
      }
    }
    return new Schema(fields, memory.getCustomMetadata());
  }

  /** The layout this writer writes (the schema and the node of each column). */
  public TableLayout layout() {
    return layout;
  }

  /** The rows appended so far. */
  public long rows() {
    return rows;
  }

  /**
   * Appends the rows of {@code batch} (borrowed; Arrow Java's memory form of the schema: a
   * dictionary-encoded column holds indexes into its dictionary in {@code dictionaries}, borrowed).
   * Columns are matched by position and must have the schema's types.
   */
  public void append(VectorSchemaRoot batch, DictionaryProvider dictionaries) {
    if (finished) {
      throw new IllegalStateException("the table is finished");
    }
    List<Field> fields = layout.schema().getFields();
    List<FieldVector> vectors = batch.getFieldVectors();
    if (vectors.size() != fields.size()) {
      throw new IllegalArgumentException("a batch of " + vectors.size() + " columns for a table of " + fields.size());
    }
    background.check(); // a unit that failed in the background fails the write
    int n = batch.getRowCount();
    for (int i = 0; i < fields.size(); i++) {
      Field want = Dictionaries.indexedField(fields.get(i));
      FieldVector v = vectors.get(i);
      if (!Fields.sameLayout(want, v.getField())) {
        throw new IllegalArgumentException("column " + i + " ('" + fields.get(i).getName() + "') of a batch is "
            + v.getField().getType() + ", the table's field " + fields.get(i).getType());
      }
      if (v.getValueCount() != n) {
        throw new IllegalArgumentException("column " + i + " ('" + fields.get(i).getName() + "') of a batch of " + n
            + " rows holds " + v.getValueCount() + " values");
      }
    }
    WorkSharing.forEachIndex(fields.size(), i -> {
      Field stored = fields.get(i);
      try {
        if (Dictionaries.isEncoded(stored)) {
          try (FieldVector decoded = decode(vectors.get(i), stored, dictionaries)) {
            columns.get(i).append(decoded);
          }
        } else {
          columns.get(i).append(vectors.get(i));
        }
      } catch (ZarrException e) {
        throw e.withContext("column '" + stored.getName() + "' (array '" + ZarrNode.join(write.path(), layout.nodes().get(i)) + "')");
      }
    }, zarrOptions.executor());
    background.check();
    rows += n;
  }

  private FieldVector decode(FieldVector indexed, Field stored, DictionaryProvider provider) {
    Map<Long, FieldVector> dictionaries = new HashMap<>();
    for (long id : Dictionaries.valueFields(stored).keySet()) {
      Dictionary d = provider == null ? null : provider.lookup(id);
      if (d == null) {
        throw new IllegalArgumentException("dictionary " + id + " of the column is missing from the source");
      }
      dictionaries.put(id, d.getVector());
    }
    return Dictionaries.decode(indexed, stored, dictionaries, allocator);
  }

  /**
   * Writes the rows still buffered and each column's metadata, then the group with the {@code
   * zarrow_table} attribute, and swaps the table in at its path. Returns the table's group.
   */
  public ZarrGroup finish() {
    if (finished) {
      throw new IllegalStateException("the table is finished");
    }
    finished = true;
    background.await();
    WorkSharing.forEach(columns, ColumnWriter::finish, zarrOptions.executor());
    return (ZarrGroup) write.commit(write.group("", layout.into(attributes)));
  }

  /**
   * Drops buffered rows and releases the writer's memory; without {@link #finish} (or when it failed)
   * removes what was written: no table is claimed.
   */
  @Override
  public void close() {
    try {
      background.drain(); // units still compressing hold the writer's memory
      columns.forEach(ColumnWriter::close);
      allocator.close();
    } finally {
      write.close();
    }
  }

  /**
   * Writes every batch of {@code source} (borrowed: read to its end, not closed) as a table of
   * {@code group}; see the class comment. Returns the updated group.
   */
  public static ZarrGroup write(ZarrGroup group, ArrowReader source, TableOptions options) {
    return write(group, source, options, allocatorFor(read(() -> source.getVectorSchemaRoot())));
  }

  /**
   * Writes every batch of {@code source} (borrowed: read to its end, not closed) as a table of
   * {@code group}, buffering rows in a child of {@code allocator}; see the class comment. Returns the
   * updated group.
   */
  public static ZarrGroup write(ZarrGroup group, ArrowReader source, TableOptions options, BufferAllocator allocator) {
    VectorSchemaRoot root = read(() -> source.getVectorSchemaRoot());
    Schema schema = source instanceof SchemaRootReader own ? read(own::storedSchema) : storedSchema(root.getSchema(), source);
    try (TableWriter writer = create(group, schema, options, allocator)) {
      while (read(source::loadNextBatch)) {
        writer.append(root, source);
      }
      return writer.finish();
    }
  }

  /**
   * Writes {@code table} (borrowed) as a table of {@code group}; see the class comment. A
   * dictionary-encoded column needs its dictionaries: write it through an {@link ArrowReader}
   * instead. Returns the updated group.
   */
  public static ZarrGroup write(ZarrGroup group, VectorSchemaRoot table, TableOptions options) {
    return write(group, table, options, allocatorFor(table));
  }

  /**
   * Writes {@code table} (borrowed) as a table of {@code group}, buffering rows in a child of
   * {@code allocator}; see the class comment. A dictionary-encoded column needs its dictionaries:
   * write it through an {@link ArrowReader} instead. Returns the updated group.
   */
  public static ZarrGroup write(ZarrGroup group, VectorSchemaRoot table, TableOptions options, BufferAllocator allocator) {
    for (Field f : table.getSchema().getFields()) {
      if (Dictionaries.isEncoded(f)) {
        throw new IllegalArgumentException("column '" + f.getName() + "' is dictionary-encoded: a VectorSchemaRoot does not carry"
            + " its dictionaries; write the table through an ArrowReader");
      }
    }
    try (TableWriter writer = create(group, table.getSchema(), options, allocator)) {
      writer.append(table, null);
      return writer.finish();
    }
  }

  /**
   * The allocator of the batch's memory, beside which the writer buffers rows. Vectors of the null type
   * have none; a table of nothing else is an {@link IllegalArgumentException}: pass an allocator.
   */
  private static BufferAllocator allocatorFor(VectorSchemaRoot root) {
    return root.getFieldVectors().stream().map(FieldVector::getAllocator).filter(a -> a != null).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no column of the table holds Arrow memory (all are of the null"
            + " type), so there is no allocator to buffer rows in: pass one (TableWriter.write(group, table, options,"
            + " allocator))"));
  }

  private interface SourceRead<T> {
    T get() throws IOException;
  }

  /** Reads from the source; its failures (I/O, malformed input) become a {@link CodecException}. */
  private static <T> T read(SourceRead<T> step) {
    try {
      return step.get();
    } catch (ZarrException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CodecException("reading the Arrow source failed: " + e, e);
    }
  }
}
