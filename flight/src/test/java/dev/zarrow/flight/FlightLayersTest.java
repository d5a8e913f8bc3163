package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.ModuleInfo;
import dev.zarrow.testing.PackageGraph;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The Flight producer is built on the library's public API: it uses exported packages only. */
class FlightLayersTest {

  @Test
  void usesOnlyExportedPackages() {
    Set<String> used = PackageGraph.of(Path.of("target/classes")).packagesUsedBy("dev.zarrow.flight");
    assertTrue(used.contains("dev.zarrow.table"), "jdeps saw the producer's uses: " + used);
    Set<String> notExported = new TreeSet<>(used);
    notExported.removeAll(ModuleInfo.exportedPackages());
    assertEquals(Set.of(), notExported, "zarrow-flight uses packages the library does not export");
  }
}
