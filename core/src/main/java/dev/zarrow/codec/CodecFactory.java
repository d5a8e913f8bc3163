package dev.zarrow.codec;

import dev.zarrow.metadata.NamedConfig;
import java.util.List;

/** Makes codecs from their {@code codecs} metadata; found by name through a {@link dev.zarrow.spi.Registry}. */
public interface CodecFactory {

  /** The registered name first, then aliases read as the same codec. */
  List<String> names();

  /**
   * The codec that {@code metadata} describes. A bad configuration is a
   * {@link dev.zarrow.error.MetadataException}; {@code context} makes nested codecs and carries options.
   */
  Codec create(NamedConfig metadata, CodecContext context);
}
