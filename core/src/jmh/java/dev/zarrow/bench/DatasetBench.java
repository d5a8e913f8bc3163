package dev.zarrow.bench;

import dev.zarrow.Zarr;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetReader;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Issue 25's comparison, outside JMH (a whole-table read is seconds, and the baseline is another
 * process): a reanalysis-like grid xarray writes (two float32 variables over time x 181 x 360, blosc
 * lz4, chunks of 24 hours; {@code TIMES} 116 makes 7.56M rows) read as a table
 * <ul>
 *   <li>{@code zarrow}: every batch of {@link DatasetTable#reader} (decoded, CF-decoded, dimension
 *       columns filled), in this JVM, warm;
 *   <li>{@code xarray}: {@code xr.open_zarr(STORE, chunks=None).to_dataframe()} in a fresh
 *       {@code /usr/bin/python3} process, timed inside it (import excluded).
 * </ul>
 * Rounds alternate the two so that a busier moment of the shared machine costs both alike; prints
 * each round and the medians of wall and CPU time (zarrow: the process's CPU time, all threads; xarray:
 * its process time), and the ratios zarrow / xarray.
 *
 * <pre>java --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED -Xmx1g \
 *   -cp target/jmh-classes:target/classes:$(cat target/bench.classpath) dev.zarrow.bench.DatasetBench ROUNDS [TIMES]</pre>
 */
public final class DatasetBench {
  private DatasetBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int times = args.length > 1 ? Integer.parseInt(args[1]) : 116;
    Path script = Path.of(System.getProperty("zarrow.python.scripts", "src/test/python")).resolve("xarray_datasets.py");
    Path dir = Files.createTempDirectory("dataset-bench");
    Path store = dir.resolve("era.zarr");
    System.out.println(python(script, "big", store.toString(), Integer.toString(times)).strip());
    List<Double> zarrow = new ArrayList<>();
    List<Double> xarray = new ArrayList<>();
    List<Double> zarrowCpu = new ArrayList<>();
    List<Double> xarrayCpu = new ArrayList<>();
    try (FileSystemStore s = FileSystemStore.open(store); BufferAllocator allocator = new RootAllocator()) {
      Dataset dataset = Dataset.open(Zarr.openGroup(s, ""));
      DatasetTable table = dataset.table();
      read(table, allocator); // warm-up
      // where the time goes: the dimension columns alone (filled by runs) and the variables alone
      for (int i = 0; i < 2; i++) {
        long cpu = cpuNanos();
        long start = System.nanoTime();
        for (String v : List.of("t2m", "tp")) {
          try (var whole = dataset.variable(v).array().read(allocator)) {
            whole.vector().getValueCount();
          }
        }
        System.out.printf("the two variables' arrays read whole (ZarrArray.read): %.3f s (cpu %.3f s)%n",
            (System.nanoTime() - start) / 1e9, (cpuNanos() - cpu) / 1e9);
      }
      for (List<String> columns : List.of(List.of("time", "latitude", "longitude"), List.of("t2m", "tp"))) {
        DatasetTable part = dataset.table(dev.zarrow.dataset.DatasetOptions.defaults().withColumns(columns));
        read(part, allocator);
        long cpu = cpuNanos();
        long start = System.nanoTime();
        read(part, allocator);
        System.out.printf("columns %s alone: %.3f s (cpu %.3f s)%n", columns, (System.nanoTime() - start) / 1e9,
            (cpuNanos() - cpu) / 1e9);
      }
      for (int r = 0; r < rounds; r++) {
        long cpu = cpuNanos();
        long start = System.nanoTime();
        long rows = read(table, allocator);
        double z = (System.nanoTime() - start) / 1e9;
        double zCpu = (cpuNanos() - cpu) / 1e9;
        String out = python(script, "time", store.toString());
        double x = Double.parseDouble(out.replaceAll("(?s).*\"seconds\": ([0-9.eE-]+).*", "$1").strip());
        double xCpu = Double.parseDouble(out.replaceAll("(?s).*\"cpu\": ([0-9.eE-]+).*", "$1").strip());
        zarrow.add(z);
        xarray.add(x);
        zarrowCpu.add(zCpu);
        xarrayCpu.add(xCpu);
        System.out.printf("round %d: zarrow %.3f s (cpu %.3f s, %d rows), xarray %.3f s (cpu %.3f s)%n", r, z, zCpu, rows, x, xCpu);
      }
    }
    double zm = median(zarrow);
    double xm = median(xarray);
    System.out.printf("median: zarrow %.3f s, xarray to_dataframe %.3f s: zarrow takes %.2fx xarray's time%n", zm, xm, zm / xm);
    double zc = median(zarrowCpu);
    double xc = median(xarrayCpu);
    System.out.printf("median CPU: zarrow %.3f s, xarray %.3f s: %.2fx%n", zc, xc, zc / xc);
  }

  private static long read(DatasetTable table, BufferAllocator allocator) throws IOException {
    long rows = 0;
    try (DatasetReader reader = table.reader(allocator)) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double median(List<Double> xs) {
    List<Double> sorted = new ArrayList<>(xs);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static String python(Path script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(command + " exited with " + p.exitValue());
    }
    return out;
  }
}
