package dev.zarrow.table;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.arrow.Dictionaries;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.store.WritableStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Group tables built the plain way, for the readers' tests: one {@code arrow}-typed array per column
 * (small chunks, so batches cross chunk edges), rows appended batch by batch with dictionaries
 * decoded, then the {@code zarrow_table} attribute.
 */
final class TestTables {
  private TestTables() {}

  static ZarrGroup write(ArrowReader source, WritableStore store, String path, int chunkRows, BufferAllocator allocator)
      throws Exception {
    Schema stored = StreamSnapshot.storedSchema(source);
    TableLayout layout = TableLayout.forSchema(stored);
    ZarrGroup group = Zarr.createGroup(store, path);
    List<ZarrArray> arrays = new ArrayList<>();
    for (int i = 0; i < stored.getFields().size(); i++) {
      arrays.add(group.createArray(layout.nodes().get(i),
          ArraySpec.of(ArrowDataType.of(stored.getFields().get(i)), 0).chunks(chunkRows)));
    }
    long rows = 0;
    while (source.loadNextBatch()) {
      int n = source.getVectorSchemaRoot().getRowCount();
      if (n == 0) {
        continue;
      }
      for (int i = 0; i < arrays.size(); i++) {
        Field field = stored.getFields().get(i);
        FieldVector vector = source.getVectorSchemaRoot().getFieldVectors().get(i);
        ZarrArray array = arrays.get(i).resize(rows + n);
        arrays.set(i, array);
        if (Dictionaries.isEncoded(field)) {
          Map<Long, FieldVector> dictionaries = new HashMap<>();
          for (long id : Dictionaries.valueFields(field).keySet()) {
            dictionaries.put(id, source.lookup(id).getVector());
          }
          try (FieldVector decoded = Dictionaries.decode(vector, field, dictionaries, allocator)) {
            array.write(rows, decoded);
          }
        } else {
          array.write(rows, vector);
        }
      }
      rows += n;
    }
    return group.withAttributes(layout.into(group.attributes()));
  }
}
