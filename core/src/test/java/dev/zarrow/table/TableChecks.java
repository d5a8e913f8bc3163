package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Fields;
import dev.zarrow.NdVector;
import dev.zarrow.grid.Box;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.Range;
import dev.zarrow.vector.ValueEquals;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks a written group table against its source: the attribute's schema JSON is the source's,
 * text for text, and each column's array holds the source's (dictionary-decoded) values, batch by
 * batch, nulls included.
 */
public final class TableChecks {
  private TableChecks() {}

  /** The expected values of one source batch, column by column (decoded copies the caller closes). */
  public static List<FieldVector> decodedColumns(VectorSchemaRoot batch, Schema stored, DictionaryProvider dictionaries,
      BufferAllocator allocator) {
    List<FieldVector> out = new ArrayList<>();
    for (int c = 0; c < stored.getFields().size(); c++) {
      Field field = stored.getFields().get(c);
      Map<Long, FieldVector> dicts = new HashMap<>();
      for (long id : Dictionaries.valueFields(field).keySet()) {
        dicts.put(id, dictionaries.lookup(id).getVector());
      }
      out.add(Dictionaries.decode(batch.getVector(c), field, dicts, allocator));
    }
    return out;
  }

  /** The stored layout: schema JSON identical to {@code source}'s, one node per field. */
  public static TableLayout assertLayout(ZarrGroup group, Schema source) {
    TableLayout layout = TableLayout.fromAttributes(group.attributes()).orElseThrow(() -> new AssertionError("no zarrow_table attribute"));
    assertEquals(ArrowJsonFiles.text(FieldJson.writeSchema(source)),
        ArrowJsonFiles.text(group.attributes().get(TableLayout.ATTRIBUTE).get("schema")), "the stored schema JSON");
    assertEquals(TableLayout.forSchema(source).nodes(), layout.nodes());
    return layout;
  }

  /**
   * Every array of the table holds {@code batches} (each a list of expected columns) in order:
   * length, then each batch's rows read back as a region.
   */
  public static void assertColumns(ZarrGroup group, TableLayout layout, List<List<FieldVector>> batches, BufferAllocator allocator) {
    long rows = batches.stream().mapToLong(b -> b.isEmpty() ? 0 : b.get(0).getValueCount()).sum();
    for (int c = 0; c < layout.nodes().size(); c++) {
      ZarrArray array = group.array(layout.nodes().get(c));
      String what = "column " + c + " ('" + layout.schema().getFields().get(c).getName() + "', array " + array + ")";
      assertEquals(1, array.rank(), what);
      assertEquals(rows, array.shape()[0], what + ": rows");
      long offset = 0;
      for (List<FieldVector> batch : batches) {
        FieldVector want = batch.get(c);
        int n = want.getValueCount();
        try (NdVector got = array.read(new Box(new long[] {offset}, new long[] {n}), allocator)) {
          assertSameValues(want, got.vector(), what + " rows " + offset + ".." + (offset + n));
        }
        offset += n;
      }
    }
  }

  /** Same length and elements (nulls included); names and nullability of the fields may differ. */
  public static void assertSameValues(FieldVector want, FieldVector got, String context) {
    assertEquals(want.getValueCount(), got.getValueCount(), context + ": length");
    assertTrue(Fields.sameLayout(Dictionaries.decodedField(want.getField()), got.getField()),
        context + ": type " + got.getField() + " for " + want.getField());
    for (int i = 0; i < want.getValueCount(); i++) {
      if (!new ValueEquals(want, got, (a, b) -> true).rangeEquals(new Range(i, i, 1))) {
        throw new AssertionError(context + ": element " + i + " expected " + want.getObject(i) + ", got " + got.getObject(i));
      }
    }
  }
}
