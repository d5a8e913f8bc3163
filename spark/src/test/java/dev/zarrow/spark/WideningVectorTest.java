package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WideningVector} reads unsigned integers and half floats as the wider Spark types, every row
 * against the value the vector's own getter gives, with the top bit set (where a signed read would go
 * negative) and with nulls.
 */
class WideningVectorTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final Random random = new Random(18);

  @AfterEach
  void close() {
    assertEquals(0, allocator.getAllocatedMemory());
    allocator.close();
  }

  private interface Setter {
    void set(int row);
  }

  private <V extends BaseFixedWidthVector> V fill(V vector, int count, boolean nulls, Setter set) {
    vector.allocateNew(count);
    for (int i = 0; i < count; i++) {
      if (nulls && i % 3 == 1) {
        vector.setNull(i);
      } else {
        set.set(i);
      }
    }
    vector.setValueCount(count);
    return vector;
  }

  @Test
  void unsignedAndHalfFloatColumnsReadWidened() {
    for (int count : new int[] {0, 1, 9, 500}) {
      for (boolean nulls : new boolean[] {false, true}) {
        try (UInt1Vector u8 = new UInt1Vector("u8", allocator); UInt2Vector u16 = new UInt2Vector("u16", allocator);
            UInt4Vector u32 = new UInt4Vector("u32", allocator); UInt8Vector u64 = new UInt8Vector("u64", allocator);
            Float2Vector f16 = new Float2Vector("f16", allocator)) {
          fill(u8, count, nulls, i -> u8.set(i, (byte) (i == 0 ? 0xFF : random.nextInt())));
          fill(u16, count, nulls, i -> u16.set(i, (char) (i == 0 ? 0xFFFF : random.nextInt())));
          fill(u32, count, nulls, i -> u32.set(i, i == 0 ? -1 : random.nextInt()));
          fill(u64, count, nulls, i -> u64.set(i, i == 0 ? -1L : random.nextLong()));
          fill(f16, count, nulls, i -> f16.set(i, Float16.toFloat16(random.nextFloat() * 100 - 50)));
          WideningVector w8 = new WideningVector(DataTypes.ShortType, u8);
          WideningVector w16 = new WideningVector(DataTypes.IntegerType, u16);
          WideningVector w32 = new WideningVector(DataTypes.LongType, u32);
          WideningVector w64 = new WideningVector(DataTypes.createDecimalType(20, 0), u64);
          WideningVector wf = new WideningVector(DataTypes.FloatType, f16);
          assertEquals(nulls && count > 1, w8.hasNull());
          for (int from : new int[] {0, count / 3}) { // the whole vector, then a slice view starting off a bitmap byte
            for (WideningVector w : new WideningVector[] {w8, w16, w32, w64, wf}) {
              w.slice(from, count - from);
            }
            for (int i = 0; i < count - from; i++) {
              int row = from + i;
              boolean isNull = nulls && row % 3 == 1;
              for (WideningVector w : new WideningVector[] {w8, w16, w32, w64, wf}) {
                assertEquals(isNull, w.isNullAt(i), "row " + row);
              }
              if (isNull) {
                assertNull(w64.getDecimal(i, 20, 0));
                continue;
              }
              assertEquals(Byte.toUnsignedInt(u8.get(row)), w8.getShort(i), "row " + row);
              assertEquals((int) u16.get(row), w16.getInt(i), "row " + row);
              assertEquals(Integer.toUnsignedLong(u32.get(row)), w32.getLong(i), "row " + row);
              BigInteger unsigned = new BigInteger(Long.toUnsignedString(u64.get(row)));
              assertEquals(Decimal.apply(new BigDecimal(unsigned), 20, 0), w64.getDecimal(i, 20, 0), "row " + row);
              assertEquals(f16.getValueAsFloat(row), wf.getFloat(i), "row " + row);
            }
          }
          for (WideningVector w : new WideningVector[] {w8, w16, w32, w64, wf}) {
            w.slice(0, count);
          }
          if (count > 0) {
            assertEquals(255, w8.getShort(0));
            assertEquals(65535, w16.getInt(0));
            assertEquals(4294967295L, w32.getLong(0));
            assertEquals(Decimal.apply(new BigDecimal("18446744073709551615"), 20, 0), w64.getDecimal(0, 20, 0));
          }
        }
      }
    }
  }
}
