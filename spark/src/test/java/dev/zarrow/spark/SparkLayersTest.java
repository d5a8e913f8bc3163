package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.ModuleInfo;
import dev.zarrow.testing.PackageGraph;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The connector is built on the library's public API: of zarrow, it uses exported packages only. */
class SparkLayersTest {

  @Test
  void usesOnlyExportedPackages() {
    Set<String> used = PackageGraph.of(Path.of("target/classes")).packagesUsedBy("dev.zarrow.spark");
    assertTrue(used.contains("dev.zarrow.table"), "jdeps saw the connector's uses: " + used);
    Set<String> zarrow = used.stream().filter(p -> p.startsWith("dev.zarrow") && !p.equals("dev.zarrow.spark"))
        .collect(Collectors.toCollection(TreeSet::new));
    zarrow.removeAll(ModuleInfo.exportedPackages());
    assertEquals(Set.of(), zarrow, "the connector uses packages the library does not export");
  }
}
