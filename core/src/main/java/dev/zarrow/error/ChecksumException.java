package dev.zarrow.error;

/** A stored checksum (crc32c) that does not match the bytes it protects. */
public class ChecksumException extends CorruptChunkException {
  public ChecksumException(String message) {
    super(message);
  }

  public ChecksumException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public ChecksumException withContext(String context) {
    return new ChecksumException(context + ": " + getMessage(), this);
  }
}
