package dev.zarrow.spark;

import java.math.BigInteger;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column Spark has no type for, read in place as the wider type it maps to (no copy): unsigned
 * integers as the next signed width ({@code uint64} as {@code DecimalType(20, 0)}), half floats as
 * floats. Borrows the vector: closing this leaves it to its reader.
 */
final class WideningVector extends ColumnVector {
  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
  private final ValueVector vector;

  WideningVector(DataType type, ValueVector vector) {
    super(type);
    this.vector = vector;
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return vector.getNullCount() > 0;
  }

  @Override
  public int numNulls() {
    return vector.getNullCount();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return vector.isNull(rowId);
  }

  @Override
  public short getShort(int rowId) {
    return (short) Byte.toUnsignedInt(((UInt1Vector) vector).get(rowId));
  }

  @Override
  public int getInt(int rowId) {
    return ((UInt2Vector) vector).get(rowId);
  }

  @Override
  public long getLong(int rowId) {
    return Integer.toUnsignedLong(((UInt4Vector) vector).get(rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return ((Float2Vector) vector).getValueAsFloat(rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    long bits = ((UInt8Vector) vector).get(rowId);
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
