package dev.zarrow.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A flat Arrow vector (booleans, signed integers, floats, dates, microsecond timestamps, decimals,
 * strings and binaries) read by Spark straight from its buffers (see {@link BufferColumnVector}).
 * Nested columns keep {@link ArrowColumnVector}.
 */
final class FlatColumnVector extends BufferColumnVector {
  private final long offsets; // variable-width vectors only
  private final boolean largeOffsets;

  private FlatColumnVector(DataType type, FieldVector vector, long offsets, boolean largeOffsets) {
    super(type, vector);
    this.offsets = offsets;
    this.largeOffsets = largeOffsets;
  }

  /**
   * The column of {@code vector} read as {@code type}: this class for the flat vectors it reads (on
   * little-endian machines, as Arrow's buffers are laid out), else empty.
   */
  static Optional<ColumnVector> of(DataType type, FieldVector vector) {
    if (!MemoryUtil.LITTLE_ENDIAN) {
      return Optional.empty();
    }
    if (vector instanceof BaseVariableWidthVector v && (v instanceof VarCharVector || v instanceof VarBinaryVector)) {
      return Optional.of(new FlatColumnVector(type, v, v.getOffsetBufferAddress(), false));
    }
    if (vector instanceof BaseLargeVariableWidthVector v && (v instanceof LargeVarCharVector || v instanceof LargeVarBinaryVector)) {
      return Optional.of(new FlatColumnVector(type, v, v.getOffsetBufferAddress(), true));
    }
    boolean fixed = vector instanceof BitVector || vector instanceof TinyIntVector || vector instanceof SmallIntVector
        || vector instanceof IntVector || vector instanceof BigIntVector || vector instanceof Float4Vector
        || vector instanceof Float8Vector || vector instanceof DateDayVector || vector instanceof TimeStampMicroVector
        || vector instanceof TimeStampMicroTZVector || vector instanceof DecimalVector;
    return fixed ? Optional.of(new FlatColumnVector(type, vector, 0, false)) : Optional.empty();
  }

  @Override
  public boolean getBoolean(int rowId) {
    return (MemoryUtil.getByte(data + (base + rowId >>> 3)) >> (base + rowId & 7) & 1) != 0;
  }

  @Override
  public byte getByte(int rowId) {
    return MemoryUtil.getByte(data + base + rowId);
  }

  @Override
  public short getShort(int rowId) {
    return MemoryUtil.getShort(data + 2L * (base + rowId));
  }

  @Override
  public int getInt(int rowId) {
    return MemoryUtil.getInt(data + 4L * (base + rowId));
  }

  @Override
  public long getLong(int rowId) {
    return MemoryUtil.getLong(data + 8L * (base + rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return Float.intBitsToFloat(MemoryUtil.getInt(data + 4L * (base + rowId)));
  }

  @Override
  public double getDouble(int rowId) {
    return Double.longBitsToDouble(MemoryUtil.getLong(data + 8L * (base + rowId)));
  }

  /** Decimal128, little-endian two's complement: small precisions fit the low 64 bits (as Spark's longs). */
  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    long at = data + 16L * (base + rowId);
    long low = MemoryUtil.getLong(at);
    if (precision <= Decimal.MAX_LONG_DIGITS()) {
      return Decimal.createUnsafe(low, precision, scale);
    }
    long high = MemoryUtil.getLong(at + 8);
    BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).add(unsigned(low));
    return Decimal.apply(new BigDecimal(unscaled, scale), precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    long start = start(rowId);
    return UTF8String.fromAddress(null, data + start, (int) (end(rowId) - start));
  }

  @Override
  public byte[] getBinary(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    long start = start(rowId);
    byte[] bytes = new byte[(int) (end(rowId) - start)];
    MemoryUtil.copyFromMemory(data + start, bytes, 0, bytes.length);
    return bytes;
  }

  private long start(int rowId) {
    return largeOffsets ? MemoryUtil.getLong(offsets + 8L * (base + rowId)) : MemoryUtil.getInt(offsets + 4L * (base + rowId));
  }

  private long end(int rowId) {
    return largeOffsets ? MemoryUtil.getLong(offsets + 8L * (base + rowId) + 8) : MemoryUtil.getInt(offsets + 4L * (base + rowId) + 4);
  }
}
