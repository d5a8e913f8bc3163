package dev.zarrow.spi;

import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.DataTypeFactory;
import java.util.List;

/**
 * A bundle of codecs and data types, found through {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.zarrow.spi.ZarrPlugin}) or added with {@link Registry#with}. zarrow's own
 * codecs and types are plugins like any other.
 */
public interface ZarrPlugin {

  default List<CodecFactory> codecs() {
    return List.of();
  }

  default List<DataTypeFactory> dataTypes() {
    return List.of();
  }
}
