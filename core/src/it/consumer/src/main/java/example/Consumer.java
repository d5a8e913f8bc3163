package example;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** What a new user does first: write an array and a table into a directory, open both again, read them back. */
public final class Consumer {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    try (var store = FileSystemStore.open(dir); var allocator = new RootAllocator()) {
      ZarrArray temps = Zarr.createArray(store, "temps", ArraySpec.of(FixedType.FLOAT32, 4, 6)
          .chunks(2, 3).compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c())));
      try (var row = new Float4Vector("t", allocator)) {
        row.allocateNew(6);
        for (int i = 0; i < 6; i++) {
          row.set(i, i * 0.5f);
        }
        row.setValueCount(6);
        temps.write(new long[] {1, 0}, new NdVector(row, new long[] {1, 6}));
      }
      try (NdVector region = Zarr.openArray(store, "temps").read(Box.parse("1:2,2:5", temps.shape()), allocator)) {
        check(region.vector().toString().equals("[1.0, 1.5, 2.0]"), "array region " + region.vector());
      }

      try (var id = new BigIntVector("id", allocator); var name = new VarCharVector("name", allocator)) {
        id.allocateNew(3);
        name.allocateNew();
        for (int i = 0; i < 3; i++) {
          id.set(i, 10 + i);
          name.setSafe(i, ("row " + i).getBytes(StandardCharsets.UTF_8));
        }
        id.setValueCount(3);
        name.setValueCount(3);
        try (var table = VectorSchemaRoot.of(id, name)) {
          table.setRowCount(3);
          TableWriter.write(Zarr.createGroup(store, "sales"), table, TableOptions.defaults());
        }
      }
      ZarrGroup sales = Zarr.openGroup(store, "sales");
      try (TableReader reader = TableReader.of(sales, allocator)) {
        check(reader.loadNextBatch(), "a batch");
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        check(root.getRowCount() == 3, "3 rows, not " + root.getRowCount());
        check(root.getVector("id").getObject(2).equals(12L), "id " + root.getVector("id"));
        check(root.getVector("name").getObject(1).toString().equals("row 1"), "name " + root.getVector("name"));
        check(!reader.loadNextBatch(), "one batch");
      }
    }
    System.out.println("zarrow consumer: array and table written and read back");
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new AssertionError("wrong: " + what);
    }
  }
}
