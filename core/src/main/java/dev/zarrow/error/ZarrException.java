package dev.zarrow.error;

/**
 * Root of every error zarrow reports about data, metadata, stores or unsupported features.
 *
 * <p>Unchecked so that streaming APIs (Arrow readers, lambdas) stay usable. Messages name the store
 * key, chunk coordinates and the reason; context is added once, at the array's chunk boundary, through
 * {@link #withContext(String)}.
 */
public class ZarrException extends RuntimeException {
  public ZarrException(String message) {
    super(message);
  }

  public ZarrException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Returns an exception of the same kind whose message is prefixed by {@code context} (for example
   * {@code "array 'a/b', chunk [0, 3] (key a/b/c/0/3)"}). Subclasses override to keep their type.
   */
  public ZarrException withContext(String context) {
    return new ZarrException(context + ": " + getMessage(), this);
  }
}
