package dev.zarrow.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A group as a stream of Arrow record batches. Only a group that claims to hold a table is read as
 * one ({@link #holdsTable}); any other group is refused, so that a group a write left unfinished
 * never reads as an empty or partial table.
 *
 * <p>With a {@code zarrow_table} attribute ({@link TableLayout}) the schema is exactly the stored one:
 * names (duplicates too), types, nullability, field and schema metadata, dictionary encodings, and
 * column order; each column reads from its node. An AnnData dataframe (attribute {@code
 * encoding-type: "dataframe"}), and any group read through {@link #ofAlignedArrays}, is a table of its
 * <em>aligned arrays</em>: the group's child arrays of rank >= 1, all of one length (anything else is
 * a {@link MetadataException} naming the lengths), in the order of its {@code column-order} attribute
 * (a list of child names, after the child its {@code _index} attribute names) when present, then the
 * others in name order; each named after its node, rank >= 2 arrays as {@code
 * arrow.fixed_shape_tensor} columns (see {@link ArrayReader}).
 *
 * <p>Batches of {@code batchRows} rows, or by default the chunk rows of the first column.
 *
 * <p><b>The reader reuses one root for every batch</b>: {@link #loadNextBatch} replaces what the root
 * held. The caller owns the reader and must close it, which releases the root, the dictionaries and
 * the batches decoded ahead.
 */
public final class TableReader extends ColumnsReader {
  /** The attribute with which AnnData marks a group as a dataframe. */
  private static final String ENCODING_TYPE = "encoding-type";

  private TableReader(BufferAllocator allocator, ZarrGroup group, Selection selection, int batchRows, long start, long end) {
    super(allocator, selection.columns(), selection.metadata(), batchRows, start, end, group.options().executor(),
        "group '" + group.path() + "'");
  }

  /**
   * Whether {@code group} claims to hold a table: a {@code zarrow_table} attribute (written last, so
   * only by a complete write), or AnnData's {@code encoding-type: "dataframe"}.
   */
  public static boolean holdsTable(ZarrGroup group) {
    ObjectNode attributes = group.attributes();
    JsonNode encoding = attributes.get(ENCODING_TYPE);
    return attributes.has(TableLayout.ATTRIBUTE) || (encoding != null && "dataframe".equals(encoding.asText()));
  }

  /**
   * A reader of {@code group} as a table, its memory from {@code allocator}: every column, in batches
   * of the first column's chunk rows. <b>One root, reused for every batch</b>; the caller owns the
   * reader and closes it.
   */
  public static TableReader of(ZarrGroup group, BufferAllocator allocator) {
    return of(group, allocator, null, 0);
  }

  /**
   * A reader of {@code group} as a table, its memory from {@code allocator}: the columns named in
   * {@code columns} (null: all; a name that repeats selects every column of that name), in batches
   * of {@code batchRows} rows (0: the first column's chunk rows). The caller owns the reader and
   * closes it.
   */
  public static TableReader of(ZarrGroup group, BufferAllocator allocator, List<String> columns, int batchRows) {
    return of(group, allocator, columns, batchRows, 0, -1);
  }

  /**
   * A reader of rows {@code [start, end)} of {@code group} as a table ({@code end} -1: to the last
   * row), otherwise as {@link #of(ZarrGroup, BufferAllocator, List, int)}: batches are cut at the
   * multiples of {@code batchRows} (of the chunk rows by default), so a range that starts inside a
   * chunk reads whole chunks after its first batch. A range outside the table is an {@link
   * IllegalArgumentException}. The caller owns the reader and closes it.
   */
  public static TableReader of(ZarrGroup group, BufferAllocator allocator, List<String> columns, int batchRows, long start,
      long end) {
    if (!holdsTable(group)) {
      throw new NoSuchNodeException("group '" + group.path() + "' in " + group.store().describe() + " holds no table: it has no "
          + TableLayout.ATTRIBUTE + " attribute (a table's write claims it last; an import that did not finish leaves"
          + " none) and is no AnnData dataframe");
    }
    return new TableReader(allocator, group, select(group, columns, false), batchRows, start, end);
  }

  /**
   * A reader of {@code group}'s aligned arrays as a table (see the class comment), whatever its
   * attributes claim: for groups written by other tools. Arguments as for {@link #of(ZarrGroup,
   * BufferAllocator, List, int)}; the caller owns the reader and closes it.
   */
  public static TableReader ofAlignedArrays(ZarrGroup group, BufferAllocator allocator, List<String> columns, int batchRows) {
    return new TableReader(allocator, group, select(group, columns, true), batchRows, 0, -1);
  }

  private record Selection(List<Column> columns, Map<String, String> metadata) {}

  private static Selection select(ZarrGroup group, List<String> names, boolean alignedArrays) {
    Optional<TableLayout> layout;
    try {
      layout = alignedArrays ? Optional.empty() : TableLayout.fromAttributes(group.attributes());
    } catch (dev.zarrow.error.ZarrException e) {
      throw e.withContext("group '" + group.path() + "'");
    }
    List<String> columnNames = new ArrayList<>();
    List<Column> all = new ArrayList<>();
    Map<String, String> metadata;
    if (layout.isPresent()) {
      Schema schema = layout.get().schema();
      for (int i = 0; i < schema.getFields().size(); i++) {
        Field field = schema.getFields().get(i);
        String node = layout.get().nodes().get(i);
        ZarrArray array;
        try {
          array = group.array(node);
        } catch (NoSuchNodeException e) {
          throw new MetadataException("group '" + group.path() + "': the table's column '" + field.getName()
              + "' has no array '" + node + "'", e);
        }
        all.add(Column.forField(array, field));
        columnNames.add(field.getName());
      }
      metadata = schema.getCustomMetadata();
    } else {
      for (ZarrArray array : implicitColumns(group)) {
        all.add(Column.of(array, array.name()));
        columnNames.add(array.name());
      }
      metadata = Map.of();
    }
    if (names == null) {
      return new Selection(all, metadata);
    }
    List<Column> chosen = new ArrayList<>();
    for (String name : names) {
      boolean found = false;
      for (int i = 0; i < all.size(); i++) {
        if (columnNames.get(i).equals(name)) {
          chosen.add(all.get(i));
          found = true;
        }
      }
      if (!found) {
        throw new NoSuchNodeException("group '" + group.path() + "' has no column '" + name + "' (columns: " + columnNames + ")");
      }
    }
    return new Selection(chosen, metadata);
  }

  /** The child arrays of rank >= 1, in column-order (after _index) then name order. */
  private static List<ZarrArray> implicitColumns(ZarrGroup group) {
    Map<String, ZarrArray> arrays = new LinkedHashMap<>();
    for (Map.Entry<String, ZarrNode> child : group.children().all().entrySet()) {
      if (child.getValue() instanceof ZarrArray a && a.rank() >= 1) {
        arrays.put(child.getKey(), a);
      }
    }
    List<ZarrArray> ordered = new ArrayList<>();
    JsonNode attributes = group.attributes();
    JsonNode index = attributes.get("_index");
    if (index != null && index.isTextual() && arrays.containsKey(index.textValue())) {
      ordered.add(arrays.remove(index.textValue()));
    }
    JsonNode order = attributes.get("column-order");
    if (order != null && order.isArray()) {
      for (JsonNode name : order) {
        if (name.isTextual() && arrays.containsKey(name.textValue())) {
          ordered.add(arrays.remove(name.textValue()));
        }
      }
    }
    ordered.addAll(arrays.values());
    return ordered;
  }
}
