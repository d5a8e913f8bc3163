package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/zarrow} as users run it, on the jar this build made: the class-data archive is made on the
 * first run and mapped by the next ones, a cache directory that cannot be written costs nothing but the
 * archive, and no run prints SLF4J's warnings (the CLI ships a provider).
 */
class LauncherIT {
  private static final Path LAUNCHER = Path.of("").toAbsolutePath().getParent().resolve("bin/zarrow");
  private static final String VERSION_LINE = "zarrow \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(Arrow [^)]*\\)\n";

  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  private Run zarrow(Map<String, String> env, String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of(LAUNCHER.toString()), Stream.of(args)).toList())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("ZARROW_CDS");
    builder.environment().putAll(env);
    Process process = builder.start();
    assertTrue(process.waitFor(180, TimeUnit.SECONDS), "bin/zarrow " + String.join(" ", args) + " finished");
    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static List<Path> archives(Path cache) throws IOException {
    try (Stream<Path> files = Files.list(cache)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".jsa")).toList();
    }
  }

  @Test
  void theFirstRunMakesTheArchiveAndTheNextOnesMapIt() throws Exception {
    Path cache = dir.resolve("cache");
    Map<String, String> env = Map.of("ZARROW_CACHE_DIR", cache.toString());
    Run first = zarrow(env, "--version");
    assertEquals(0, first.exit(), first.toString());
    assertTrue(first.out().matches(VERSION_LINE), first.out());
    assertEquals("", first.err());
    List<Path> made = archives(cache);
    assertEquals(1, made.size(), "one archive in " + cache + ": " + made);
    FileTime madeAt = Files.getLastModifiedTime(made.get(0));
    try (Stream<Path> files = Files.list(cache)) {
      assertFalse(files.anyMatch(p -> p.getFileName().toString().startsWith(".training.X")), "the training's files removed");
    }

    // The JVM says where each class came from: the CLI's own classes from the archive, and
    // for a version query nothing from a jar (no class and no resource has the class loader open the
    // shaded jar). The archive keeps the JDK's module graph optimisation, which a training or a run
    // with --add-opens on the command line would turn off.
    Path classLog = dir.resolve("classes.log");
    Path cdsLog = dir.resolve("cds.log");
    Run second = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString(),
        "JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog + " -Xlog:cds=info:file=" + cdsLog), "--version");
    assertEquals(0, second.exit(), second.toString());
    assertTrue(second.out().matches(VERSION_LINE), second.out());
    assertEquals(made, archives(cache), "the archive is reused, not made again");
    assertEquals(madeAt, Files.getLastModifiedTime(made.get(0)));
    String classes = Files.readString(classLog, StandardCharsets.UTF_8);
    assertTrue(classes.lines().anyMatch(l -> l.contains("dev.zarrow.cli.Start ") && l.contains("source: shared objects file")),
        "dev.zarrow.cli.Start from the archive:\n" + classes.lines().filter(l -> l.contains("dev.zarrow")).limit(5).toList());
    assertEquals(List.of(), classes.lines().filter(l -> l.contains("source: file:") || l.contains("source: jar:")).toList(),
        "classes loaded from a jar");
    String cds = Files.readString(cdsLog, StandardCharsets.UTF_8);
    assertTrue(cds.contains("optimized module handling: enabled"), cds);

    // A command's classes come from the archive, picocli's too (Java 5 class files, which JDK 17 keeps
    // out of a dynamic archive): it is a static one. info runs without picocli (DirectLine), help with it.
    Path group = Files.createDirectories(dir.resolve("group"));
    Files.writeString(group.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
    for (List<String> line : List.of(List.of("info", group.toString()), List.of("info", "--help"))) {
      Path log = dir.resolve("classes-" + line.size() + line.get(1).length() + ".log");
      Run run = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString(), "JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + log),
          line.toArray(String[]::new));
      assertEquals(0, run.exit(), run.toString());
      String loaded = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(line.get(1).equals("--help"), loaded.lines().anyMatch(l -> l.contains("picocli.CommandLine ")), line + ": picocli");
      assertEquals(List.of(), loaded.lines().filter(l -> l.contains("source: file:") || l.contains("source: jar:")).toList(),
          line + ": classes loaded from a jar");
      // Run from its own jar, the CLI takes zarrow's plugins as they are (ZarrOptions.builtIn): no
      // ServiceLoader lookup, which would open the shaded jar.
      assertFalse(loaded.lines().anyMatch(l -> l.contains("dev.zarrow.spi.Registry$Defaults ")), line + ": a class-path lookup of plugins");
    }
  }

  @Test
  void anArchiveOlderThanTheJarOrMadeByAnotherJavaIsMadeAgain() throws Exception {
    Path cache = dir.resolve("cache");
    Map<String, String> env = Map.of("ZARROW_CACHE_DIR", cache.toString());
    assertEquals(0, zarrow(env, "--version").exit());
    Path archive = archives(cache).get(0);
    Path madeWith = archive.resolveSibling(archive.getFileName().toString().replaceFirst("\\.jsa$", ".java"));
    assertTrue(Files.isRegularFile(Path.of(Files.readString(madeWith).strip())), "names the java binary: " + Files.readString(madeWith));

    // As after a rebuild of the jar: the archive is older than it.
    FileTime old = FileTime.fromMillis(0);
    Files.setLastModifiedTime(archive, old);
    assertEquals(0, zarrow(env, "--version").exit());
    assertTrue(Files.getLastModifiedTime(archive).compareTo(old) > 0, "made again");

    // As after a JDK update in place: the java binary is another file than the one it was made with.
    FileTime made = Files.getLastModifiedTime(archive);
    Files.writeString(madeWith, "/bin/sh\n");
    Thread.sleep(10);
    assertEquals(0, zarrow(env, "--version").exit());
    assertTrue(Files.getLastModifiedTime(archive).compareTo(made) > 0, "made again");
    assertEquals(1, archives(cache).size(), "the old one replaced: " + archives(cache));
  }

  @Test
  void theNativeLibrariesAreLoadedFromTheCacheNotUnpackedOnEveryRun() throws Exception {
    Path cache = dir.resolve("cache");
    Path demo = dir.resolve("demo");
    assertEquals(0, zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString()), "demo", demo.toString()).exit());
    Run copy = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString()),
        "copy", demo.toString(), "numbers/grid", demo.toString(), "lz4", "--codec", "blosc:lz4");
    assertEquals(0, copy.exit(), copy.toString());
    try (Stream<Path> files = Files.list(cache)) {
      Path natives = files.filter(p -> p.getFileName().toString().endsWith(".native")).findFirst().orElseThrow();
      assertTrue(Files.size(natives.resolve(System.mapLibraryName("lz4-java"))) > 0, "lz4-java unpacked in " + natives);
    }
    // lz4-java keeps the copy it unpacks into java.io.tmpdir when told to: with the cache it makes none.
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    String keep = "-Djava.io.tmpdir=" + tmp + " -Dlz4java.jnilib.temp.keep=true";
    Run cached = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString(), "JAVA_TOOL_OPTIONS", keep), "check", demo.toString(), "lz4");
    assertEquals(0, cached.exit(), cached.toString());
    assertEquals(List.of(), unpackedLz4(tmp), "loaded from the cache");
    Run off = zarrow(Map.of("ZARROW_CDS", "off", "JAVA_TOOL_OPTIONS", keep), "check", demo.toString(), "lz4");
    assertEquals(0, off.exit(), off.toString());
    assertEquals(1, unpackedLz4(tmp).size(), "without the cache lz4-java unpacks itself");
  }

  private static List<Path> unpackedLz4(Path tmp) throws IOException {
    try (Stream<Path> files = Files.list(tmp)) {
      return files.filter(p -> p.getFileName().toString().startsWith("liblz4-java")).toList();
    }
  }

  @Test
  void aCacheDirectoryThatCannotBeMadeOnlyCostsTheArchive() throws Exception {
    // A path below a regular file can be neither created nor written, even by root.
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    Run run = zarrow(Map.of("ZARROW_CACHE_DIR", file.resolve("cache").toString()), "--version");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().matches(VERSION_LINE), run.out());
    assertEquals("", run.err());
  }

  @Test
  void anArchiveTheJvmCannotUseIsIgnoredQuietly() throws Exception {
    Path cache = Files.createDirectories(dir.resolve("cache"));
    Run first = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString()), "--version");
    assertEquals(0, first.exit(), first.toString());
    // Another jar's archive under this jar's name (as after a JDK update in place): the JVM refuses it.
    Path archive = archives(cache).get(0);
    Files.write(archive, new byte[] {1, 2, 3, 4});
    Run run = zarrow(Map.of("ZARROW_CACHE_DIR", cache.toString()), "--version");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().matches(VERSION_LINE), run.out());
    assertEquals("", run.err());
  }

  @Test
  void aTrainingThatFailsIsNotRetried() throws Exception {
    // A JDK whose java cannot list the classes a run loads, and counts the attempts.
    Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
    Path attempts = dir.resolve("attempts.txt");
    Path java = Files.writeString(jdk.resolve("java"), "#!/bin/sh\n"
        + "case \"$*\" in *DumpLoadedClassList*) echo attempt >> '" + attempts + "'; exit 1 ;; esac\n"
        + "exec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
    assertTrue(java.toFile().setExecutable(true));
    Path cache = dir.resolve("cache");
    Map<String, String> env = Map.of("ZARROW_CACHE_DIR", cache.toString(), "JAVA_HOME", jdk.getParent().toString());
    for (int i = 0; i < 2; i++) {
      Run run = zarrow(env, "--version");
      assertEquals(0, run.exit(), run.toString());
      assertTrue(run.out().matches(VERSION_LINE), run.out());
      assertEquals("", run.err());
    }
    assertEquals(List.of("attempt"), Files.readAllLines(attempts));
    assertEquals(List.of(), archives(cache));
  }

  @Test
  void noSlf4jWarnings() throws Exception {
    Map<String, String> env = Map.of("ZARROW_CDS", "off");
    Run version = zarrow(env, "--version");
    Run demo = zarrow(env, "demo", dir.resolve("demo").toString());
    assertEquals(0, demo.exit(), demo.toString());
    for (Run run : List.of(version, demo)) {
      assertFalse((run.out() + run.err()).contains("SLF4J"), run.toString());
    }
    assertEquals("", version.err());
  }
}
