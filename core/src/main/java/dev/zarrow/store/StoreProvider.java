package dev.zarrow.store;

import java.util.Map;
import java.util.Set;

/**
 * Opens the stores of some location schemes ({@code http}, {@code s3}, {@code zip}): the store SPI.
 * {@link Stores} finds providers with {@link java.util.ServiceLoader} (zarrow's class loader and the
 * thread's context class loader, since engines load code in child class loaders); a provider is listed
 * in {@code META-INF/services/dev.zarrow.store.StoreProvider} and, in a module, in {@code provides}.
 *
 * <p>A provider is loaded whether or not what its stores need is there (an optional library): it checks
 * when asked to open, and says what is missing.
 */
public interface StoreProvider {

  /** The schemes it opens, lower case ({@code "http", "https"}); a path ending in {@code .zip} is scheme {@code zip}. */
  Set<String> schemes();

  /**
   * The store at {@code location} (as the user wrote it), to read; a location where nothing is stored
   * yet may be an error. {@code options} are settings named {@code SCHEME.NAME} (see each provider); an
   * unknown one is an {@link IllegalArgumentException}.
   */
  Store open(String location, Map<String, String> options);

  /** The store at {@code location} to read and write, created when missing; read-only kinds refuse. */
  WritableStore openWritable(String location, Map<String, String> options);
}
