package dev.zarrow.spark;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;

/**
 * Filters on the dimension columns of a dataset's table that prune chunks: {@code =}, {@code <},
 * {@code <=}, {@code >}, {@code >=}, {@code IN}, {@code IS NOT NULL} and their {@code AND}, on
 * dimensions whose values are numbers (signed or unsigned integers up to 32 bits, int64, floats) or
 * microsecond timestamps. Each is evaluated on the dimension's values (read once at planning) to say
 * which positions along it can match; a chunk none of whose positions can match on some dimension is
 * not read. Pruning is by chunk, so Spark still applies the filters to the rows read.
 *
 * <p>A position whose value is NaN is always kept (Spark orders NaN above every number and equal to
 * itself), so pruning never drops a row that Spark would keep.
 */
final class DimensionFilters {
  private DimensionFilters() {}

  /** Whether {@code filter} prunes: every part of it is a supported comparison on a dimension of {@code dimensions}. */
  static boolean pushable(Filter filter, Map<String, ArrowType> dimensions) {
    if (filter instanceof And and) {
      return pushable(and.left(), dimensions) && pushable(and.right(), dimensions);
    }
    String column = column(filter);
    ArrowType type = column == null ? null : dimensions.get(column);
    if (type == null || !prunable(type)) {
      return false;
    }
    if (filter instanceof IsNotNull) {
      return true;
    }
    Object[] literals = filter instanceof In in ? in.values() : new Object[] {literal(filter)};
    for (Object value : literals) {
      if (value != null && key(value, type) == null) {
        return false;
      }
    }
    return true;
  }

  private static boolean prunable(ArrowType type) {
    return type instanceof ArrowType.Int i && (i.getIsSigned() || i.getBitWidth() < 64)
        || type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() != FloatingPointPrecision.HALF
        || type instanceof ArrowType.Timestamp ts && ts.getUnit() == TimeUnit.MICROSECOND;
  }

  /** The column a comparison names; null for anything else. */
  private static String column(Filter f) {
    if (f instanceof EqualTo e) return e.attribute();
    if (f instanceof LessThan e) return e.attribute();
    if (f instanceof LessThanOrEqual e) return e.attribute();
    if (f instanceof GreaterThan e) return e.attribute();
    if (f instanceof GreaterThanOrEqual e) return e.attribute();
    if (f instanceof In e) return e.attribute();
    if (f instanceof IsNotNull e) return e.attribute();
    return null;
  }

  private static Object literal(Filter f) {
    if (f instanceof EqualTo e) return e.value();
    if (f instanceof LessThan e) return e.value();
    if (f instanceof LessThanOrEqual e) return e.value();
    if (f instanceof GreaterThan e) return e.value();
    if (f instanceof GreaterThanOrEqual e) return e.value();
    return null;
  }

  /**
   * A literal as the dimension's values compare: a Long (integers, timestamps in microseconds since the
   * epoch, a timestamp without zone taken as UTC, as zarrow stores it) or a Double (floats); null when
   * it cannot be compared with that type.
   */
  static Number key(Object value, ArrowType type) {
    if (type instanceof ArrowType.Timestamp) {
      Instant instant = value instanceof Timestamp ts ? ts.toInstant()
          : value instanceof Instant i ? i
          : value instanceof LocalDateTime ldt ? ldt.toInstant(ZoneOffset.UTC) : null;
      if (instant == null) {
        return null;
      }
      try {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
      } catch (ArithmeticException e) {
        return null;
      }
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float || value instanceof Double) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof BigDecimal d) {
      return d.doubleValue() == d.doubleValue() && new BigDecimal(d.doubleValue()).compareTo(d) == 0 ? d.doubleValue() : null;
    }
    return null;
  }

  /**
   * Which positions of a dimension can match the pushed filters on it ({@code filters}: pushable ones,
   * {@code AND}s taken apart): one flag per value of {@code values}, the dimension's values along the grid.
   */
  static boolean[] matches(List<Filter> filters, String dimension, FieldVector values) {
    int n = values.getValueCount();
    boolean[] out = new boolean[n];
    Arrays.fill(out, true);
    ArrowType type = values.getField().getType();
    for (Filter f : conjuncts(filters)) {
      if (!dimension.equals(column(f))) {
        continue;
      }
      for (int i = 0; i < n; i++) {
        out[i] &= matches(f, values, i, type);
      }
    }
    return out;
  }

  /** The filters with their {@code AND}s taken apart. */
  static List<Filter> conjuncts(List<Filter> filters) {
    List<Filter> out = new ArrayList<>();
    for (Filter f : filters) {
      if (f instanceof And and) {
        out.addAll(conjuncts(List.of(and.left(), and.right())));
      } else {
        out.add(f);
      }
    }
    return out;
  }

  private static boolean matches(Filter f, FieldVector values, int i, ArrowType type) {
    if (values.isNull(i)) {
      return false; // no comparison holds for null, nor IS NOT NULL
    }
    if (f instanceof IsNotNull) {
      return true;
    }
    Number value = value(values, i);
    if (value instanceof Double d && d.isNaN()) {
      return true;
    }
    if (f instanceof In in) {
      for (Object literal : in.values()) {
        if (literal != null && compare(value, key(literal, type), 0, 0)) {
          return true;
        }
      }
      return false;
    }
    Number literal = key(literal(f), type);
    if (f instanceof EqualTo) return compare(value, literal, 0, 0);
    if (f instanceof LessThan) return compare(value, literal, -1, -1);
    if (f instanceof LessThanOrEqual) return compare(value, literal, -1, 0);
    if (f instanceof GreaterThan) return compare(value, literal, 1, 1);
    if (f instanceof GreaterThanOrEqual) return compare(value, literal, 0, 1);
    return true;
  }

  /** Whether the sign of {@code value - literal} is {@code lo} or {@code hi} (or between); a NaN literal matches (keeps) all. */
  private static boolean compare(Number value, Number literal, int lo, int hi) {
    int c;
    if (value instanceof Long a && literal instanceof Long b) {
      c = Long.compare(a, b);
    } else {
      double b = literal.doubleValue();
      if (Double.isNaN(b)) {
        return true;
      }
      c = Double.compare(value.doubleValue(), b);
      if (value.doubleValue() == b) {
        c = 0; // -0.0 equals 0.0
      }
    }
    int sign = Integer.signum(c);
    return sign >= lo && sign <= hi;
  }

  private static Number value(FieldVector values, int i) {
    if (values instanceof BaseIntVector ints) {
      return ints.getValueAsLong(i);
    }
    if (values instanceof FloatingPointVector floats) {
      return floats.getValueAsDouble(i);
    }
    if (values instanceof TimeStampVector times) {
      return times.get(i);
    }
    throw new IllegalStateException("dimension values of type " + values.getField().getType() + " are not pushable");
  }
}
