package dev.zarrow.table;

import dev.zarrow.ZarrArray;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * An array as a stream of Arrow record batches with one column, named after the array ({@code array}
 * for the root). Rows run along dimension 0: a 1-D array's row is one element; a row of a rank >= 2
 * array is one element of Arrow's canonical {@code arrow.fixed_shape_tensor} extension, a
 * FixedSizeList of {@code prod(shape[1:])} elements in C order (field metadata {@code
 * ARROW:extension:name} and {@code ARROW:extension:metadata} {@code {"shape":[d1,...]}}); a 0-d
 * array is one row.
 *
 * <p>A batch per chunk (along dimension 0) or per {@code batchRows} rows; the last batch ends at the
 * array's end (edge chunks are clipped), so no element outside the array is ever emitted. Arrays of
 * the {@code arrow} data type whose field is dictionary-encoded come out dictionary-encoded.
 *
 * <p><b>The reader reuses one root for every batch</b>: {@link #loadNextBatch} replaces what the root
 * held. The caller owns the reader and must close it, which releases the root, the dictionaries and
 * the batches decoded ahead.
 */
public final class ArrayReader extends ColumnsReader {
  private ArrayReader(BufferAllocator allocator, ZarrArray array, int batchRows, long start, long end) {
    super(allocator, List.of(Column.of(array, array.name().isEmpty() ? "array" : array.name())), Map.of(), batchRows,
        start, end, array.options().executor(), "array '" + array.path() + "'");
  }

  /**
   * A reader of {@code array}, a batch per chunk along dimension 0, its memory from {@code allocator}.
   * <b>One root, reused for every batch</b>; the caller owns the reader and closes it, which releases
   * the root and everything decoded.
   */
  public static ArrayReader of(ZarrArray array, BufferAllocator allocator) {
    return of(array, allocator, 0);
  }

  /**
   * A reader of {@code array} in batches of {@code batchRows} rows (0: a batch per chunk), its memory
   * from {@code allocator}. The caller owns the reader and closes it.
   */
  public static ArrayReader of(ZarrArray array, BufferAllocator allocator, int batchRows) {
    return of(array, allocator, batchRows, 0, -1);
  }

  /**
   * A reader of rows {@code [start, end)} of {@code array} ({@code end} -1: to the last row) in
   * batches cut at the multiples of {@code batchRows} (0: of the chunk rows), so a range that starts
   * inside a chunk reads whole chunks after its first batch. A range outside the array is an {@link
   * IllegalArgumentException}. The caller owns the reader and closes it.
   */
  public static ArrayReader of(ZarrArray array, BufferAllocator allocator, int batchRows, long start, long end) {
    return new ArrayReader(allocator, array, batchRows, start, end);
  }
}
