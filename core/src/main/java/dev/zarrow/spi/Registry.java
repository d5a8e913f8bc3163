package dev.zarrow.spi;

import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.DataTypeFactory;
import dev.zarrow.metadata.NamedConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * The codecs and data types zarrow knows, by name. Immutable: {@link #with} returns a new registry.
 * {@link #defaults()} holds every {@link ZarrPlugin} that zarrow's class loader or the thread's context
 * class loader finds.
 */
public final class Registry {
  private final Map<String, CodecFactory> codecs;
  private final Map<String, DataTypeFactory> dataTypes;

  private Registry(Map<String, CodecFactory> codecs, Map<String, DataTypeFactory> dataTypes) {
    this.codecs = Collections.unmodifiableMap(codecs);
    this.dataTypes = Collections.unmodifiableMap(dataTypes);
  }

  /** An empty registry. */
  public static Registry empty() {
    return new Registry(Map.of(), Map.of());
  }

  /**
   * Every plugin that {@link ServiceLoader} finds with zarrow's own class loader and with the current
   * thread's context class loader (engines such as Spark load user code, plugins included, in child
   * class loaders and set them as the context loader), each plugin class once: zarrow's loader first,
   * so a context plugin's names replace earlier ones. zarrow's own part is found once and kept; the
   * context loader's part is looked up on every call, so that no registry pins a class loader.
   */
  public static Registry defaults() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context == null || context == Defaults.LOADER) {
      return Defaults.REGISTRY;
    }
    Registry registry = Defaults.REGISTRY;
    for (ServiceLoader.Provider<ZarrPlugin> provider : ServiceLoader.load(ZarrPlugin.class, context).stream().toList()) {
      if (!Defaults.CLASSES.contains(provider.type())) {
        registry = registry.with(provider.get());
      }
    }
    return registry;
  }

  private static final class Defaults {
    static final ClassLoader LOADER = Registry.class.getClassLoader();
    static final List<ServiceLoader.Provider<ZarrPlugin>> PROVIDERS =
        ServiceLoader.load(ZarrPlugin.class, LOADER).stream().toList();
    static final Set<Class<? extends ZarrPlugin>> CLASSES =
        PROVIDERS.stream().<Class<? extends ZarrPlugin>>map(ServiceLoader.Provider::type).collect(Collectors.toUnmodifiableSet());
    static final Registry REGISTRY = load();

    private static Registry load() {
      Registry registry = empty();
      for (ServiceLoader.Provider<ZarrPlugin> provider : PROVIDERS) {
        registry = registry.with(provider.get());
      }
      return registry;
    }
  }

  /** This registry plus {@code plugin}; its names replace earlier ones. */
  public Registry with(ZarrPlugin plugin) {
    Map<String, CodecFactory> c = new LinkedHashMap<>(codecs);
    Map<String, DataTypeFactory> d = new LinkedHashMap<>(dataTypes);
    for (CodecFactory f : plugin.codecs()) {
      f.names().forEach(name -> c.put(name, f));
    }
    for (DataTypeFactory f : plugin.dataTypes()) {
      f.names().forEach(name -> d.put(name, f));
    }
    return new Registry(c, d);
  }

  /** The names of the codecs known. */
  public Set<String> codecNames() {
    return new TreeSet<>(codecs.keySet());
  }

  /** The names of the data types known ({@code r*} stands for every {@code r<N>}). */
  public Set<String> dataTypeNames() {
    return new TreeSet<>(dataTypes.keySet());
  }

  /** The data type {@code metadata} names; an unknown one is an {@link UnsupportedExtensionException}. */
  public DataType dataType(NamedConfig metadata) {
    DataTypeFactory factory = dataTypes.get(metadata.name());
    if (factory == null && metadata.name().matches("r[0-9]+")) {
      factory = dataTypes.get("r*");
    }
    if (factory == null) {
      throw new UnsupportedExtensionException(
          "/data_type: unsupported data type '" + metadata.name() + "' (supported: " + String.join(", ", dataTypeNames()) + ")");
    }
    return factory.create(metadata);
  }

  /** The codec {@code metadata} names; an unknown one is an {@link UnsupportedExtensionException}. */
  public Codec codec(NamedConfig metadata, CodecOptions options) {
    return context(options).codec(metadata);
  }

  /** What codec factories see: {@code options} and this registry; codecs work sequentially. */
  public CodecContext context(CodecOptions options) {
    return context(options, Runnable::run);
  }

  /** What codec factories see: {@code options}, this registry, and {@code executor} for work within a chunk. */
  public CodecContext context(CodecOptions options, Executor executor) {
    Registry registry = this;
    return new CodecContext() {
      @Override
      public CodecOptions options() {
        return options;
      }

      @Override
      public Executor executor() {
        return executor;
      }

      @Override
      public Codec codec(NamedConfig metadata) {
        CodecFactory factory = codecs.get(metadata.name());
        if (factory == null) {
          throw new UnsupportedExtensionException(
              "unsupported codec '" + metadata.name() + "' (supported: " + String.join(", ", codecNames()) + ")");
        }
        try {
          return factory.create(metadata, this);
        } catch (ZarrException e) {
          throw e.withContext("codec " + metadata.name());
        }
      }

      @Override
      public DataType dataType(NamedConfig metadata) {
        return registry.dataType(metadata);
      }
    };
  }
}
