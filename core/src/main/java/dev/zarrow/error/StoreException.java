package dev.zarrow.error;

/** Thrown for an I/O failure of a store; wraps the IOException. */
public class StoreException extends ZarrException {
  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public StoreException withContext(String context) {
    return new StoreException(context + ": " + getMessage(), this);
  }
}
