package dev.zarrow.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The run {@code bin/zarrow} records its class-data archive from ({@code -XX:ArchiveClassesAtExit}): the
 * commands most runs are made of, in one JVM, on the demo dataset in {@code DIR}, so that the archive
 * holds the classes of reading, writing, checking and printing, whatever command came first. Output is
 * discarded; the exit code is non-zero when a command failed (then the launcher keeps no archive).
 */
public final class ClassDataTraining {
  private ClassDataTraining() {}

  public static void main(String[] args) {
    String dir = args[0];
    String copy = Path.of(dir, "copy").toString();
    String ipc = Path.of(dir, "readings.arrows").toString();
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
    List<String[]> runs = List.of(
        new String[] {"--version"},
        new String[] {"demo", dir},
        new String[] {"ls", dir},
        new String[] {"info", dir, "numbers/grid"},
        new String[] {"cat", dir, "numbers/grid", "--region", "0:2,0:4"},
        new String[] {"cat", dir, "strings/words", "--json"},
        new String[] {"check", dir},
        new String[] {"copy", dir, "numbers/counts", copy, "counts", "--codec", "zstd:1"},
        new String[] {"export", dir, "readings", ipc},
        new String[] {"import", ipc, copy, "readings"});
    int failed = 0;
    for (String[] run : runs) {
      failed += Main.run(run, sink, sink) == 0 ? 0 : 1;
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
