package dev.zarrow.spark;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.store.Store;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The table at the root of a store: a group (its table, see {@link TableReader}) or an array (one
 * column, see {@link ArrayReader}). Rows {@code [start, end)} of chosen columns come as an
 * {@link ArrowReader}.
 */
final class ZarrSource {
  private final ZarrNode node;

  ZarrSource(ZarrNode node) {
    this.node = node;
  }

  static ZarrSource open(Store store) {
    return new ZarrSource(Zarr.open(store, "", TaskOptions.current()));
  }

  /** What a scan plans with: the stored schema, the rows, and the rows of one stored chunk (shard). */
  record Shape(Schema schema, long rows, long chunkRows) {}

  Shape shape() {
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = reader(allocator, null, 0, 0, -1)) {
      Schema schema = TableWriter.storedSchema(reader.getVectorSchemaRoot().getSchema(), reader);
      Set<String> names = new HashSet<>();
      for (Field f : schema.getFields()) {
        if (!names.add(f.getName())) {
          throw new IllegalArgumentException("zarr: the table has two columns named '" + f.getName() + "', which a DataFrame cannot tell apart");
        }
      }
      long rows = reader instanceof TableReader t ? t.rows() : ((ArrayReader) reader).rows();
      long chunkRows = reader instanceof TableReader t ? t.chunkRows() : ((ArrayReader) reader).chunkRows();
      return new Shape(schema, rows, chunkRows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A reader of rows {@code [start, end)} ({@code end} -1: to the last) of {@code columns} (null: all;
   * an array has its one column), memory from {@code allocator}; the caller closes it.
   */
  ArrowReader reader(BufferAllocator allocator, List<String> columns, int batchRows, long start, long end) {
    if (node instanceof ZarrGroup group) {
      return TableReader.of(group, allocator, columns, batchRows, start, end);
    }
    return ArrayReader.of((ZarrArray) node, allocator, batchRows, start, end);
  }

  /** The arrays that hold {@code columns} (for their chunk keys). */
  List<ZarrArray> arrays(List<String> columns) {
    if (node instanceof ZarrArray array) {
      return List.of(array);
    }
    ZarrGroup group = (ZarrGroup) node;
    Optional<TableLayout> layout = TableLayout.fromAttributes(group.attributes());
    List<ZarrArray> out = new ArrayList<>();
    for (String column : columns) {
      String nodeName = column;
      if (layout.isPresent()) {
        List<Field> fields = layout.get().schema().getFields();
        for (int i = 0; i < fields.size(); i++) {
          if (fields.get(i).getName().equals(column)) {
            nodeName = layout.get().nodes().get(i);
          }
        }
      }
      out.add(group.array(nodeName));
    }
    return out;
  }
}
