package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.testing.ModuleInfo;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The module descriptor exports the API packages only and provides the same plugins as META-INF/services. */
class ModuleInfoTest {

  @Test
  void exportsTheApiPackagesOnly() {
    assertEquals(
        new TreeSet<>(Set.of("dev.zarrow", "dev.zarrow.error", "dev.zarrow.spi", "dev.zarrow.store",
            "dev.zarrow.metadata", "dev.zarrow.grid", "dev.zarrow.memory", "dev.zarrow.vector", "dev.zarrow.ipc", "dev.zarrow.dtype",
            "dev.zarrow.codec", "dev.zarrow.table", "dev.zarrow.dataset")),
        ModuleInfo.exportedPackages(),
        "the API packages (README, docs/architecture.md); dev.zarrow.internal and codec implementations stay inside");
  }

  @Test
  void providesThePluginsTheClassPathFinds() throws IOException {
    for (String service : Set.of("dev.zarrow.spi.ZarrPlugin", "dev.zarrow.store.StoreProvider")) {
      providesWhatTheClassPathFinds(service);
    }
  }

  private static void providesWhatTheClassPathFinds(String service) throws IOException {
    ModuleDescriptor module = ModuleInfo.library();
    Set<String> provided = new TreeSet<>();
    module.provides().stream()
        .filter(p -> p.service().equals(service))
        .forEach(p -> provided.addAll(p.providers()));
    Set<String> listed = new TreeSet<>();
    try (InputStream in = Zarr.class.getResourceAsStream("/META-INF/services/" + service)) {
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(listed::add);
    }
    assertEquals(listed, provided, "module-info 'provides' and META-INF/services must name the same plugins");
  }
}
