package dev.zarrow.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;
import org.junit.jupiter.api.Test;

/** Which positions of a dimension the pushed filters keep: every form, nulls, NaN and timestamps. */
class DimensionFiltersTest {
  static final ArrowType DOUBLE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  static final ArrowType MICROS = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  static final Map<String, ArrowType> DIMS = Map.of("lat", DOUBLE, "time", MICROS, "name", ArrowType.Utf8.INSTANCE);

  @Test
  void whatIsPushed() {
    assertTrue(DimensionFilters.pushable(new And(new GreaterThan("lat", 1.5), new IsNotNull("time")), DIMS));
    assertTrue(DimensionFilters.pushable(new In("lat", new Object[] {1.0, 2, null}), DIMS));
    assertTrue(DimensionFilters.pushable(new EqualTo("time", LocalDateTime.of(2000, 1, 1, 6, 0)), DIMS));
    assertFalse(DimensionFilters.pushable(new EqualTo("time", 5L), DIMS), "a number is no time");
    assertFalse(DimensionFilters.pushable(new EqualTo("lat", "x"), DIMS));
    assertFalse(DimensionFilters.pushable(new EqualTo("name", "x"), DIMS), "strings do not prune");
    assertFalse(DimensionFilters.pushable(new EqualTo("t2m", 1.0), DIMS), "no dimension");
    assertFalse(DimensionFilters.pushable(new Or(new EqualTo("lat", 1.0), new EqualTo("lat", 2.0)), DIMS));
    assertFalse(DimensionFilters.pushable(new And(new EqualTo("lat", 1.0), new EqualTo("t2m", 2.0)), DIMS));
  }

  @Test
  void numbersNullsAndNaN() {
    try (BufferAllocator allocator = new RootAllocator(); Float8Vector lat = new Float8Vector("lat", FieldType.nullable(DOUBLE), allocator)) {
      double[] values = {90, 60, 30, 0, -30, Double.NaN, 0};
      lat.allocateNew(values.length + 1);
      for (int i = 0; i < values.length; i++) {
        lat.set(i, values[i]);
      }
      lat.setNull(values.length);
      lat.setValueCount(values.length + 1);
      assertMatches(new boolean[] {false, false, false, true, false, true, true, false}, List.of(new EqualTo("lat", 0.0)), lat);
      assertMatches(new boolean[] {false, false, false, true, false, true, true, false}, List.of(new EqualTo("lat", -0.0)), lat);
      assertMatches(new boolean[] {false, false, false, false, true, true, false, false}, List.of(new LessThan("lat", 0.0)), lat);
      assertMatches(new boolean[] {false, false, false, true, true, true, true, false}, List.of(new LessThanOrEqual("lat", 0)), lat);
      assertMatches(new boolean[] {true, true, false, false, false, true, false, false}, List.of(new GreaterThan("lat", 30.0)), lat);
      assertMatches(new boolean[] {true, true, true, false, false, true, false, false}, List.of(new GreaterThanOrEqual("lat", 30.0)), lat);
      assertMatches(new boolean[] {true, false, true, false, false, true, false, false}, List.of(new In("lat", new Object[] {90.0, 30.0, null})), lat);
      assertMatches(new boolean[] {true, true, true, true, true, true, true, false}, List.of(new IsNotNull("lat")), lat);
      assertMatches(new boolean[] {false, true, true, false, false, true, false, false},
          List.of(new And(new LessThan("lat", 90.0), new GreaterThan("lat", 0.0)), new IsNotNull("lat")), lat);
    }
  }

  @Test
  void timestamps() {
    try (BufferAllocator allocator = new RootAllocator(); TimeStampMicroVector time = new TimeStampMicroVector("time", FieldType.nullable(MICROS), allocator)) {
      time.allocateNew(3);
      for (int i = 0; i < 3; i++) {
        time.set(i, 946_684_800_000_000L + i * 21_600_000_000L); // 2000-01-01 every 6 hours
      }
      time.setValueCount(3);
      assertMatches(new boolean[] {false, true, false}, List.of(new EqualTo("time", LocalDateTime.of(2000, 1, 1, 6, 0))), time);
      assertMatches(new boolean[] {false, true, true},
          List.of(new GreaterThan("time", java.sql.Timestamp.from(java.time.Instant.parse("2000-01-01T00:00:00.000001Z")))), time);
      assertMatches(new boolean[] {true, true, false}, List.of(new LessThan("time", java.time.Instant.parse("2000-01-01T12:00:00Z"))), time);
    }
  }

  private static void assertMatches(boolean[] expected, List<Filter> filters, org.apache.arrow.vector.FieldVector values) {
    for (Filter f : filters) {
      assertTrue(DimensionFilters.pushable(f, Map.of(values.getName(), values.getField().getType())), f.toString());
    }
    assertArrayEquals(expected, DimensionFilters.matches(filters, values.getName(), values), filters.toString());
    assertEquals(values.getValueCount(), expected.length);
  }
}
