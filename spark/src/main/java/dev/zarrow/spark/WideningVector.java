package dev.zarrow.spark;

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

/**
 * A column Spark has no type for, read in place as the wider type it maps to (no copy): unsigned
 * integers as the next signed width ({@code uint64} as {@code DecimalType(20, 0)}), half floats as
 * floats. Each getter reads Arrow's buffers directly (see {@link BufferColumnVector}; on big-endian
 * machines through the vector's getters).
 */
final class WideningVector extends BufferColumnVector {
  WideningVector(DataType type, FieldVector vector) {
    super(type, vector);
  }

  @Override
  public short getShort(int rowId) {
    return (short) (data != 0 ? MemoryUtil.getByte(data + base + rowId) & 0xFF : Byte.toUnsignedInt(((UInt1Vector) vector).get(base + rowId)));
  }

  @Override
  public int getInt(int rowId) {
    return data != 0 ? MemoryUtil.getShort(data + 2L * (base + rowId)) & 0xFFFF : ((UInt2Vector) vector).get(base + rowId);
  }

  @Override
  public long getLong(int rowId) {
    return Integer.toUnsignedLong(data != 0 ? MemoryUtil.getInt(data + 4L * (base + rowId)) : ((UInt4Vector) vector).get(base + rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return data != 0 ? Float16.toFloat(MemoryUtil.getShort(data + 2L * (base + rowId))) : ((Float2Vector) vector).getValueAsFloat(base + rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    long bits = data != 0 ? MemoryUtil.getLong(data + 8L * (base + rowId)) : ((UInt8Vector) vector).get(base + rowId);
    return Decimal.apply(new java.math.BigDecimal(unsigned(bits)), precision, scale);
  }
}
