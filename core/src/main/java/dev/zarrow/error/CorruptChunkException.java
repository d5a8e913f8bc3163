package dev.zarrow.error;

/** Stored bytes that do not decode: truncation, bad offsets, a bad shard index, a bad IPC stream. */
public class CorruptChunkException extends CodecException {
  public CorruptChunkException(String message) {
    super(message);
  }

  public CorruptChunkException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public CorruptChunkException withContext(String context) {
    return new CorruptChunkException(context + ": " + getMessage(), this);
  }
}
