package dev.zarrow.dtype;

import java.nio.ByteBuffer;
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
   * The little-endian bytes of the elements of {@code vector} (borrowed): a read-only view of its memory,
   * valid while the vector is open and unchanged (read-only, so that decoding it again copies instead of
   * aliasing the vector), or a new buffer where layouts differ. Nulls are refused.
   */
  ByteBuffer toBytes(FieldVector vector);
}
