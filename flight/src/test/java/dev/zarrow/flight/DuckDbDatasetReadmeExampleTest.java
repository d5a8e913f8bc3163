package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.Zarr;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.ReadmeSnippets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DuckDB dataset example of README.md, run over a grid xarray wrote: DuckDB's {@code GROUP BY
 * latitude} average equals the same query over xarray's {@code to_dataframe()} (pandas, in float64),
 * and the README shows exactly the lines between the markers.
 */
class DuckDbDatasetReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void exampleRunsAndIsTheOneInTheReadme() throws Exception {
    PythonPeer.assumeXarray();
    PythonPeer.run(Duration.ofMinutes(3), "xarray_datasets.py", "write", dir.toString());
    Path path = dir.resolve("reanalysis.zarr");
    JsonNode means = PythonPeer.run(Duration.ofMinutes(1), "xarray_datasets.py", "groupmean", path.toString(), "latitude", "t2m")
        .get("means");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      example(path);
    } finally {
      System.setOut(stdout);
    }
    List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(means.size(), lines.size(), printed.toString(StandardCharsets.UTF_8));
    for (int i = 0; i < lines.size(); i++) {
      String[] cells = lines.get(i).split(" ");
      assertEquals(means.get(i).get(0).asDouble(), Double.parseDouble(cells[0]), lines.get(i));
      double want = means.get(i).get(1).asDouble();
      assertEquals(want, Double.parseDouble(cells[1]), Math.abs(want) * 1e-12, lines.get(i)); // summation order only
    }

    ReadmeSnippets.assertShown("flight/src/test/java/dev/zarrow/flight/DuckDbDatasetReadmeExampleTest.java");
  }

  private static void example(Path path) throws Exception {
    // README-BEGIN
    try (var store = FileSystemStore.open(path); var allocator = new RootAllocator();
        var stream = ArrowArrayStream.allocateNew(allocator);
        var duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
      var era = Dataset.open(Zarr.openGroup(store, "")).table(); // xarray wrote it at the root
      Data.exportArrayStream(allocator, era.reader(allocator), stream);
      duck.registerArrowStream("era", stream);
      try (var sql = duck.createStatement();
          var rows = sql.executeQuery("SELECT latitude, avg(t2m) FROM era GROUP BY latitude ORDER BY latitude")) {
        while (rows.next()) System.out.println(rows.getDouble(1) + " " + rows.getDouble(2));
      }
    }
    // README-END
  }
}
