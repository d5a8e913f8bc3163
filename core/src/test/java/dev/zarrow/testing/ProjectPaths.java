package dev.zarrow.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the checkout's shared test inputs are, whichever module's tests run (Maven runs each in its own directory). */
public final class ProjectPaths {
  private ProjectPaths() {}

  /** The root of the checkout: the nearest directory at or above the working directory with {@code .ci/run}. */
  public static Path root() {
    Path start = Path.of("").toAbsolutePath();
    for (Path d = start; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(".ci/run"))) {
        return d;
      }
    }
    throw new IllegalStateException("no checkout root (a directory with .ci/run) at or above " + start);
  }

  /** The project's Arrow JSON-integration fixtures, {@code arrow-json-fixtures/}. */
  public static Path fixtures() {
    return root().resolve("arrow-json-fixtures");
  }

  /** The fixture {@code arrow-json-fixtures/NAME.json}. */
  public static Path fixture(String name) {
    return fixtures().resolve(name + ".json");
  }
}
