package dev.zarrow.codec;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.grid.Box;
import dev.zarrow.memory.Buffers;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.vector.Regions;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** The serializer of a chunk: a flat C-order vector to bytes and back. */
public non-sealed interface ArrayToBytesCodec extends Codec {

  /** Refuses a spec this codec cannot serialize (e.g. a data type it does not know). */
  void validate(ChunkSpec spec);

  /**
   * The bytes of {@code chunk} (borrowed, {@code spec.size()} elements). The result is either memory of
   * its own or a <em>read-only</em> view of the vector's memory, valid while the vector stays open and
   * unchanged: read-only, so that decoding it again copies and never aliases the caller's vector.
   * Temporaries come from a named child of {@code allocator}, closed before returning.
   */
  ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator);

  /**
   * The chunk that {@code bytes} encode, a vector of exactly {@code spec.size()} elements owned by the
   * caller. Writable direct {@code bytes} are the caller's own memory and may be wrapped without a
   * copy; read-only ones must be copied from. Bad bytes are a {@link dev.zarrow.error.CorruptChunkException}.
   */
  FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator);

  /**
   * As {@link #decode(ByteBuffer, ChunkSpec, BufferAllocator)}, from {@code length} bytes of Arrow
   * memory ({@code bytes}, borrowed: the caller closes it after this returns). A serializer whose
   * vectors can point into the bytes retains them (they stay alive, counted by their allocator, until
   * the vectors are closed); the default decodes a read-only view, so that it copies what it keeps.
   */
  default FieldVector decode(ArrowBuf bytes, long length, ChunkSpec spec, BufferAllocator allocator) {
    return decode(Buffers.readOnlyView(bytes, 0, length), spec, allocator);
  }

  /** This codec completed for chunks of {@code spec}, as {@link BytesToBytesCodec#bind} (sharding binds its inner codecs). */
  default ArrayToBytesCodec bind(ChunkSpec spec) {
    return this;
  }

  /**
   * True when the encoding of a chunk of {@code spec} is exactly the data buffer of its fixed-width
   * Arrow vector, element after element (little-endian {@code bytes} of numbers): decoders may then
   * write a chunk straight into Arrow memory. False unless a codec says so.
   */
  default boolean isArrowLayout(ChunkSpec spec) {
    return false;
  }

  /** The encoded size when it depends only on the spec (fixed-size types), else empty. */
  default OptionalLong encodedSize(ChunkSpec spec) {
    return OptionalLong.empty();
  }

  /**
   * The most bytes a chunk of {@code spec} may take encoded, when the spec bounds it (see {@link
   * BytesToBytesCodec#maxEncodedSize}): {@link #encodedSize} unless a codec says more.
   */
  default OptionalLong maxEncodedSize(ChunkSpec spec) {
    return encodedSize(spec);
  }

  /**
   * The shape of the parts of a chunk of {@code spec} that {@link #decodeRegion} reads and decodes on
   * their own (a shard's inner chunks): a region made of whole parts costs only their bytes. The
   * chunk's shape when it is read whole.
   */
  default int[] partShape(ChunkSpec spec) {
    return spec.shape();
  }

  /**
   * What {@link #decodeRegion} reads first from a chunk for {@code region} (a shard's index), so that a
   * network store fetches it with the request that finds the chunk ({@link
   * dev.zarrow.store.Store#source(String, ByteRange)}); empty when the whole chunk is read.
   */
  default Optional<ByteRange> firstRead(ChunkSpec spec, Box region) {
    return Optional.empty();
  }

  /**
   * The elements of {@code region} (relative to the chunk) in C order, read from {@code source}.
   * Codecs that can read part of their encoding (sharding) override this to fetch only what the region
   * needs; the default reads and decodes everything and copies the region out.
   */
  default FieldVector decodeRegion(ByteSource source, ChunkSpec spec, Box region, BufferAllocator allocator) {
    return PartialCoding.decodeRegion(bytes -> decode(bytes, spec, allocator), source, spec, region, allocator);
  }

  /**
   * Decodes {@code region} (relative to the chunk) into {@code out}, a fixed-width vector (see {@link
   * Regions#flatWidth}) of {@code outShape}, at {@code outStart}; the elements there become valid. What
   * is read whole goes into memory {@code scratch} lends, when not null. The default decodes the region
   * ({@link #decodeRegion}) and copies it into place; a codec whose chunk holds separately decoded parts
   * (sharding) decodes each straight into place.
   */
  default void decodeInto(ByteSource source, ChunkSpec spec, Box region, FieldVector out, long[] outShape, long[] outStart,
      BufferAllocator allocator, ScratchBuffers scratch) {
    try (FieldVector piece = decodeRegion(source, spec, region, allocator)) {
      if (piece.getValueCount() != region.size()) {
        throw new CorruptChunkException("decoded " + piece.getValueCount() + " elements for a region of " + region.size());
      }
      Regions.copyInto(piece, region.shape(), Box.of(region.shape()), out, outShape, outStart);
    }
  }

  /**
   * The elements of {@code region} (relative to the chunk) as pieces that tile it, owned by the caller:
   * a codec whose chunk holds separately decoded parts (sharding) hands them out unassembled, so that a
   * read of many chunks copies each element into the result once. The default is one piece, {@link
   * #decodeRegion}'s vector.
   */
  default DecodedPieces decodePieces(ByteSource source, ChunkSpec spec, Box region, BufferAllocator allocator) {
    return DecodedPieces.whole(decodeRegion(source, spec, region, allocator), region.shape());
  }

  /**
   * The new encoding of a chunk whose elements in {@code region} are replaced by {@code data} (borrowed;
   * {@code region.size()} elements in C order), the rest kept from {@code existing} (or the fill value
   * when there is none). Empty means every element now equals the fill value: the chunk is deleted.
   * Codecs that can rewrite part of their encoding (sharding) override this; the default decodes,
   * overwrites and encodes everything.
   */
  default Optional<ByteBuffer> encodeRegion(
      Optional<ByteSource> existing, ChunkSpec spec, Box region, FieldVector data, BufferAllocator allocator) {
    return PartialCoding.encodeRegion(
        bytes -> decode(bytes, spec, allocator), chunk -> encode(chunk, spec, allocator), existing, spec, region, data, allocator,
        true);
  }
}
