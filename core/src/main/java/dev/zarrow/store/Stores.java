package dev.zarrow.store;

import dev.zarrow.error.NoSuchNodeException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens a store by location, the way every API entry point and CLI argument names one:
 * <ul>
 *   <li>a path or {@code file:} URL: a directory store ({@link FileSystemStore});
 *   <li>{@code memory:}: a new, empty {@link MemoryStore};
 *   <li>a path ending in {@code .zip}, or {@code zip:PATH}: a zip archive;
 *   <li>{@code http://}, {@code https://}: a read-only HTTP store;
 *   <li>{@code s3://BUCKET/PREFIX}: an S3-compatible object store (the AWS SDK for Java v2 on the class path).
 * </ul>
 * Directories and memory are built in; the other schemes come from {@link StoreProvider}s. The caller
 * closes the store.
 */
public final class Stores {
  // Two letters at least, so that a Windows drive ("C:\x") stays a path.
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  private Stores() {}

  /** The existing store at {@code location}, to read; a directory or archive that is not there is a {@link NoSuchNodeException}. */
  public static Store open(String location) {
    return open(location, Map.of());
  }

  /** {@link #open(String)} with provider options ({@code http.timeout}, ...; see the README). */
  public static Store open(String location, Map<String, String> options) {
    String scheme = scheme(location);
    switch (scheme) {
      case "file":
        Path dir = path(location);
        if (!Files.isDirectory(dir)) {
          throw new NoSuchNodeException("no store at " + dir + " (" + (Files.exists(dir) ? "not a directory" : "no such directory") + ")");
        }
        noOptions(location, options);
        return FileSystemStore.open(dir);
      case "memory":
        return memory(location, options);
      default:
        return provider(scheme, location).open(location, options);
    }
  }

  /** The store at {@code location} to read and write, created when missing. */
  public static WritableStore openWritable(String location) {
    return openWritable(location, Map.of());
  }

  /** {@link #openWritable(String)} with provider options. */
  public static WritableStore openWritable(String location, Map<String, String> options) {
    String scheme = scheme(location);
    switch (scheme) {
      case "file":
        noOptions(location, options);
        return FileSystemStore.open(path(location));
      case "memory":
        return memory(location, options);
      default:
        return provider(scheme, location).openWritable(location, options);
    }
  }

  /**
   * The scheme of {@code location}, lower case: its URL scheme, {@code zip} for a path ending in
   * {@code .zip}, {@code file} for any other path.
   */
  public static String scheme(String location) {
    if (location == null || location.isEmpty()) {
      throw new IllegalArgumentException("empty store location");
    }
    Matcher m = SCHEME.matcher(location);
    String scheme = m.find() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    if (scheme != null && !scheme.equals("file")) {
      return scheme;
    }
    String path = scheme == null ? location : path(location).toString();
    return path.toLowerCase(Locale.ROOT).endsWith(".zip") ? "zip" : "file";
  }

  /** The local path of a path, {@code file:} URL or {@code zip:PATH} location. */
  public static Path path(String location) {
    try {
      if (location.regionMatches(true, 0, "zip:", 0, 4)) {
        return path(location.substring(4));
      }
      if (location.regionMatches(true, 0, "file:", 0, 5)) {
        return Path.of(new URI(location));
      }
      return Path.of(location);
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a local path: '" + location + "': " + e.getMessage(), e);
    }
  }

  /** Refuses options a store does not know, naming the ones it does. */
  public static void checkOptions(String location, Map<String, String> options, Set<String> known) {
    for (String name : options.keySet()) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option '" + name + "' for store " + location
            + (known.isEmpty() ? " (it takes none)" : " (known: " + String.join(", ", new TreeSet<>(known)) + ")"));
      }
    }
  }

  private static void noOptions(String location, Map<String, String> options) {
    checkOptions(location, options, Set.of());
  }

  private static MemoryStore memory(String location, Map<String, String> options) {
    if (!location.equalsIgnoreCase("memory:")) {
      throw new IllegalArgumentException("a memory store is named 'memory:', not '" + location + "'");
    }
    noOptions(location, options);
    return new MemoryStore();
  }

  /**
   * The schemes {@link #open} answers: {@code file}, {@code memory} and those of every {@link
   * StoreProvider} found (an engine routes these locations to zarrow rather than to its own file systems).
   */
  public static Set<String> schemes() {
    Set<String> out = new TreeSet<>(providers().keySet());
    out.add("file");
    out.add("memory");
    return out;
  }

  private static StoreProvider provider(String scheme, String location) {
    Map<String, StoreProvider> providers = providers();
    StoreProvider provider = providers.get(scheme);
    if (provider == null) {
      Set<String> known = new TreeSet<>(providers.keySet());
      known.add("file");
      known.add("memory");
      throw new IllegalArgumentException("unknown store location scheme '" + scheme + "' in '" + location
          + "' (known: " + String.join(", ", known) + ", or a path)");
    }
    return provider;
  }

  /**
   * The providers by scheme, found with zarrow's class loader and then the thread's context class loader
   * (an engine's child loader may add some); the first one found for a scheme wins.
   */
  static Map<String, StoreProvider> providers() {
    List<ClassLoader> loaders = new ArrayList<>();
    loaders.add(Stores.class.getClassLoader());
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null && context != loaders.get(0)) {
      loaders.add(context);
    }
    Map<String, StoreProvider> byScheme = new LinkedHashMap<>();
    Set<String> seen = new TreeSet<>();
    for (ClassLoader loader : loaders) {
      Iterator<StoreProvider> found = ServiceLoader.load(StoreProvider.class, loader).iterator();
      while (true) {
        StoreProvider provider;
        try {
          if (!found.hasNext()) {
            break;
          }
          provider = found.next();
        } catch (ServiceConfigurationError e) {
          continue; // a provider of another zarrow (a loader that does not share ours), or a broken one
        }
        if (seen.add(provider.getClass().getName())) {
          provider.schemes().forEach(s -> byScheme.putIfAbsent(s, provider));
        }
      }
    }
    return byScheme;
  }
}
