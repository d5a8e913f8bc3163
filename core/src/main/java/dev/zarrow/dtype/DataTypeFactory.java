package dev.zarrow.dtype;

import dev.zarrow.metadata.NamedConfig;
import java.util.List;

/** Makes data types from their {@code data_type} metadata; found by name through a {@link dev.zarrow.spi.Registry}. */
public interface DataTypeFactory {

  /** The names (first the registered name, then aliases) this factory understands. */
  List<String> names();

  /** The data type described by {@code metadata}; a bad configuration is a {@link dev.zarrow.error.MetadataException}. */
  DataType create(NamedConfig metadata);
}
