package dev.zarrow.spark;

import java.math.BigInteger;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark column over a flat Arrow vector, read straight from its buffers: nulls from the validity
 * bitmap here, values by each subclass, one load per value with no call behind it. Spark's
 * {@link ArrowColumnVector} reads the same memory through an accessor and the vector's own getter, two
 * virtual calls per value (and per null check) that the JIT cannot inline in Spark's generated loop,
 * whose one call site serves every column type; here a scan's per-column call sites each see one final
 * class. A getter a subclass does not override is not its Spark type's and throws.
 *
 * <p>A view of a slice of the vector's rows ({@link #slice}; the whole vector at first): Spark's row
 * {@code i} is the vector's row {@code base + i}, so one decoded chunk is handed to Spark as batches of a
 * few thousand rows without a copy (Spark's row conversion and aggregation then work on what the cache
 * holds, as over its own Parquet batches).
 *
 * <p>Borrows the vector: it must stay open and unchanged while this is read (a batch's lifetime);
 * closing this leaves it to its reader. Spark asks only for rows below the batch's row count, as with
 * its own off-heap vectors: no bounds are checked.
 */
abstract class BufferColumnVector extends ColumnVector implements SlicedColumn {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  final FieldVector vector;
  private final int nullCount;
  private final long validity; // 0 when no value is null: isNullAt reads nothing
  /** The data buffer; 0 when empty or on a big-endian machine (multi-byte values then in another order). */
  final long data;
  /** The vector's row that is row 0 of the current slice. */
  int base;
  private int rows;
  private int sliceNulls; // -1 until counted

  BufferColumnVector(DataType type, FieldVector vector) {
    super(type);
    this.vector = vector;
    this.nullCount = vector.getNullCount();
    this.validity = nullCount == 0 ? 0 : vector.getValidityBufferAddress(); // bits in bytes: any byte order
    this.data = MemoryUtil.LITTLE_ENDIAN && vector.getValueCount() > 0 ? vector.getDataBufferAddress() : 0;
    this.rows = vector.getValueCount();
    this.sliceNulls = nullCount;
  }

  /** Makes this the view of the vector's rows {@code [from, from + count)}, within its value count. */
  @Override
  public final void slice(int from, int count) {
    base = from;
    rows = count;
    sliceNulls = nullCount == 0 ? 0 : -1;
  }

  @Override
  public final void close() {}

  @Override
  public final boolean hasNull() {
    return numNulls() > 0;
  }

  /** The nulls of the current slice (counted once per slice, when asked, and only when the vector has any). */
  @Override
  public final int numNulls() {
    if (sliceNulls < 0) {
      int n = 0;
      for (int i = 0; i < rows; i++) {
        n += isNullAt(i) ? 1 : 0;
      }
      sliceNulls = n;
    }
    return sliceNulls;
  }

  @Override
  public final boolean isNullAt(int rowId) {
    int row = base + rowId;
    return validity != 0 && (MemoryUtil.getByte(validity + (row >>> 3)) >> (row & 7) & 1) == 0;
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported();
  }

  @Override
  public byte getByte(int rowId) {
    throw unsupported();
  }

  @Override
  public short getShort(int rowId) {
    throw unsupported();
  }

  @Override
  public int getInt(int rowId) {
    throw unsupported();
  }

  @Override
  public long getLong(int rowId) {
    throw unsupported();
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported();
  }

  @Override
  public double getDouble(int rowId) {
    throw unsupported();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported();
  }

  @Override
  public final ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public final ColumnarMap getMap(int rowId) {
    throw unsupported();
  }

  @Override
  public final ColumnVector getChild(int ordinal) {
    throw unsupported();
  }

  /** The 64 bits of {@code bits} as an unsigned number (a uint64, the low half of a Decimal128). */
  static BigInteger unsigned(long bits) {
    BigInteger value = BigInteger.valueOf(bits);
    return bits < 0 ? value.add(TWO_TO_64) : value;
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(vector.getField().getType() + " read as " + dataType());
  }
}
