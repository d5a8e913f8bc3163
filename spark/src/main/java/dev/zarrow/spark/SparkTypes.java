package dev.zarrow.spark;

import dev.zarrow.vector.Dictionaries;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Arrow types as Spark types and back, the way Spark's own Arrow support spells them, so that a
 * DataFrame written and read back has its types.
 *
 * <pre>
 * Arrow                                  Spark
 * Bool                                   BooleanType
 * Int 8/16/32/64, signed                 ByteType, ShortType, IntegerType, LongType
 * Int 8/16/32 unsigned (read only)       ShortType, IntegerType, LongType (widened)
 * Int 64 unsigned (read only)            DecimalType(20, 0) (widened)
 * FloatingPoint HALF (read only)         FloatType (widened)
 * FloatingPoint SINGLE/DOUBLE            FloatType, DoubleType
 * Utf8, LargeUtf8                        StringType        (written as Utf8)
 * Binary, LargeBinary                    BinaryType        (written as Binary)
 * Decimal128(p, s)                       DecimalType(p, s)
 * Date DAY                               DateType
 * Timestamp MICROSECOND with a zone      TimestampType     (written with zone UTC)
 * Timestamp MICROSECOND without          TimestampNTZType
 * List                                   ArrayType
 * Struct                                 StructType
 * Map                                    MapType
 * Null                                   NullType
 * dictionary-encoded T                   T (decoded)
 * </pre>
 *
 * Anything else (other time units, Decimal256, fixed-size lists and binaries, large lists, unions,
 * durations, intervals; unsigned or half floats inside nested columns) is refused naming the column.
 */
final class SparkTypes {
  private SparkTypes() {}

  /** The Spark schema of an Arrow schema (the stored form: dictionaries decoded). */
  static StructType toSpark(Schema schema) {
    List<StructField> fields = new ArrayList<>();
    for (Field f : schema.getFields()) {
      Field decoded = Dictionaries.decodedField(f);
      fields.add(new StructField(f.getName(), toSpark(decoded, f.getName(), true), f.isNullable(), Metadata.empty()));
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  /** Whether a top-level column of {@code type} reads through {@link WideningVector}. */
  static boolean widened(ArrowType type) {
    return type instanceof ArrowType.Int i && !i.getIsSigned()
        || type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() == FloatingPointPrecision.HALF;
  }

  private static DataType toSpark(Field field, String path, boolean top) {
    ArrowType type = field.getType();
    if (widened(type) && !top) {
      throw refused(path, type, "unsigned integers and half floats are widened in top-level columns only");
    }
    switch (type.getTypeID()) {
      case Bool:
        return DataTypes.BooleanType;
      case Int: {
        ArrowType.Int i = (ArrowType.Int) type;
        if (!i.getIsSigned()) {
          return switch (i.getBitWidth()) {
            case 8 -> DataTypes.ShortType;
            case 16 -> DataTypes.IntegerType;
            case 32 -> DataTypes.LongType;
            default -> DataTypes.createDecimalType(20, 0);
          };
        }
        return switch (i.getBitWidth()) {
          case 8 -> DataTypes.ByteType;
          case 16 -> DataTypes.ShortType;
          case 32 -> DataTypes.IntegerType;
          default -> DataTypes.LongType;
        };
      }
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.DOUBLE ? DataTypes.DoubleType : DataTypes.FloatType;
      case Utf8:
      case LargeUtf8:
        return DataTypes.StringType;
      case Binary:
      case LargeBinary:
        return DataTypes.BinaryType;
      case Decimal: {
        ArrowType.Decimal d = (ArrowType.Decimal) type;
        if (d.getBitWidth() != 128 || d.getPrecision() > DecimalType.MAX_PRECISION()) {
          throw refused(path, type, "Spark decimals hold at most 38 digits");
        }
        return DataTypes.createDecimalType(d.getPrecision(), d.getScale());
      }
      case Date:
        if (((ArrowType.Date) type).getUnit() == DateUnit.DAY) {
          return DataTypes.DateType;
        }
        break;
      case Timestamp: {
        ArrowType.Timestamp t = (ArrowType.Timestamp) type;
        if (t.getUnit() == TimeUnit.MICROSECOND) {
          return t.getTimezone() == null ? DataTypes.TimestampNTZType : DataTypes.TimestampType;
        }
        throw refused(path, type, "Spark timestamps are microseconds");
      }
      case List: {
        Field element = field.getChildren().get(0);
        return DataTypes.createArrayType(toSpark(element, path + "[]", false), element.isNullable());
      }
      case Struct: {
        List<StructField> children = new ArrayList<>();
        for (Field c : field.getChildren()) {
          children.add(new StructField(c.getName(), toSpark(c, path + "." + c.getName(), false), c.isNullable(), Metadata.empty()));
        }
        return new StructType(children.toArray(StructField[]::new));
      }
      case Map: {
        Field entries = field.getChildren().get(0);
        Field key = entries.getChildren().get(0);
        Field value = entries.getChildren().get(1);
        return DataTypes.createMapType(toSpark(key, path + ".key", false), toSpark(value, path + ".value", false), value.isNullable());
      }
      case Null:
        return DataTypes.NullType;
      default:
        break;
    }
    throw refused(path, type, "Spark has no such type");
  }

  private static IllegalArgumentException refused(String path, ArrowType type, String why) {
    return new IllegalArgumentException("zarr: column '" + path + "' is Arrow " + type + ", which Spark cannot read (" + why + ")");
  }

  /** The Arrow schema a DataFrame of {@code schema} is written as. */
  static Schema toArrow(StructType schema) {
    List<Field> fields = new ArrayList<>();
    for (StructField f : schema.fields()) {
      fields.add(toArrow(f.name(), f.dataType(), f.nullable(), f.name()));
    }
    return new Schema(fields);
  }

  private static Field toArrow(String name, DataType type, boolean nullable, String path) {
    if (type instanceof ArrayType a) {
      return new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null),
          List.of(toArrow("element", a.elementType(), a.containsNull(), path + "[]")));
    }
    if (type instanceof StructType s) {
      List<Field> children = new ArrayList<>();
      for (StructField c : s.fields()) {
        children.add(toArrow(c.name(), c.dataType(), c.nullable(), path + "." + c.name()));
      }
      return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
    }
    if (type instanceof MapType m) {
      Field entries = new Field("entries", new FieldType(false, ArrowType.Struct.INSTANCE, null),
          List.of(toArrow("key", m.keyType(), false, path + ".key"), toArrow("value", m.valueType(), m.valueContainsNull(), path + ".value")));
      return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
    }
    return new Field(name, new FieldType(nullable, primitive(type, path), null), List.of());
  }

  private static ArrowType primitive(DataType type, String path) {
    if (type instanceof BooleanType) {
      return ArrowType.Bool.INSTANCE;
    } else if (type instanceof ByteType) {
      return new ArrowType.Int(8, true);
    } else if (type instanceof ShortType) {
      return new ArrowType.Int(16, true);
    } else if (type instanceof IntegerType) {
      return new ArrowType.Int(32, true);
    } else if (type instanceof LongType) {
      return new ArrowType.Int(64, true);
    } else if (type instanceof FloatType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    } else if (type instanceof DoubleType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    } else if (type instanceof StringType) {
      return ArrowType.Utf8.INSTANCE;
    } else if (type instanceof BinaryType) {
      return ArrowType.Binary.INSTANCE;
    } else if (type instanceof DecimalType d) {
      return new ArrowType.Decimal(d.precision(), d.scale(), 128);
    } else if (type instanceof DateType) {
      return new ArrowType.Date(DateUnit.DAY);
    } else if (type instanceof TimestampType) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
    } else if (type instanceof TimestampNTZType) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    } else if (type instanceof NullType) {
      return ArrowType.Null.INSTANCE;
    }
    throw new IllegalArgumentException("zarr: column '" + path + "' is " + type.simpleString() + ", which zarr tables do not hold"
        + " (supported: numbers, strings, binary, boolean, date, timestamp, decimal, arrays, structs, maps)");
  }
}
