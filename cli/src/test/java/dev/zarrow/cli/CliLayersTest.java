package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.ModuleInfo;
import dev.zarrow.testing.PackageGraph;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The command line is built on the public APIs: the library's exported packages and zarrow-flight's. */
class CliLayersTest {

  @Test
  void usesOnlyExportedPackages() {
    Set<String> used = PackageGraph.of(Path.of("target/classes")).packagesUsedBy("dev.zarrow.cli");
    assertTrue(used.contains("dev.zarrow"), "jdeps saw the CLI's uses: " + used);
    Set<String> notExported = new TreeSet<>(used);
    notExported.removeAll(ModuleInfo.exportedPackages());
    notExported.remove("dev.zarrow.flight"); // serve: zarrow-flight's producer
    assertEquals(Set.of(), notExported, "the CLI uses packages the library does not export");
  }
}
