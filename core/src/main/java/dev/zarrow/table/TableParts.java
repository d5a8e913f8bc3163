package dev.zarrow.table;

import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.grid.Box;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.store.WritableStore;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Gather;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table whose row count is known before its rows, written in parts by independent writers
 * (threads, processes or machines that share nothing but the store), and claimed once at the end:
 *
 * <ol>
 *   <li>a coordinator {@link #create}s it: the group's {@code zarrow_table} attribute is removed, then
 *       one 1-D array per column is created with the final row count (no chunk written yet);
 *   <li>writers {@link #open} it (the same group and layout) and each writes the <em>write units</em>
 *       it holds all rows of ({@link #unitRows}: a chunk, or a shard when sharded) with {@link
 *       #writeUnit}, every unit encoded once, whole. A unit whose rows several writers share is
 *       written once, by whoever gathers its pieces in row order ({@link #writeUnit} takes pieces);
 *   <li>the coordinator {@link #claim}s it, writing the {@link TableLayout} attribute: last, once. A
 *       job that stops before claims no table; {@link #delete} removes what it wrote.
 * </ol>
 *
 * <p>Column types are chosen up front, as {@link TableWriter} chooses them (native where the type
 * has one and {@link TableOptions#nativeTypes()} is on) except that a column the coordinator says
 * holds nulls gets the {@code arrow} data type at once: units written in parallel cannot convert a
 * column later. Rows come decoded (no dictionary encodings): Arrow Java's memory form of each
 * field with dictionaries decoded. Units are written in parallel on the group's executor, one
 * column each; writing one unit twice replaces it. Safe to share between threads that write
 * different units.
 */
public final class TableParts {
  private final ZarrGroup group;
  private final TableLayout layout;
  private final List<ZarrArray> arrays;
  private final long rows;
  private final long unitRows;

  private TableParts(ZarrGroup group, TableLayout layout, List<ZarrArray> arrays) {
    this.group = group;
    this.layout = layout;
    this.arrays = List.copyOf(arrays);
    this.rows = arrays.isEmpty() ? 0 : arrays.get(0).shape()[0];
    this.unitRows = arrays.isEmpty() ? 1 : arrays.get(0).grid().chunkShape()[0];
  }

  /**
   * Starts a table of {@code rows} rows of {@code schema} (the stored form, as {@link
   * TableWriter#create}) in {@code group}: removes the group's {@code zarrow_table} attribute (other
   * attributes are kept) and creates (replacing) an array per column, named by {@link
   * TableLayout#forSchema}. {@code withNulls[i]} says whether column {@code i} may hold a null.
   */
  public static TableParts create(ZarrGroup group, Schema schema, long rows, TableOptions options, boolean[] withNulls) {
    List<Field> fields = schema.getFields();
    if (withNulls.length != fields.size()) {
      throw new IllegalArgumentException(withNulls.length + " null flags for " + fields.size() + " columns");
    }
    if (rows < 0) {
      throw new IllegalArgumentException("rows " + rows + " is negative");
    }
    TableLayout layout = TableLayout.forSchema(schema);
    FieldJson.writeSchema(schema); // refuses what the attribute could not hold, before anything is written
    List<DataType> types = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      try {
        types.add(withNulls[i] ? ArrowDataType.of(fields.get(i)) : ColumnTypes.initialType(fields.get(i), options));
      } catch (ZarrException e) {
        throw e.withContext("column '" + fields.get(i).getName() + "'");
      }
    }
    ObjectNode attributes = group.attributes();
    ZarrGroup target = attributes.remove(TableLayout.ATTRIBUTE) != null ? group.withAttributes(attributes) : group;
    List<ZarrArray> arrays = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      arrays.add(target.createArray(layout.nodes().get(i), ColumnTypes.spec(types.get(i), rows, options)));
    }
    return new TableParts(target, layout, arrays);
  }

  /**
   * The table {@link #create}d in {@code group} with {@code layout}, for a writer; its arrays must
   * exist, be 1-D, and agree on rows and write unit (else a {@link MetadataException} naming them).
   */
  public static TableParts open(ZarrGroup group, TableLayout layout) {
    List<ZarrArray> arrays = new ArrayList<>();
    for (String node : layout.nodes()) {
      ZarrArray array;
      try {
        array = group.array(node);
      } catch (NoSuchNodeException e) {
        throw new MetadataException("group '" + group.path() + "': the table's array '" + node + "' is missing", e);
      }
      ZarrArray first = arrays.isEmpty() ? array : arrays.get(0);
      if (array.rank() != 1 || array.shape()[0] != first.shape()[0]
          || array.grid().chunkShape()[0] != first.grid().chunkShape()[0]) {
        throw new MetadataException("group '" + group.path() + "': array '" + node + "' (shape "
            + Arrays.toString(array.shape()) + ", chunks " + Arrays.toString(array.grid().chunkShape())
            + ") is not a column like '" + first.name() + "'");
      }
      arrays.add(array);
    }
    return new TableParts(group, layout, arrays);
  }

  public TableLayout layout() {
    return layout;
  }

  /** The table's rows. */
  public long rows() {
    return rows;
  }

  /** The rows of a write unit: a chunk, or a shard when sharded. Unit {@code u} holds rows {@code [u * unitRows, min(rows, (u + 1) * unitRows))}. */
  public long unitRows() {
    return unitRows;
  }

  /** The number of write units (the last may be short). */
  public long units() {
    return (rows + unitRows - 1) / unitRows;
  }

  /**
   * Writes unit {@code unit} from {@code pieces} (borrowed): batches of the table's columns in
   * order, together exactly the unit's rows, in row order (other columns or another row count are an
   * {@link IllegalArgumentException}); temporaries (pieces gathered into one) live in a child of
   * {@code allocator}. A column created without nulls that meets one is a {@link CodecException}
   * naming it.
   */
  public void writeUnit(long unit, List<VectorSchemaRoot> pieces, BufferAllocator allocator) {
    if (unit < 0 || unit >= units()) {
      throw new IllegalArgumentException("unit " + unit + " is not one of the table's " + units());
    }
    long start = unit * unitRows;
    int unitLength = Math.toIntExact(Math.min(rows, start + unitRows) - start);
    int total = 0;
    for (VectorSchemaRoot piece : pieces) {
      if (piece.getFieldVectors().size() != arrays.size()) {
        throw new IllegalArgumentException("a piece of " + piece.getFieldVectors().size() + " columns for a table of " + arrays.size());
      }
      total += piece.getRowCount();
    }
    if (total != unitLength) {
      throw new IllegalArgumentException("unit " + unit + " holds " + unitLength + " rows, its pieces " + total);
    }
    long[] coords = {unit};
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "TableParts.writeUnit")) {
      writeColumns(unit, coords, start, unitLength, pieces, temp);
    }
  }

  private void writeColumns(long unit, long[] coords, long start, int unitLength, List<VectorSchemaRoot> pieces,
      BufferAllocator temp) {
    WorkSharing.forEachIndex(arrays.size(), i -> {
      ZarrArray array = arrays.get(i);
      Field field = layout.schema().getFields().get(i);
      try {
        List<Gather.Run> runs = new ArrayList<>();
        for (VectorSchemaRoot piece : pieces) {
          FieldVector v = piece.getVector(i);
          if (Buffers.hasNulls(v) && !(array.dataType() instanceof ArrowDataType)) {
            throw new CodecException("a null in a column created without nulls");
          }
          if (piece.getRowCount() > 0) {
            runs.add(new Gather.Run(v, 0, piece.getRowCount()));
          }
        }
        if (runs.size() == 1 && runs.get(0).source().getValueCount() == unitLength) {
          write(array, coords, start, unitLength, runs.get(0).source(), temp);
        } else {
          try (FieldVector whole = Gather.gather(runs.get(0).source().getField(), runs, temp)) {
            write(array, coords, start, unitLength, whole, temp);
          }
        }
      } catch (ZarrException e) {
        throw e.withContext("column '" + field.getName() + "' (array '" + array.path() + "'), unit " + unit);
      }
    }, group.options().executor());
  }

  private void write(ZarrArray array, long[] coords, long start, int length, FieldVector values, BufferAllocator temp) {
    if (length == unitRows) {
      array.writeChunk(coords, values, temp);
    } else {
      // The short last unit: encoded from the fill value, nothing read back.
      array.write(new Box(new long[] {start}, new long[] {length}), values, temp);
    }
  }

  /**
   * Claims the table: writes the {@code zarrow_table} attribute (keeping the group's others) once
   * every unit is written. Returns the updated group.
   */
  public ZarrGroup claim() {
    ZarrGroup current = group.group("");
    return current.withAttributes(layout.into(current.attributes()));
  }

  /** Removes the table's arrays (what a job that will not claim has written). */
  public void delete() {
    WritableStore store = (WritableStore) group.store();
    for (ZarrArray array : arrays) {
      store.deletePrefix(array.path() + "/");
    }
  }
}
