import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Writes an Arrow table into a new Zarr group and reads it back. Usage: Tables DIR */
public class Tables {
  public static void main(String[] args) throws Exception {
    try (var store = FileSystemStore.open(Path.of(args[0])); var allocator = new RootAllocator()) {
      // An Arrow table: three columns, five rows, one amount missing (a null).
      try (var id = new BigIntVector("id", allocator);
          var city = new VarCharVector("city", allocator);
          var amount = new Float8Vector("amount", allocator);
          var sales = VectorSchemaRoot.of(id, city, amount)) {
        String[] cities = {"Oslo", "Lima", "Oslo", "Pune", "Lima"};
        for (int i = 0; i < cities.length; i++) {
          id.setSafe(i, 100 + i);
          city.setSafe(i, cities[i].getBytes(StandardCharsets.UTF_8));
          if (i != 3) {
            amount.setSafe(i, 1.5 * (i + 1));
          }
        }
        sales.setRowCount(cities.length);
        // The group "sales": one Zarr array per column in chunks of 2 rows, then the schema as its attribute.
        TableWriter.write(Zarr.createGroup(store, "sales"), sales, TableOptions.defaults().withChunkRows(2));
      }

      // Read it back: a batch per chunk, in one root that the reader reuses (and closes).
      try (var reader = TableReader.of(Zarr.openGroup(store, "sales"), allocator)) {
        System.out.println(reader.getVectorSchemaRoot().getSchema());
        while (reader.loadNextBatch()) {
          System.out.print(reader.getVectorSchemaRoot().contentToTSVString());
        }
      }
    }
  }
}
