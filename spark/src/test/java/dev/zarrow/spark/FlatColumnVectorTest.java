package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FlatColumnVector} reads every flat vector exactly as Spark's {@link ArrowColumnVector} reads it,
 * null for null: every row of every getter compared, with nulls and without, at lengths that end inside
 * and on a byte of the validity bitmap; and so does each slice view ({@link BufferColumnVector#slice}),
 * starting on and off a byte of the bitmap.
 */
class FlatColumnVectorTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final Random random = new Random(17);

  @AfterEach
  void close() {
    assertEquals(0, allocator.getAllocatedMemory());
    allocator.close();
  }

  private interface Getter {
    Object get(ColumnVector column, int row);
  }

  private void compare(DataType type, FieldVector vector, Getter getter) {
    try (vector) {
      BufferColumnVector flat = (BufferColumnVector) FlatColumnVector.of(type, vector).orElseThrow();
      ColumnVector arrow = new ArrowColumnVector(vector);
      assertEquals(arrow.hasNull(), flat.hasNull(), vector.getField().toString());
      assertEquals(arrow.numNulls(), flat.numNulls());
      compareRows(arrow, flat, 0, vector.getValueCount(), getter);
      int count = vector.getValueCount();
      for (int[] slice : new int[][] {{0, Math.min(count, 8)}, {Math.min(count, 3), count / 2}, {count / 2, count - count / 2}, {count, 0}}) {
        flat.slice(slice[0], slice[1]);
        int nulls = 0;
        for (int row = slice[0]; row < slice[0] + slice[1]; row++) {
          nulls += arrow.isNullAt(row) ? 1 : 0;
        }
        assertEquals(nulls, flat.numNulls(), "nulls of slice " + slice[0] + "+" + slice[1]);
        assertEquals(nulls > 0, flat.hasNull());
        compareRows(arrow, flat, slice[0], slice[1], getter);
      }
    }
  }

  /** Rows {@code [from, from + count)} of {@code arrow} against rows {@code [0, count)} of {@code flat}. */
  private static void compareRows(ColumnVector arrow, ColumnVector flat, int from, int count, Getter getter) {
    for (int i = 0; i < count; i++) {
      int row = from + i;
      String where = "row " + row + " (" + i + " of a slice at " + from + ")";
      assertEquals(arrow.isNullAt(row), flat.isNullAt(i), where);
      if (!arrow.isNullAt(row)) {
        Object expected = getter.get(arrow, row);
        Object actual = getter.get(flat, i);
        if (expected instanceof byte[] bytes) {
          assertArrayEquals(bytes, (byte[]) actual, where);
        } else {
          assertEquals(expected, actual, where);
        }
      }
    }
  }

  /** Values made by {@code set}, with every third row null when {@code nulls}. */
  private void fill(FieldVector vector, int count, boolean nulls, IntFunction<Runnable> set) {
    vector.allocateNew();
    for (int i = 0; i < count; i++) {
      if (nulls && i % 3 == 1) {
        vector.setNull(i);
      } else {
        set.apply(i).run();
      }
    }
    vector.setValueCount(count);
  }

  @Test
  void everyFlatTypeReadsAsArrowColumnVectorReadsIt() {
    for (int count : new int[] {0, 1, 7, 8, 9, 1000}) {
      for (boolean nulls : new boolean[] {false, true}) {
        BitVector bits = new BitVector("b", allocator);
        fill(bits, count, nulls, i -> () -> bits.setSafe(i, random.nextInt(2)));
        compare(DataTypes.BooleanType, bits, ColumnVector::getBoolean);
        TinyIntVector bytes = new TinyIntVector("i8", allocator);
        fill(bytes, count, nulls, i -> () -> bytes.setSafe(i, (byte) random.nextInt()));
        compare(DataTypes.ByteType, bytes, ColumnVector::getByte);
        SmallIntVector shorts = new SmallIntVector("i16", allocator);
        fill(shorts, count, nulls, i -> () -> shorts.setSafe(i, (short) random.nextInt()));
        compare(DataTypes.ShortType, shorts, ColumnVector::getShort);
        IntVector ints = new IntVector("i32", allocator);
        fill(ints, count, nulls, i -> () -> ints.setSafe(i, random.nextInt()));
        compare(DataTypes.IntegerType, ints, ColumnVector::getInt);
        BigIntVector longs = new BigIntVector("i64", allocator);
        fill(longs, count, nulls, i -> () -> longs.setSafe(i, random.nextLong()));
        compare(DataTypes.LongType, longs, ColumnVector::getLong);
        Float4Vector floats = new Float4Vector("f32", allocator);
        fill(floats, count, nulls, i -> () -> floats.setSafe(i, random.nextFloat() * 1e6f - 5e5f));
        compare(DataTypes.FloatType, floats, ColumnVector::getFloat);
        Float8Vector doubles = new Float8Vector("f64", allocator);
        fill(doubles, count, nulls, i -> () -> doubles.setSafe(i, random.nextGaussian() * 1e300));
        compare(DataTypes.DoubleType, doubles, ColumnVector::getDouble);
        DateDayVector dates = new DateDayVector("date", allocator);
        fill(dates, count, nulls, i -> () -> dates.setSafe(i, random.nextInt(100_000) - 50_000));
        compare(DataTypes.DateType, dates, ColumnVector::getInt);
        TimeStampMicroTZVector times = new TimeStampMicroTZVector("ts", allocator, "UTC");
        fill(times, count, nulls, i -> () -> times.setSafe(i, random.nextLong()));
        compare(DataTypes.TimestampType, times, ColumnVector::getLong);
        VarCharVector strings = new VarCharVector("s", allocator);
        fill(strings, count, nulls, i -> () -> strings.setSafe(i, ("é-" + random.nextInt(1 << i % 20)).getBytes(StandardCharsets.UTF_8)));
        compare(DataTypes.StringType, strings, ColumnVector::getUTF8String);
        LargeVarCharVector large = new LargeVarCharVector("ls", allocator);
        fill(large, count, nulls, i -> () -> large.setSafe(i, ("x" + i).repeat(i % 4).getBytes(StandardCharsets.UTF_8)));
        compare(DataTypes.StringType, large, ColumnVector::getUTF8String);
        VarBinaryVector binary = new VarBinaryVector("bin", allocator);
        fill(binary, count, nulls, i -> () -> {
          byte[] b = new byte[i % 5];
          random.nextBytes(b);
          binary.setSafe(i, b);
        });
        compare(DataTypes.BinaryType, binary, ColumnVector::getBinary);
        for (int precision : new int[] {9, 18, 19, 38}) {
          int p = precision;
          DecimalVector decimals = new DecimalVector("dec", allocator, precision, 3);
          fill(decimals, count, nulls, i -> () -> {
            BigDecimal max = BigDecimal.TEN.pow(p).subtract(BigDecimal.ONE).movePointLeft(3);
            BigDecimal v = i % 7 == 0 ? max.negate() : i % 7 == 1 ? max
                : new BigDecimal(new java.math.BigInteger(p * 3, random), 3).remainder(max.add(BigDecimal.ONE)).negate();
            decimals.setSafe(i, v);
          });
          compare(DataTypes.createDecimalType(precision, 3), decimals, (c, row) -> c.getDecimal(row, p, 3));
        }
      }
    }
  }

  @Test
  void nestedVectorsAreLeftToArrowColumnVector() {
    try (ListVector list = ListVector.empty("l", allocator)) {
      assertTrue(FlatColumnVector.of(DataTypes.createArrayType(DataTypes.IntegerType), list).isEmpty());
    }
    try (IntVector ints = new IntVector("i", allocator)) {
      ints.allocateNew(1);
      ints.setValueCount(1);
      assertInstanceOf(FlatColumnVector.class, FlatColumnVector.of(DataTypes.IntegerType, ints).orElseThrow());
    }
  }
}
