package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.UnaryOperator;

/**
 * README examples that tests run: the lines of a test's source between {@code // README-BEGIN} and
 * {@code // README-END}, dedented to the marker's column, must stand in README.md as a {@code java}
 * block, so the README cannot drift from code that runs.
 */
public final class ReadmeSnippets {
  private static final String BEGIN = "// README-BEGIN\n";
  private static final String END = "// README-END";

  private ReadmeSnippets() {}

  /** Asserts README.md shows the marked lines of SOURCE (a path from the checkout root) exactly. */
  public static void assertShown(String source) {
    assertShown(source, UnaryOperator.identity());
  }

  /**
   * Asserts README.md shows the marked lines of SOURCE after SHOWN rewrites them (a test's temporary
   * locations for the README's own, say).
   */
  public static void assertShown(String source, UnaryOperator<String> shown) {
    String snippet = shown.apply(snippet(source));
    assertTrue(read("README.md").contains("```java\n" + snippet + "```\n"),
        "README.md must show the example of " + source + " exactly as:\n" + snippet);
  }

  /** The marked lines of SOURCE, dedented to the column of the begin marker, each ending in a newline. */
  static String snippet(String source) {
    String text = read(source);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END, begin);
    if (begin < 0 || end < 0) {
      throw new IllegalStateException(source + " marks no README example");
    }
    int indent = begin - (text.lastIndexOf('\n', begin) + 1);
    StringBuilder out = new StringBuilder();
    text.substring(begin + BEGIN.length(), end - indent)
        .lines()
        .forEach(line -> out.append(line.length() >= indent ? line.substring(indent) : line.strip()).append('\n'));
    return out.toString();
  }

  private static String read(String path) {
    try {
      return Files.readString(ProjectPaths.root().resolve(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
