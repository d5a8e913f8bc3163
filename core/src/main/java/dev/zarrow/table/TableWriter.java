package dev.zarrow.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrGroup;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Fields;
import dev.zarrow.dtype.DataType;
import dev.zarrow.internal.WorkSharing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
 * parallel on the group's executor. Arrays grow as rows arrive. The attribute is written last, by
 * {@link #finish}, and any attribute of an earlier table is removed first: a write that stops half
 * way leaves no attribute claiming a complete table.
 *
 * <pre>{@code
 * try (TableWriter writer = TableWriter.create(group, schema, TableOptions.defaults(), allocator)) {
 *   while (reader.loadNextBatch()) writer.append(reader.getVectorSchemaRoot(), reader);
 *   group = writer.finish();
 * }
 * }</pre>
 *
 * <p>Not thread-safe. Closing without {@link #finish} abandons the table (buffered rows are
 * dropped, the arrays stay as far as written, no attribute is written).
 */
public final class TableWriter implements AutoCloseable {
  private final ZarrGroup group;
  private final TableLayout layout;
  private final BufferAllocator allocator;
  private final List<ColumnWriter> columns = new ArrayList<>();
  private long rows;
  private boolean finished;

  private TableWriter(ZarrGroup group, TableLayout layout, BufferAllocator allocator) {
    this.group = group;
    this.layout = layout;
    this.allocator = allocator;
  }

  /**
   * Starts a table of {@code schema} in {@code group}: checks every field, removes the group's
   * {@code zarrow_table} attribute (other attributes are kept) and creates (replacing) an empty array
   * per column.
   *
   * @param schema the table's schema in the stored (IPC, JSON-integration) form: a
   *     dictionary-encoded field has its value type and {@link Field#getDictionary()}; see {@link
   *     #storedSchema}
   * @param allocator where buffered rows live (in a child allocator closed by {@link #close})
   */
  public static TableWriter create(ZarrGroup group, Schema schema, TableOptions options, BufferAllocator allocator) {
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
    ObjectNode attributes = group.attributes();
    ZarrGroup target = attributes.remove(TableLayout.ATTRIBUTE) != null ? group.withAttributes(attributes) : group;
    TableWriter writer = new TableWriter(target, layout, allocator.newChildAllocator("TableWriter", 0, Long.MAX_VALUE));
    try {
      for (int i = 0; i < types.size(); i++) {
        writer.columns.add(new ColumnWriter(target, layout.nodes().get(i), schema.getFields().get(i), types.get(i),
            options, writer.allocator));
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
   * example the reader) knows every dictionary id. Metadata order follows {@code memory}.
   */
  public static Schema storedSchema(Schema memory, DictionaryProvider dictionaries) {
    List<Field> fields = new ArrayList<>();
    for (Field field : memory.getFields()) {
      try {
        fields.add(DictionaryUtility.toMessageFormat(field, dictionaries, new HashSet<>()));
      } catch (RuntimeException e) {
        throw new CodecException("column '" + field.getName() + "': dictionary-encoded without its dictionary ("
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
      throw new CodecException("a batch of " + vectors.size() + " columns for a table of " + fields.size());
    }
    int n = batch.getRowCount();
    for (int i = 0; i < fields.size(); i++) {
      Field want = Dictionaries.indexedField(fields.get(i));
      FieldVector v = vectors.get(i);
      if (!Fields.sameLayout(want, v.getField())) {
        throw new CodecException("column " + i + " ('" + fields.get(i).getName() + "') of a batch is "
            + v.getField().getType() + ", the table's field " + fields.get(i).getType());
      }
      if (v.getValueCount() != n) {
        throw new CodecException("column " + i + " ('" + fields.get(i).getName() + "') of a batch of " + n
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
        throw e.withContext("column '" + stored.getName() + "' (array '" + columns.get(i).array().path() + "')");
      }
    }, group.options().executor());
    rows += n;
  }

  private FieldVector decode(FieldVector indexed, Field stored, DictionaryProvider provider) {
    Map<Long, FieldVector> dictionaries = new HashMap<>();
    for (long id : Dictionaries.valueFields(stored).keySet()) {
      Dictionary d = provider == null ? null : provider.lookup(id);
      if (d == null) {
        throw new CodecException("dictionary " + id + " of the column is missing from the source");
      }
      dictionaries.put(id, d.getVector());
    }
    return Dictionaries.decode(indexed, stored, dictionaries, allocator);
  }

  /**
   * Writes the rows still buffered, then the {@code zarrow_table} attribute (keeping the group's
   * other attributes). Returns the updated group.
   */
  public ZarrGroup finish() {
    if (finished) {
      throw new IllegalStateException("the table is finished");
    }
    WorkSharing.forEach(columns, ColumnWriter::finish, group.options().executor());
    finished = true;
    ZarrGroup current = group.group("");
    return current.withAttributes(layout.into(current.attributes()));
  }

  /** Drops buffered rows and releases the writer's memory; without {@link #finish} no table is claimed. */
  @Override
  public void close() {
    columns.forEach(ColumnWriter::close);
    allocator.close();
  }

  /**
   * Writes every batch of {@code source} (borrowed: read to its end, not closed) as a table of
   * {@code group}; see the class comment. Returns the updated group.
   */
  public static ZarrGroup write(ZarrGroup group, ArrowReader source, TableOptions options) {
    VectorSchemaRoot root = read(() -> source.getVectorSchemaRoot());
    Schema schema = storedSchema(root.getSchema(), source);
    try (BufferAllocator allocator = allocatorFor(root);
        TableWriter writer = create(group, schema, options, allocator)) {
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
    for (Field f : table.getSchema().getFields()) {
      if (Dictionaries.isEncoded(f)) {
        throw new CodecException("column '" + f.getName() + "' is dictionary-encoded: a VectorSchemaRoot does not carry"
            + " its dictionaries; write the table through an ArrowReader");
      }
    }
    try (BufferAllocator allocator = allocatorFor(table);
        TableWriter writer = create(group, table.getSchema(), options, allocator)) {
      writer.append(table, null);
      return writer.finish();
    }
  }

  /** The parent of the writer's temporaries: beside the batch's memory (vectors of the null type have none). */
  private static BufferAllocator allocatorFor(VectorSchemaRoot root) {
    return root.getFieldVectors().stream().filter(v -> v.getAllocator() != null).findFirst()
        .map(owner -> Buffers.temporaryAllocator(owner, "TableWriter.write"))
        .orElseGet(RootAllocator::new);
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
