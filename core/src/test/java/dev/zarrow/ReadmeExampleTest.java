package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.ReadmeSnippets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java example of README.md, run: the README shows exactly the lines between the markers. */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void exampleRunsAndIsTheOneInTheReadme() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      example(dir.resolve("weather.zarr"));
    } finally {
      System.setOut(stdout);
    }
    assertEquals("[0.0, 0.5, 1.0, 1.5]", printed.toString(StandardCharsets.UTF_8).strip());

    ReadmeSnippets.assertShown("core/src/test/java/dev/zarrow/ReadmeExampleTest.java");
  }

  private static void example(Path path) {
    // README-BEGIN
    try (var store = FileSystemStore.open(path); var allocator = new RootAllocator()) {
      ZarrArray temps = Zarr.createArray(store, "temps", ArraySpec.of(FixedType.FLOAT32, 365, 720)
          .chunks(30, 180).compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c())));
      try (var day = new Float4Vector("t", allocator)) {
        day.allocateNew(720);
        for (int i = 0; i < 720; i++) day.set(i, i * 0.5f);
        day.setValueCount(720);
        temps.write(new long[] {0, 0}, new NdVector(day, new long[] {1, 720}));
      }
      Box firstFour = Box.parse("0:1,0:4", temps.shape());
      try (NdVector region = Zarr.openArray(store, "temps").read(firstFour, allocator)) {
        System.out.println(region.vector()); // [0.0, 0.5, 1.0, 1.5]
      }
    }
    // README-END
  }
}
