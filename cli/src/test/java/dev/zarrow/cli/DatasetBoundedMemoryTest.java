package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.PythonPeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --dataset} streams: a grid xarray wrote whose table (31M rows, 1 GB of Arrow data) is
 * far larger than the child JVM's heap (64 MB) and direct-memory limit (512 MB) goes through with a
 * peak resident size (VmHWM) of a few chunks of the grid (a chunk is 1.56M rows, 50 MB) plus the JVM.
 */
@Disabled("fails today: with a 64 or 256 MB direct-memory limit the export runs out of direct memory, and with 512 MB"
    + " its peak resident size is 686 MB for a 954 MB table. The chunk bytes FileSource reads are direct ByteBuffers"
    + " (ByteBuffer.allocateDirect) freed only when a GC collects them, and a 64 MB heap rarely collects: enable this"
    + " test once a store read's memory is released when its chunk is decoded (issue 25's bounded-memory requirement)")
class DatasetBoundedMemoryTest {
  private static final long ROWS = 480L * 181 * 360;
  @TempDir Path dir;

  @Test
  void aDatasetLargerThanMemoryStreamsInAFewChunks() throws Exception {
    PythonPeer.assumeXarray();
    Path store = dir.resolve("era.zarr");
    PythonPeer.run(Duration.ofMinutes(5), "xarray_datasets.py", "big", store.toString(), "480");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx64m", "-XX:MaxDirectMemorySize=512m", "-XX:+UseSerialGC",
        "-cp", classpath, Main.class.getName(), "export", store.toString(), "/", "-", "--dataset"));
    Path err = dir.resolve("child.err");
    Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
    long peakKb = 0;
    Path status = Path.of("/proc", Long.toString(child.pid()), "status");
    while (!child.waitFor(50, TimeUnit.MILLISECONDS)) {
      try {
        for (String line : Files.readAllLines(status)) {
          if (line.startsWith("VmHWM:")) {
            peakKb = Math.max(peakKb, Long.parseLong(line.replaceAll("\\D", "")));
          }
        }
      } catch (java.io.IOException gone) {
        // the child ended between the wait and the read
      }
    }
    String messages = Files.readString(err);
    assertEquals(0, child.exitValue(), messages);
    assertTrue(messages.contains(ROWS + " rows in 20 batches"), messages);
    long tableBytes = ROWS * (8 + 8 + 8 + 4 + 4);
    assertTrue(peakKb > 0, "no VmHWM read");
    assertTrue(peakKb * 1024 < 640L << 20, "peak resident " + (peakKb >> 10) + " MB for a table of " + (tableBytes >> 20) + " MB");
    System.err.println("export --dataset of " + (tableBytes >> 20) + " MB: peak resident " + (peakKb >> 10) + " MB");
  }
}
