package dev.zarrow.error;

/** Thrown for a codec, data type, chunk grid or other extension that zarrow does not support; the message names it and what is supported. */
public class UnsupportedExtensionException extends ZarrException {
  public UnsupportedExtensionException(String message) {
    super(message);
  }

  public UnsupportedExtensionException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public UnsupportedExtensionException withContext(String context) {
    return new UnsupportedExtensionException(context + ": " + getMessage(), this);
  }
}
