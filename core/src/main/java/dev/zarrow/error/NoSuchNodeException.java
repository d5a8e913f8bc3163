package dev.zarrow.error;

/** Thrown for a node (array or group) that does not exist at the given path. */
public class NoSuchNodeException extends ZarrException {
  public NoSuchNodeException(String message) {
    super(message);
  }

  public NoSuchNodeException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public NoSuchNodeException withContext(String context) {
    return new NoSuchNodeException(context + ": " + getMessage(), this);
  }
}
