package dev.zarrow.codec;

import dev.zarrow.dtype.DataType;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;

/** What a codec factory may use: the options in force, and the registry to make nested codecs. */
public interface CodecContext {

  CodecOptions options();

  /** The codec that {@code metadata} names. */
  Codec codec(NamedConfig metadata);

  /** The codecs of a chain, in order. */
  default List<Codec> codecs(List<NamedConfig> metadata) {
    return metadata.stream().map(this::codec).toList();
  }

  /** The data type that {@code metadata} names. */
  DataType dataType(NamedConfig metadata);
}
