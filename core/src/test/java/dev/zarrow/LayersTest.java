package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.PackageGraph;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The library's packages form one-way layers (docs/architecture.md): each package uses only packages
 * below it, so the package graph has no cycle. Read from the compiled classes by jdeps.
 */
class LayersTest {
  /** Bottom to top; the same list as docs/architecture.md. */
  static final List<List<String>> LAYERS = List.of(
      List.of("dev.zarrow.error"),
      List.of("dev.zarrow.internal"),
      List.of("dev.zarrow.store"),
      List.of("dev.zarrow.store.*"),
      List.of("dev.zarrow.metadata"),
      List.of("dev.zarrow.grid"),
      List.of("dev.zarrow.memory"),
      List.of("dev.zarrow.vector"),
      List.of("dev.zarrow.ipc"),
      List.of("dev.zarrow.dtype"),
      List.of("dev.zarrow.codec"),
      List.of("dev.zarrow.spi"),
      List.of("dev.zarrow.codec.*"),
      List.of("dev.zarrow.plugins"),
      List.of("dev.zarrow"),
      List.of("dev.zarrow.table"),
      List.of("dev.zarrow.dataset"));

  @Test
  void everyPackageUsesOnlyLowerLayers() {
    PackageGraph graph = PackageGraph.of(Path.of("target/classes"));
    assertTrue(graph.packages().size() >= 12, "jdeps found the packages: " + graph.packages());
    List<String> violations = graph.violations(LAYERS);
    assertEquals(List.of(), violations, "uses against the layer order (docs/architecture.md):\n" + String.join("\n", violations));
  }

  @Test
  void theTablesUseNoCodecImplementation() {
    // Above the API, code builds codec metadata through ArraySpec, never through an implementation class.
    PackageGraph graph = PackageGraph.of(Path.of("target/classes"));
    for (String pkg : List.of("dev.zarrow", "dev.zarrow.table", "dev.zarrow.dataset")) {
      List<String> implementations = graph.packagesUsedBy(pkg).stream().filter(p -> p.startsWith("dev.zarrow.codec.")).toList();
      assertEquals(List.of(), implementations, pkg + " uses codec implementations");
    }
  }

  @Test
  void theCheckReportsAUseOfAHigherLayer() {
    // The same classes against a wrong order (the API below everything else): Zarr uses the errors.
    PackageGraph graph = PackageGraph.of(Path.of("target/classes"));
    List<String> violations = graph.violations(List.of(List.of("dev.zarrow"), List.of("dev.zarrow.*")));
    assertTrue(violations.stream().anyMatch(v -> v.startsWith("dev.zarrow.Zarr -> dev.zarrow.error.")), violations.toString());
  }
}
