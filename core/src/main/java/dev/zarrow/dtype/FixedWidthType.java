package dev.zarrow.dtype;

import dev.zarrow.memory.Buffers;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Regions;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A data type whose elements have a fixed size in the {@code bytes} layout. For the core types that
 * layout is also (apart from {@code bool}, one byte in Zarr and one bit in Arrow) the layout of the
 * Arrow data buffer; other types convert between the two in {@link #fromBytes} and {@link #toBytes}
 * (UTF-32 to utf8, packed records to structs, NaT to null) and say so with {@link #bytesAreArrowData}.
 */
public interface FixedWidthType extends DataType {

  @Override
  int byteWidth();

  /** Bytes per byte-swapped unit for big-endian storage: 1 when order does not apply. */
  int swapUnit();

  /**
   * The byte-swapped units of one element in order, summing to {@link #byteWidth}: a packed record
   * swaps each field by its own unit. By default {@link #swapUnit} repeated.
   */
  default int[] swapUnits() {
    int unit = swapUnit();
    int[] units = new int[byteWidth() / unit];
    java.util.Arrays.fill(units, unit);
    return units;
  }

  /**
   * True when the little-endian bytes of the elements are exactly the Arrow data buffer of a vector
   * whose elements are all valid, so that decoders may write stored bytes straight into Arrow memory
   * and copy element bytes between such vectors. False where {@link #fromBytes} converts.
   */
  default boolean bytesAreArrowData() {
    return true;
  }

  /**
   * A vector of {@code count} elements over {@code data}, which holds their little-endian bytes. The
   * vector shares {@code data} where the layouts agree (it takes its own reference); {@code data} stays
   * the caller's to close. The caller owns the returned vector.
   */
  FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator);

  /**
   * A vector of {@code count} elements whose values are not written yet, when this type's vectors are
   * fixed-width runs of one buffer holding the stored bytes ({@link #bytesAreArrowData}, {@link
   * Regions#flatWidth}); empty otherwise ({@code bool}: a byte in Zarr, a bit in Arrow). Every element is
   * valid from the start: tasks that write neighbouring parts share validity bytes at the seams, and
   * setting bits that are set already cannot race. The values are in unzeroed memory, or in memory
   * {@code scratch} lends when not null: a zeroed buffer would be a serial pass over every page before
   * the decoders' writes (about 0.1 s for 268 MB), which touch them first instead. The caller writes
   * every value and owns the vector.
   */
  default Optional<FieldVector> allocateUnset(int count, BufferAllocator allocator, ScratchBuffers scratch) {
    if (byteWidth() <= 0 || !bytesAreArrowData()) {
      return Optional.empty();
    }
    try (FieldVector probe = Fields.createVector(field("values"), allocator)) {
      if (Regions.flatWidth(probe) != byteWidth()) {
        return Optional.empty();
      }
    }
    long bytes = (long) count * byteWidth();
    try (ArrowBuf data = scratch == null ? Buffers.allocateUninitialized(allocator, bytes) : scratch.lend(bytes)) {
      // (a lent buffer may be larger: the vector sees its first bytes; a slice shares the reference)
      return Optional.of(fromBytes(scratch == null ? data : data.slice(0, bytes), count, allocator));
    }
  }

  /**
   * The little-endian bytes of the elements of {@code vector} (borrowed): a read-only view of its memory,
   * valid while the vector is open and unchanged (read-only, so that decoding it again copies instead of
   * aliasing the vector), or a new buffer where layouts differ. Nulls are refused.
   */
  ByteBuffer toBytes(FieldVector vector);
}
