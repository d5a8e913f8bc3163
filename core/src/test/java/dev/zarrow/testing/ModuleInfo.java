package dev.zarrow.testing;

import dev.zarrow.Zarr;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/** The library's module descriptor ({@code module-info.class}), read from wherever the tests load the library from. */
public final class ModuleInfo {
  private ModuleInfo() {}

  /** The descriptor of module {@code dev.zarrow}, from the directory or jar that holds {@link Zarr}. */
  public static ModuleDescriptor library() {
    Path location;
    try {
      location = Path.of(Zarr.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return ModuleFinder.of(location).find("dev.zarrow").map(ModuleReference::descriptor)
        .orElseThrow(() -> new AssertionError("no module dev.zarrow (module-info.class) at " + location));
  }

  /** The packages module {@code dev.zarrow} exports to everyone. */
  public static Set<String> exportedPackages() {
    Set<String> out = new TreeSet<>();
    for (ModuleDescriptor.Exports e : library().exports()) {
      if (!e.isQualified()) {
        out.add(e.source());
      }
    }
    return out;
  }
}
