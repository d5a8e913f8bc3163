package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.ReadmeSnippets;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DuckDB example of README.md, run: the README shows exactly the lines between the markers. */
class DuckDbReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void exampleRunsAndIsTheOneInTheReadme() throws Exception {
    Path path = dir.resolve("shop.zarr");
    try (var store = FileSystemStore.open(path); var allocator = new RootAllocator();
        VarCharVector city = Vectors.utf8(allocator, "city", "Oslo", "Lima", "Oslo", "Pune", "Lima", "Oslo");
        Float8Vector amount = new Float8Vector("amount", allocator);
        VectorSchemaRoot sales = VectorSchemaRoot.of(city, amount)) {
      amount.allocateNew(6);
      for (int i = 0; i < 6; i++) {
        amount.set(i, 1.5 * (i + 1));
      }
      amount.setValueCount(6);
      sales.setRowCount(6);
      TableWriter.write(Zarr.createGroup(store, "sales"), sales, TableOptions.defaults().withChunkRows(4));
    }
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      example(path);
    } finally {
      System.setOut(stdout);
    }
    assertEquals("Lima 2 10.5\nOslo 3 15.0\nPune 1 6.0\n", printed.toString(StandardCharsets.UTF_8));

    ReadmeSnippets.assertShown("flight/src/test/java/dev/zarrow/flight/DuckDbReadmeExampleTest.java");
  }

  private static void example(Path path) throws Exception {
    // README-BEGIN
    try (var store = FileSystemStore.open(path); var allocator = new RootAllocator();
        var stream = ArrowArrayStream.allocateNew(allocator);
        var duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
      Data.exportArrayStream(allocator, TableReader.of(Zarr.openGroup(store, "sales"), allocator), stream);
      duck.registerArrowStream("sales", stream);
      try (var sql = duck.createStatement();
          var rows = sql.executeQuery("SELECT city, count(*), sum(amount) FROM sales GROUP BY city ORDER BY city")) {
        while (rows.next()) System.out.println(rows.getString(1) + " " + rows.getLong(2) + " " + rows.getDouble(3));
      }
    }
    // README-END
  }
}
