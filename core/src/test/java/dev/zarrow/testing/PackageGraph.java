package dev.zarrow.testing;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class-level dependencies between zarrow's packages, as the JDK's {@code jdeps} reads them from
 * compiled classes (what the code uses, not what javadoc mentions), checked against a layer order.
 *
 * <p>A layer is a list of package patterns: a name ({@code dev.zarrow.codec}) or a name with {@code .*}
 * for its sub-packages ({@code dev.zarrow.codec.*}). A package may use its own classes and those of
 * lower layers only: never a package of a higher layer, nor another package of its own layer. That
 * order makes the graph acyclic by construction; {@link #violations} lists every edge against it.
 */
public final class PackageGraph {
  private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.zarrow\\.\\S+)\\s+->\\s+(dev\\.zarrow\\.\\S+)\\s");

  /** From class (binary name) to the zarrow classes it uses. */
  private final Map<String, TreeSet<String>> uses;

  private PackageGraph(Map<String, TreeSet<String>> uses) {
    this.uses = uses;
  }

  /** The dependencies of the classes under {@code classes} (compiled output directories) on zarrow classes. */
  public static PackageGraph of(Path... classes) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
    List<String> args = new ArrayList<>(List.of("-verbose:class", "-e", "dev\\.zarrow\\..*"));
    for (Path p : classes) {
      // The class files one by one: given the directory, jdeps would resolve module-info's requires.
      try (Stream<Path> files = Files.walk(p)) {
        files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().equals("module-info.class"))
            .forEach(f -> args.add(f.toString()));
      } catch (IOException e) {
        throw new AssertionError("no compiled classes at " + p.toAbsolutePath(), e);
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
    if (status != 0) {
      throw new AssertionError("jdeps " + args + " failed (" + status + "): " + err);
    }
    Map<String, TreeSet<String>> uses = new TreeMap<>();
    for (String line : out.toString().lines().toList()) {
      Matcher m = EDGE.matcher(line);
      if (m.find()) {
        uses.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
      }
    }
    return new PackageGraph(uses);
  }

  /** Every package of the analysed classes. */
  public TreeSet<String> packages() {
    TreeSet<String> packages = new TreeSet<>();
    uses.keySet().forEach(c -> packages.add(packageOf(c)));
    return packages;
  }

  /** The package of a class, nested classes included ({@code a.b.C$D} gives {@code a.b}). */
  public static String packageOf(String className) {
    return className.substring(0, className.lastIndexOf('.'));
  }

  /** The layer (index into {@code layers}) of {@code pkg}: the most specific pattern wins. */
  public static Optional<Integer> layerOf(String pkg, List<List<String>> layers) {
    int best = -1;
    int bestLength = -1;
    for (int i = 0; i < layers.size(); i++) {
      for (String pattern : layers.get(i)) {
        boolean matches = pattern.endsWith(".*")
            ? pkg.startsWith(pattern.substring(0, pattern.length() - 1))
            : pkg.equals(pattern);
        if (matches && pattern.length() > bestLength) {
          best = i;
          bestLength = pattern.length();
        }
      }
    }
    return best < 0 ? Optional.empty() : Optional.of(best);
  }

  /**
   * Every use that breaks the layer order, as {@code "a.B -> c.D (layer 3 uses layer 5)"}, and every
   * analysed package that no layer names. Empty when the graph follows the layers.
   */
  public List<String> violations(List<List<String>> layers) {
    List<String> problems = new ArrayList<>();
    for (String pkg : packages()) {
      if (layerOf(pkg, layers).isEmpty()) {
        problems.add("package " + pkg + " is in no layer: add it to the layer list (and to docs/architecture.md)");
      }
    }
    uses.forEach((from, targets) -> {
      String fromPkg = packageOf(from);
      Optional<Integer> fromLayer = layerOf(fromPkg, layers);
      for (String to : targets) {
        String toPkg = packageOf(to);
        if (toPkg.equals(fromPkg) || fromLayer.isEmpty()) {
          continue;
        }
        Optional<Integer> toLayer = layerOf(toPkg, layers);
        if (toLayer.isEmpty()) {
          continue; // another module's package: that module's own check names it
        }
        if (toLayer.get() >= fromLayer.get()) {
          problems.add(from + " -> " + to + " (" + describe(fromPkg, fromLayer.get(), layers) + " uses "
              + describe(toPkg, toLayer.get(), layers) + ")");
        }
      }
    });
    return problems;
  }

  /** The packages that {@code pkg}'s classes use, other than itself. */
  public TreeSet<String> packagesUsedBy(String pkg) {
    TreeSet<String> used = new TreeSet<>();
    uses.forEach((from, targets) -> {
      if (packageOf(from).equals(pkg)) {
        targets.stream().map(PackageGraph::packageOf).filter(p -> !p.equals(pkg)).forEach(used::add);
      }
    });
    return used;
  }

  private static String describe(String pkg, int layer, List<List<String>> layers) {
    return pkg + ", layer " + layer + " " + layers.get(layer);
  }
}
