package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.metadata.NamedConfig;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A Zarr data type and its Arrow form. A chunk of this type in memory is a flat, C-order Arrow vector
 * of {@link #field} with one element per array element. Implementations are immutable.
 */
public interface DataType {

  /** The registered name, e.g. {@code int32}, {@code string}, {@code arrow}. */
  String name();

  /** The {@code data_type} metadata value (a plain name or {name, configuration}). */
  NamedConfig toMetadata();

  /** The Arrow field of a vector of this type, named {@code name}. */
  Field field(String name);

  /**
   * The number of bytes of one element in the fixed-size {@code bytes} layout, or -1 for types of
   * variable size.
   */
  default int byteWidth() {
    return -1;
  }

  /** Parses a {@code fill_value}; a {@link dev.zarrow.error.MetadataException} names what is wrong. */
  FillValue parseFill(JsonNode json);

  /** The JSON form of a fill value, the inverse of {@link #parseFill}. */
  JsonNode fillToJson(FillValue fill);

  /** The fill value of a new array when the user names none (zero, false, empty). */
  FillValue defaultFill();

  /**
   * A new vector of {@code count} elements, each equal to {@code fill}. The caller owns the vector
   * and must close it.
   */
  FieldVector filled(BufferAllocator allocator, int count, FillValue fill);

  /** True when every element of {@code vector} equals {@code fill}. {@code vector} is borrowed. */
  boolean isAllFill(FieldVector vector, FillValue fill);

  /**
   * The serializer a codec list without an array->bytes codec implies (ZEP7 makes the data type the
   * final codec for variable-length types), as codec metadata that the codec pipeline resolves through
   * the registry; empty when such a list is invalid for this type. Never written into a codec list.
   */
  default Optional<NamedConfig> implicitSerializer() {
    return Optional.empty();
  }

  /** The array->bytes codec that new arrays of this type use unless told otherwise (may be empty: ZEP7). */
  Optional<NamedConfig> defaultSerializer();
}
