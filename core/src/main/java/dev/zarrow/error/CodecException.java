package dev.zarrow.error;

/** Thrown for a codec that cannot encode or decode the given data (wrong type or shape, bad configuration). */
public class CodecException extends ZarrException {
  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public CodecException withContext(String context) {
    return new CodecException(context + ": " + getMessage(), this);
  }
}
