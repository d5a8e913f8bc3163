package dev.zarrow.spark;

import java.math.BigInteger;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column Spark has no type for, read in place as the wider type it maps to (no copy): unsigned
 * integers as the next signed width ({@code uint64} as {@code DecimalType(20, 0)}), half floats as
 * floats. Like {@link FlatColumnVector}, each getter reads Arrow's buffers directly (one load, no call
 * behind it; on big-endian machines through the vector's getters). Borrows the vector: closing this
 * leaves it to its reader.
 */
final class WideningVector extends ColumnVector {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
  private final FieldVector vector;
  private final int nullCount;
  private final long validity; // 0 when no value is null
  private final long data; // 0 on big-endian machines: read through the vector

  WideningVector(DataType type, FieldVector vector) {
    super(type);
    this.vector = vector;
    this.nullCount = vector.getNullCount();
    boolean direct = MemoryUtil.LITTLE_ENDIAN && vector.getValueCount() > 0;
    this.validity = nullCount == 0 || !direct ? 0 : vector.getValidityBufferAddress();
    this.data = direct ? vector.getDataBufferAddress() : 0;
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return nullCount > 0;
  }

  @Override
  public int numNulls() {
    return nullCount;
  }

  @Override
  public boolean isNullAt(int rowId) {
    if (data == 0) {
      return vector.isNull(rowId);
    }
    return validity != 0 && (MemoryUtil.getByte(validity + (rowId >>> 3)) >> (rowId & 7) & 1) == 0;
  }

  @Override
  public short getShort(int rowId) {
    return (short) (data != 0 ? MemoryUtil.getByte(data + rowId) & 0xFF : Byte.toUnsignedInt(((UInt1Vector) vector).get(rowId)));
  }

  @Override
  public int getInt(int rowId) {
    return data != 0 ? MemoryUtil.getShort(data + 2L * rowId) & 0xFFFF : ((UInt2Vector) vector).get(rowId);
  }

  @Override
  public long getLong(int rowId) {
    return Integer.toUnsignedLong(data != 0 ? MemoryUtil.getInt(data + 4L * rowId) : ((UInt4Vector) vector).get(rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return data != 0 ? Float16.toFloat(MemoryUtil.getShort(data + 2L * rowId)) : ((Float2Vector) vector).getValueAsFloat(rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    long bits = data != 0 ? MemoryUtil.getLong(data + 8L * rowId) : ((UInt8Vector) vector).get(rowId);
    BigInteger value = BigInteger.valueOf(bits);
    return Decimal.apply(new java.math.BigDecimal(bits < 0 ? value.add(TWO_TO_64) : value), precision, scale);
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
  public double getDouble(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int rowId) {
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
  public ColumnVector getChild(int ordinal) {
    throw unsupported();
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(vector.getField().getType() + " read as " + dataType());
  }
}
