package dev.zarrow.error;

/** Thrown for a zarr.json (or an Arrow field JSON) that is not valid; the message holds a JSON pointer. */
public class MetadataException extends ZarrException {
  public MetadataException(String message) {
    super(message);
  }

  public MetadataException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public MetadataException withContext(String context) {
    return new MetadataException(context + ": " + getMessage(), this);
  }
}
