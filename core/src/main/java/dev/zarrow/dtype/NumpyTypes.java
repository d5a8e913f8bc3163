package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;

/**
 * The fixed-size data types that numpy (and so Zarr v2) has beyond the core ones, as zarr-extensions
 * and zarr-python 3 name them: {@link NumpyTimeType} ({@code numpy.datetime64}, {@code numpy.timedelta64}),
 * {@link FixedUtf32Type} ({@code fixed_length_utf32}), {@link FixedBytesType} ({@code null_terminated_bytes},
 * {@code raw_bytes}) and {@link StructType} ({@code struct}, read also as {@code structured}), whose
 * fields may also be {@link SubarrayType} ({@code zarrow.subarray}). All are serialized by {@code bytes}.
 */
public final class NumpyTypes {
  private NumpyTypes() {}

  /** The names the factory answers to. */
  public static final List<String> NAMES = List.of(
      NumpyTimeType.DATETIME, NumpyTimeType.TIMEDELTA, FixedUtf32Type.NAME, FixedBytesType.NULL_TERMINATED,
      FixedBytesType.RAW, StructType.NAME, StructType.LEGACY_NAME);

  /** Makes the numpy types; the core plugin registers it. */
  public static DataTypeFactory factory() {
    return new DataTypeFactory() {
      @Override
      public List<String> names() {
        return NAMES;
      }

      @Override
      public DataType create(NamedConfig metadata) {
        return numpyType(metadata);
      }
    };
  }

  private static FixedWidthType numpyType(NamedConfig metadata) {
    return switch (metadata.name()) {
      case NumpyTimeType.DATETIME, NumpyTimeType.TIMEDELTA -> NumpyTimeType.fromMetadata(metadata);
      case FixedUtf32Type.NAME -> FixedUtf32Type.of(lengthBytes(metadata));
      case FixedBytesType.NULL_TERMINATED -> FixedBytesType.of(false, lengthBytes(metadata));
      case FixedBytesType.RAW -> FixedBytesType.of(true, lengthBytes(metadata));
      case StructType.NAME, StructType.LEGACY_NAME -> StructType.fromMetadata(metadata);
      default -> throw new MetadataException("/data_type: unknown numpy type " + metadata.name());
    };
  }

  /**
   * The fixed-size type {@code metadata} names, core or numpy, for a struct's field (which may also be a
   * {@link SubarrayType}, a type only fields have) or a sub-array's element; anything else, a
   * variable-size type included, is a {@link MetadataException} at {@code pointer}.
   */
  static FixedWidthType fixedWidth(NamedConfig metadata, String pointer) {
    var core = FixedType.named(metadata.name());
    if (core.isPresent()) {
      return core.get();
    }
    if (metadata.name().equals(SubarrayType.NAME)) {
      return SubarrayType.fromMetadata(metadata, pointer);
    }
    if (NAMES.contains(metadata.name())) {
      return numpyType(metadata);
    }
    throw new MetadataException(pointer + ": a struct field or sub-array element needs a fixed-size data type, got " + metadata.name());
  }

  private static long lengthBytes(NamedConfig metadata) {
    JsonNode config = metadata.config();
    for (var it = config.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("length_bytes")) {
        throw new MetadataException("/data_type/configuration/" + key + ": unknown option of data type " + metadata.name());
      }
    }
    JsonNode n = config.get("length_bytes");
    if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
      throw new MetadataException("/data_type/configuration/length_bytes: data type " + metadata.name()
          + " needs an integer, got " + Json.kind(n));
    }
    return n.longValue();
  }
}
