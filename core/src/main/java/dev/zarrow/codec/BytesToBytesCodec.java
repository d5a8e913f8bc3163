package dev.zarrow.codec;

import java.nio.ByteBuffer;
import java.util.OptionalLong;

/** A codec from bytes to bytes: compression ({@code gzip}, {@code zstd}) or a checksum ({@code crc32c}). */
public non-sealed interface BytesToBytesCodec extends Codec {

  /** The encoding of {@code bytes} (borrowed) in new memory that does not alias the input. */
  ByteBuffer encode(ByteBuffer bytes);

  /**
   * The decoding of {@code bytes}. {@code expectedSize} is the exact decoded size when known (else -1);
   * nothing may decode to more than {@code maxSize} bytes: a decompression bomb is a
   * {@link dev.zarrow.error.CorruptChunkException}, refused before its memory is allocated. The result may be
   * a slice of the input (a checksum strips its suffix) and is direct and writable when fresh.
   */
  ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize);

  /**
   * Decodes {@code bytes} into the remaining space of {@code target} (from its position to its limit;
   * neither is moved), which is exactly the decoded size, known in advance. Used to decode straight
   * into Arrow memory: decoders that can write into memory they did not allocate override this to save
   * a copy. Output of another size is a {@link dev.zarrow.error.CorruptChunkException}; on any failure the
   * target's content is undefined.
   */
  default void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    int size = target.remaining();
    ByteBuffer decoded = decode(bytes, size, size);
    if (decoded.remaining() != size) {
      throw new dev.zarrow.error.CorruptChunkException(
          "codec " + name() + ": decoded " + decoded.remaining() + " bytes, expected " + size);
    }
    target.put(target.position(), decoded, decoded.position(), size);
  }

  /**
   * This codec completed for the chunks of {@code spec} (the spec its bytes serialize): what the
   * configuration leaves to the data type is filled in, as zarr-python's {@code evolve_from_array_spec}
   * does (blosc's typesize). A pipeline binds its codecs once, and arrays store the bound metadata.
   */
  default BytesToBytesCodec bind(ChunkSpec spec) {
    return this;
  }

  /** The encoded size for a decoded size, when this codec's output size is fixed (crc32c adds 4). */
  default OptionalLong encodedSize(long decodedSize) {
    return OptionalLong.empty();
  }
}
