package dev.zarrow.codec.core;

import dev.zarrow.error.ChecksumException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * {@code crc32c}: appends the CRC-32C (Castagnoli) of the bytes as 4 bytes little-endian, and checks it
 * on read unless checking is turned off (zarrs before 0.11.5 wrote wrong checksums).
 *
 * <p>Spec: zarr-specs v3 codecs/crc32c. Configuration: none.
 */
public final class Crc32cCodec implements BytesToBytesCodec {
  private final boolean verify;

  public Crc32cCodec(boolean verify) {
    this.verify = verify;
  }

  /** The CRC-32C of the remaining bytes of {@code bytes}. */
  public static int checksum(ByteBuffer bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.duplicate());
    return (int) crc.getValue();
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of("crc32c", null);
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining() + 4).order(ByteOrder.LITTLE_ENDIAN);
    out.put(bytes.duplicate());
    out.putInt(checksum(bytes));
    return out.flip();
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    int n = bytes.remaining();
    if (n < 4) {
      throw new CorruptChunkException("codec crc32c: " + n + " bytes cannot hold a 4-byte checksum");
    }
    if (expectedSize >= 0 && n - 4 != expectedSize) {
      throw new CorruptChunkException("codec crc32c: expected " + (expectedSize + 4) + " bytes, got " + n);
    }
    ByteBuffer data = bytes.slice(bytes.position(), n - 4);
    if (verify) {
      int stored = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.position() + n - 4);
      int actual = checksum(data);
      if (stored != actual) {
        throw new ChecksumException(String.format(
            "codec crc32c: checksum mismatch (stored 0x%08x, computed 0x%08x over %d bytes)", stored, actual, n - 4));
      }
    }
    return data;
  }

  @Override
  public OptionalLong encodedSize(long decodedSize) {
    return OptionalLong.of(decodedSize + 4);
  }

  /** Makes {@code crc32c} codecs; checking follows the context's options. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of("crc32c");
    }

    @Override
    public Crc32cCodec create(NamedConfig metadata, CodecContext context) {
      if (!metadata.config().isEmpty()) {
        throw new MetadataException("/configuration: codec crc32c takes no options");
      }
      return new Crc32cCodec(context.options().verifyChecksums());
    }
  }
}
