package dev.zarrow.codec;

/**
 * Options that change how codecs decode.
 *
 * @param verifyChecksums check {@code crc32c} on read (on by default; zarrs before 0.11.5 wrote wrong
 *     checksums, so reading its output may need this off)
 * @param validateUtf8 check that {@code string} data is valid UTF-8 on read (on by default)
 * @param maxChunkBytes the most bytes any chunk may decode to when its size cannot be known in advance
 *     (variable-length data): the cap that stops decompression bombs
 */
public record CodecOptions(boolean verifyChecksums, boolean validateUtf8, long maxChunkBytes) {
  public static final CodecOptions DEFAULT = new CodecOptions(true, true, Integer.MAX_VALUE - 64);

  public CodecOptions withVerifyChecksums(boolean verify) {
    return new CodecOptions(verify, validateUtf8, maxChunkBytes);
  }

  public CodecOptions withValidateUtf8(boolean validate) {
    return new CodecOptions(verifyChecksums, validate, maxChunkBytes);
  }

  public CodecOptions withMaxChunkBytes(long max) {
    return new CodecOptions(verifyChecksums, validateUtf8, max);
  }
}
