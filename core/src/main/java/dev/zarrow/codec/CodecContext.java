package dev.zarrow.codec;

import dev.zarrow.dtype.DataType;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * What a codec factory may use: the options in force, the registry to make nested codecs, and an
 * executor for work within one chunk.
 */
public interface CodecContext {

  CodecOptions options();

  /**
   * Where a codec may run parts of one chunk in parallel (sharding decodes and encodes inner chunks on
   * it). The same executor also runs whole chunks, so codecs must use it only in ways that cannot
   * deadlock when called from one of its own tasks ({@link dev.zarrow.internal.WorkSharing}). Direct
   * (sequential) unless the context was made with one.
   */
  default Executor executor() {
    return Runnable::run;
  }

  /** The codec that {@code metadata} names. */
  Codec codec(NamedConfig metadata);

  /** The codecs of a chain, in order. */
  default List<Codec> codecs(List<NamedConfig> metadata) {
    return metadata.stream().map(this::codec).toList();
  }

  /** The data type that {@code metadata} names. */
  DataType dataType(NamedConfig metadata);
}
