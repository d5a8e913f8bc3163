package dev.zarrow.codec;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** A codec from arrays to arrays, such as {@code transpose}. Vectors are flat, in C order. */
public non-sealed interface ArrayToArrayCodec extends Codec {

  /** The spec of the encoded array for a decoded one; refuses specs it cannot handle. */
  ChunkSpec encodedSpec(ChunkSpec decoded);

  /** Encodes {@code chunk} (borrowed) of {@code decoded} spec into a new vector the caller owns. */
  FieldVector encode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator);

  /** Decodes {@code chunk} (borrowed) into a new vector of {@code decoded} spec the caller owns. */
  FieldVector decode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator);
}
