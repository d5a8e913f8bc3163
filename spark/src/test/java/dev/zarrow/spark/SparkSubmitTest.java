package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector as {@code spark-submit} runs it: Spark's jars (and so Spark's Arrow, Jackson and
 * Netty) on the JVM's class path, the application jar and zarrow given with {@code --jars} and loaded
 * after them by Spark's own class loader. It writes and reads a table on Jackson 2.20, Spark's line.
 */
class SparkSubmitTest {
  /** zarrow's own class path entries: the library, the CLI, this module's classes. */
  private static final Pattern OURS = Pattern.compile(".*(/zarrow(-cli)?-[^/]*\\.jar|/(core|cli|spark)/target/(test-)?classes/?)$");
  private static final Pattern LIBRARY = Pattern.compile(".*(/zarrow-[0-9][^/]*(?<!-tests)\\.jar|/core/target/classes/?)$");

  @TempDir Path tmp;

  @Test
  void runsWithSparksJarsFirst() throws Exception {
    List<String> spark = new ArrayList<>();
    Path library = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (LIBRARY.matcher(entry).matches()) {
        library = Path.of(entry);
      } else if (!OURS.matcher(entry).matches()) {
        spark.add(entry);
      }
    }
    assertTrue(library != null, "zarrow is on the test class path");
    Path app = tmp.resolve("app.jar");
    jar(app, Path.of("target/classes"), Path.of("target/test-classes"));
    Path zarrow = Files.isDirectory(library) ? jar(tmp.resolve("zarrow.jar"), library) : library;

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The JDK 17 options the build gives the tests, which Spark's launcher would add.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("-XX:+IgnoreUnrecognized") || a.startsWith("-Djdk.reflect")
            || a.startsWith("-Dio.netty"))
        .forEach(command::add);
    command.addAll(List.of("-Xmx1g", "-cp", String.join(File.pathSeparator, spark), "org.apache.spark.deploy.SparkSubmit",
        "--master", "local[2]", "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.driver.bindAddress=127.0.0.1", "--class", SubmitCheck.class.getName(), "--jars", zarrow.toString(),
        app.toString(), tmp.resolve("table").toString()));
    Path log = tmp.resolve("submit.log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = process.waitFor(4, TimeUnit.MINUTES);
    if (!done) {
      process.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertTrue(done, "spark-submit did not finish in time:\n" + output);
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("ok 1000 2.20.0"), output);
  }

  private static Path jar(Path out, Path... dirs) throws IOException {
    try (OutputStream file = Files.newOutputStream(out); JarOutputStream jar = new JarOutputStream(file)) {
      for (Path dir : dirs) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.filter(Files::isRegularFile).toList()) {
            jar.putNextEntry(new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
            Files.copy(f, jar);
            jar.closeEntry();
          }
        }
      }
    }
    return out;
  }
}
