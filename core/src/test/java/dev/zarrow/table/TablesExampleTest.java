package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.ProjectPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's table program, examples/Tables.java: the README shows the file exactly, and the program
 * runs as the README says (Java's source launcher, the README's --add-opens, the library on the class
 * path), prints the table, and leaves a group table that the library reads back.
 */
class TablesExampleTest {
  private static final String OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

  @TempDir Path dir;

  @Test
  void theReadmeShowsTheProgramExactly() throws Exception {
    String program = Files.readString(ProjectPaths.root().resolve("examples/Tables.java"));
    String readme = Files.readString(ProjectPaths.root().resolve("README.md"));
    assertTrue(readme.contains("```java\n" + program + "```\n"), "README.md must show examples/Tables.java exactly");
    assertTrue(readme.contains("java " + OPENS + " -cp \"core/target/classes:$(cat core/target/classpath.txt)\" examples/Tables.java "),
        "README.md runs the program with " + OPENS);
  }

  @Test
  void theProgramRunsAndWritesATable() throws Exception {
    Path out = dir.resolve("stdout.txt");
    Path store = dir.resolve("tables.zarr");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), OPENS,
        "-cp", classpath, ProjectPaths.root().resolve("examples/Tables.java").toString(), store.toString())
        .redirectOutput(out.toFile()).redirectError(dir.resolve("stderr.txt").toFile()).start();
    assertTrue(java.waitFor(120, TimeUnit.SECONDS), "the program did not finish");
    assertEquals(0, java.exitValue(), Files.readString(dir.resolve("stderr.txt")));
    assertEquals(String.join("\n",
        "Schema<id: Int(64, true), city: Utf8, amount: FloatingPoint(DOUBLE)>",
        "id\tcity\tamount", "100\tOslo\t1.5", "101\tLima\t3.0",
        "id\tcity\tamount", "102\tOslo\t4.5", "103\tPune\tnull",
        "id\tcity\tamount", "104\tLima\t7.5", ""), Files.readString(out, StandardCharsets.UTF_8));

    try (FileSystemStore s = FileSystemStore.open(store); RootAllocator allocator = new RootAllocator();
        TableReader reader = TableReader.of(Zarr.openGroup(s, "sales"), allocator)) {
      long rows = 0;
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        rows += root.getRowCount();
      }
      assertEquals(5, rows);
      assertEquals(List.of("id", "city", "amount"),
          reader.getVectorSchemaRoot().getSchema().getFields().stream().map(f -> f.getName()).toList());
    }
  }
}
