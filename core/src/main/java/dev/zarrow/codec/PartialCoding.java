package dev.zarrow.codec;

import dev.zarrow.vector.Regions;
import dev.zarrow.grid.Box;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** The general partial read and write of a chunk: decode it all, then slice or overwrite. */
final class PartialCoding {
  private PartialCoding() {}

  static FieldVector decodeRegion(
      Function<ByteBuffer, FieldVector> decode, ByteSource source, ChunkSpec spec, Box region, BufferAllocator allocator) {
    return region(decode.apply(source.readAll()), spec, region, allocator);
  }

  /** {@code region} of a whole decoded {@code chunk}, which this takes over: the chunk itself or a new extract. */
  static FieldVector region(FieldVector chunk, ChunkSpec spec, Box region, BufferAllocator allocator) {
    if (region.covers(spec.shape())) {
      return chunk;
    }
    try (chunk) {
      // The data type's field: Arrow Java's getField() misreports sparse union type ids.
      return Regions.extract(chunk, spec.dataType().field(chunk.getField().getName()), Regions.toLong(spec.shape()), region, allocator);
    }
  }

  static Optional<ByteBuffer> encodeRegion(
      Function<ByteBuffer, FieldVector> decode,
      Function<FieldVector, ByteBuffer> encode,
      Optional<ByteSource> existing,
      ChunkSpec spec,
      Box region,
      FieldVector data,
      BufferAllocator allocator,
      boolean encodingMayView) {
    FieldVector base =
        existing.isPresent()
            ? decode.apply(existing.get().readAll())
            : spec.dataType().filled(allocator, spec.size(), spec.fillValue());
    FieldVector updated = null;
    try {
      updated = Regions.overlay(base, spec.dataType().field(base.getField().getName()), Regions.toLong(spec.shape()), region, data, allocator);
      if (spec.dataType().isAllFill(updated, spec.fillValue())) {
        return Optional.empty();
      }
      ByteBuffer encoded = encode.apply(updated);
      // A serializer's encoding may view (read-only) the vector closed below; compressed output is its own memory.
      return Optional.of(encodingMayView ? copy(encoded) : encoded);
    } finally {
      if (updated != null && updated != base) {
        updated.close();
      }
      base.close();
    }
  }

  static ByteBuffer copy(ByteBuffer bytes) {
    ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining());
    out.put(bytes.duplicate()).flip();
    return out;
  }
}
