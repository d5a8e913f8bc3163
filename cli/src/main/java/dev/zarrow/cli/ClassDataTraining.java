package dev.zarrow.cli;

import com.github.luben.zstd.util.ZstdVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The run whose classes {@code bin/zarrow} lists ({@code -XX:DumpLoadedClassList}) to make its static
 * class-data archive of them ({@code -Xshare:dump}): the commands most runs are made of, in one JVM, on
 * the demo dataset in {@code DIR}, so that the archive holds the classes of reading, writing, checking and
 * printing (help included), whatever command came first. Output is
 * discarded; the exit code is non-zero when a command failed (then the launcher keeps no archive).
 *
 * <p>With a second argument, it also unpacks the native libraries of lz4-java and zstd-jni for this
 * platform into that directory, for the launcher's {@code java.library.path}: each library otherwise
 * copies itself out of the jar into a temporary file on every run (30-40 ms each, before the first chunk
 * of a blosc, lz4 or zstd array decodes). A library not in the jar for this platform is left out; it
 * then unpacks itself as before.
 *
 * <p>The launcher runs it as {@code java -Dzarrow.classDataTraining=true -jar JAR DIR NATIVE_DIR} ({@link
 * Start}), the way every later run starts: only {@code -jar} honours the manifest's {@code Add-Opens}; any
 * other way needs {@code --add-opens} on the command line, with which every run sets up the module
 * system from scratch instead of using the JDK's archived module graph ("optimized module handling").
 */
public final class ClassDataTraining {
  /** The system property that makes {@link Start#main} run this training instead of a command. */
  static final String PROPERTY = "zarrow.classDataTraining";

  private ClassDataTraining() {}

  public static void main(String[] args) throws IOException {
    if (args.length > 1) {
      unpackNativeLibraries(Files.createDirectories(Path.of(args[1])));
    }
    String dir = args[0];
    String copy = Path.of(dir, "copy").toString();
    String ipc = Path.of(dir, "readings.arrows").toString();
    String v2 = Path.of(dir, "v2").toString();
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
    List<String[]> runs = List.of(
        new String[] {"--version"},
        new String[] {"demo", dir},
        new String[] {"ls", dir},
        new String[] {"info", dir, "numbers/grid"},
        new String[] {"info", "--help"},
        new String[] {"cat", dir, "numbers/grid", "--region", "0:2,0:4"},
        new String[] {"cat", dir, "strings/words", "--json"},
        new String[] {"check", dir},
        new String[] {"copy", dir, "numbers/counts", copy, "counts", "--codec", "zstd:1"},
        new String[] {"export", dir, "readings", ipc},
        new String[] {"import", ipc, copy, "readings"},
        // The classes of Zarr v2 and blosc, the format and codec most existing data uses.
        new String[] {"copy", dir, "numbers/grid", v2, "grid", "--zarr-format", "2", "--codec", "blosc:lz4:5:shuffle"},
        new String[] {"check", v2});
    int failed = 0;
    for (String[] run : runs) {
      failed += Main.run(run, sink, sink) == 0 ? 0 : 1;
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /** lz4-java and zstd-jni look for these names on {@code java.library.path} before unpacking their own. */
  private static void unpackNativeLibraries(Path dir) throws IOException {
    String osName = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String os = osName.contains("mac") || osName.contains("darwin") ? "darwin" : osName.contains("linux") ? "linux" : null;
    if (os == null) {
      return; // the launcher is a bash script: Linux and macOS
    }
    String arch = System.getProperty("os.arch");
    String lz4 = System.mapLibraryName("lz4-java");
    unpack("/net/jpountz/util/" + os + "/" + arch + "/" + lz4, dir.resolve(lz4));
    String zstd = System.mapLibraryName("zstd-jni-" + ZstdVersion.VERSION);
    String zstdArch = os.equals("darwin") && arch.equals("amd64") ? "x86_64" : arch;
    unpack("/" + os + "/" + zstdArch + "/" + zstd, dir.resolve(zstd));
  }

  private static void unpack(String resource, Path to) throws IOException {
    try (InputStream in = ClassDataTraining.class.getResourceAsStream(resource)) {
      if (in != null) {
        Files.copy(in, to);
      }
    }
  }
}
