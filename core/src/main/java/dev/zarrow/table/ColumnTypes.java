package dev.zarrow.table;

import dev.zarrow.ArraySpec;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.NamedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** The Zarr data type and array layout of a table column. */
final class ColumnTypes {
  private ColumnTypes() {}

  /**
   * The native Zarr data type that holds the values of {@code field} exactly, or empty: integers,
   * floats, bool, utf8 and binary (and their large forms), without a dictionary. Nulls are the
   * caller's concern: native types have none.
   */
  static Optional<DataType> nativeType(Field field) {
    if (field.getDictionary() != null || !field.getChildren().isEmpty()) {
      return Optional.empty();
    }
    ArrowType type = field.getType();
    return Optional.ofNullable(switch (type.getTypeID()) {
      case Int -> {
        ArrowType.Int i = (ArrowType.Int) type;
        yield FixedType.named((i.getIsSigned() ? "int" : "uint") + i.getBitWidth()).orElse(null);
      }
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) type).getPrecision()) {
        case HALF -> FixedType.FLOAT16;
        case SINGLE -> FixedType.FLOAT32;
        case DOUBLE -> FixedType.FLOAT64;
      };
      case Bool -> FixedType.BOOL;
      case Utf8 -> VarLenType.STRING;
      case Binary -> VarLenType.BYTES;
      case LargeUtf8 -> VarLenType.LARGE_STRING;
      case LargeBinary -> VarLenType.LARGE_BINARY;
      default -> null;
    });
  }

  /** The data type a column of {@code stored} starts with under {@code options}. */
  static DataType initialType(Field stored, TableOptions options) {
    Optional<DataType> n = options.nativeTypes() ? nativeType(stored) : Optional.empty();
    return n.orElseGet(() -> ArrowDataType.of(stored));
  }

  /**
   * A 1-D array of {@code rows} rows of {@code type}: chunks of {@code chunkRows}, each the type's
   * serializer then the compressors; inside shards of {@code shardRows} with a crc32c-checked index
   * at the end when sharded.
   */
  static ArraySpec spec(DataType type, long rows, TableOptions options) {
    List<NamedConfig> chunkCodecs = new ArrayList<>();
    type.defaultSerializer().ifPresent(chunkCodecs::add);
    chunkCodecs.addAll(options.compressors());
    ArraySpec spec = ArraySpec.of(type, rows);
    if (options.shardRows() == 0) {
      return spec.chunks(options.chunkRows()).codecs(chunkCodecs);
    }
    return spec.chunks(options.shardRows())
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {options.chunkRows()}, chunkCodecs)));
  }
}
