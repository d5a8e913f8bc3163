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
   * The size {@code bytes} decode to, when the encoding says it before decoding (a zstd frame's content
   * size) and it is within the codec's own limits; empty otherwise (the default). With it a pipeline
   * decodes into Arrow memory of the caller's allocator ({@link #decodeInto}), freed when the chunk is
   * closed, instead of a fresh buffer of the codec's own that only a GC frees.
   */
  default OptionalLong decodedSize(ByteBuffer bytes) {
    return OptionalLong.empty();
  }

  /**
   * Whether {@link #decode} always returns memory of its own, never a slice of its input (a
   * compressor: true; a checksum, which strips its suffix: false, the default). A pipeline then
   * frees the stored bytes as soon as this codec decoded them, and where it knows the decoded size it
   * decodes through {@link #decodeInto} into the chunk's memory: such a codec overrides that too.
   */
  default boolean decodesToNewMemory() {
    return false;
  }

  /**
   * Checks that {@code bytes} decode, with every check {@link #decodeInto} makes, where only the checks
   * matter ({@code zarrow check}): {@code target} is as for {@link #decodeInto} but its content is
   * undefined afterwards. The default decodes into it; a codec that can make the same checks without
   * producing the decoded bytes (blosc: its shuffle is a permutation that cannot fail) skips that work,
   * and need not touch {@code target} at all (untouched fresh memory costs no page faults).
   */
  default void verifyInto(ByteBuffer bytes, ByteBuffer target) {
    decodeInto(bytes, target);
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

  /**
   * The most bytes the encoding of {@code decodedSize} bytes may take, when this codec bounds it (empty
   * when it does not): what lets a reader refuse a stored chunk from its size alone, before reading or
   * allocating it. Codecs of fixed output size give {@link #encodedSize}; compressors give
   * {@link #compressedBound}.
   */
  default OptionalLong maxEncodedSize(long decodedSize) {
    return encodedSize(decodedSize);
  }

  /**
   * A bound on what a compressor makes of {@code decodedSize} bytes: {@code n + n/16 + 64 KiB}, above
   * the worst case (incompressible input) of every compressor Zarr uses: deflate (gzip, zlib) adds 5
   * bytes per 64 KiB block and its header, zstd about n/256, lz4 n/255 + 16, blosc 16 or 32, bz2 1% + 600;
   * the 64 KiB leave room for a gzip header's optional name and comment.
   */
  static long compressedBound(long decodedSize) {
    return decodedSize + decodedSize / 16 + (64 << 10);
  }
}
