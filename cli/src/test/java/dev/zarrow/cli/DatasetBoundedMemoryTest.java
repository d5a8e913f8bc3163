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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export --dataset} streams: a grid xarray wrote whose table (31M rows, 954 MB of Arrow data) is
 * far larger than the child JVM's heap (64 MB) and direct-memory limit (512 MB) goes through holding a
 * few chunks of the grid (a chunk is 1.56M rows, 50 MB of the table), and at the end holds none.
 * Measured by Native Memory Tracking's "Other" (every Arrow buffer and direct {@code ByteBuffer}: all
 * memory of data outside the heap), its peak and what is left at exit, and by the peak resident size
 * (VmHWM). The direct-memory limit is no part of the bound: a lower one makes the JVM collect more
 * often, which would hide memory left for a GC to free. Two processors for the child, so that the
 * read-ahead depth (which follows the processor count) is the same on every machine.
 *
 * <p>Before the stored bytes of a chunk went to a temporary freed once the chunk is decoded, they were
 * direct buffers freed only by a GC: "Other" peaked at 366 MB (7.3 chunks) and 220 MB were left at exit;
 * then 210 MB and 16 MB (a batch per chunk, two chunks decoded ahead). With batches of 2^17 rows copied
 * out of decoded chunks held in reused scratch memory, one chunk decoded ahead: 59 MB and 14 MB, peak
 * resident 168 MB (was 338 MB).
 */
class DatasetBoundedMemoryTest {
  private static final long ROWS = 480L * 181 * 360;
  private static final long ROW_BYTES = 8 + 8 + 8 + 4 + 4; // time, latitude, longitude, t2m, tp
  private static final long CHUNK_BYTES = 24L * 181 * 360 * ROW_BYTES;
  private static final Pattern OTHER_PEAK = Pattern.compile("-\\s+Other \\(.*\\R\\s*\\(malloc=(\\d+) .*peak=(\\d+)");
  @TempDir Path dir;

  @Test
  void aDatasetLargerThanMemoryStreamsInAFewChunks() throws Exception {
    PythonPeer.assumeXarray();
    Path store = dir.resolve("era.zarr");
    PythonPeer.run(Duration.ofMinutes(5), "xarray_datasets.py", "big", store.toString(), "480");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx64m", "-XX:MaxDirectMemorySize=512m", "-XX:+UseSerialGC",
        "-XX:ActiveProcessorCount=2", "-XX:NativeMemoryTracking=summary", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintNMTStatistics",
        "-cp", classpath, Main.class.getName(), "export", store.toString(), "/", "/dev/null", "--dataset"));
    Path err = dir.resolve("child.err");
    Path out = dir.resolve("child.out"); // the table goes to /dev/null, the memory statistics to stdout at exit
    Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
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
    assertTrue(messages.contains(ROWS + " rows in 240 batches"), messages); // 20 chunks of 12 batches
    long tableBytes = ROWS * ROW_BYTES;
    Matcher peak = OTHER_PEAK.matcher(Files.readString(out));
    assertTrue(peak.find(), "no Native Memory Tracking statistics:\n" + Files.readString(out));
    long dataLeft = Long.parseLong(peak.group(1));
    long dataPeak = Long.parseLong(peak.group(2));
    // The variables of the chunk being read and of one decoded ahead (12 MB each), their stored bytes,
    // a few batches (4 MB each), the decoders' scratch: about one chunk's table, so at most two.
    assertTrue(dataPeak < 2 * CHUNK_BYTES, "peak memory of data " + (dataPeak >> 20) + " MB: more than 2 chunks of "
        + (CHUNK_BYTES >> 20) + " MB for a table of " + (tableBytes >> 20) + " MB");
    assertTrue(dataLeft < CHUNK_BYTES, (dataLeft >> 20) + " MB of data left at exit: memory only a GC frees");
    assertTrue(peakKb > 0, "no VmHWM read");
    assertTrue(peakKb * 1024 < 512L << 20, "peak resident " + (peakKb >> 10) + " MB for a table of " + (tableBytes >> 20) + " MB");
    System.err.println("export --dataset of " + (tableBytes >> 20) + " MB: peak memory of data " + (dataPeak >> 20)
        + " MB, left at exit " + (dataLeft >> 20) + " MB, peak resident " + (peakKb >> 10) + " MB");
  }
}
