package dev.zarrow.codec.vlen;

import dev.zarrow.spi.ZarrPlugin;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.DataTypeFactory;
import dev.zarrow.dtype.VarLenType;
import java.util.List;

/**
 * Variable-length strings and binary: the data types {@code string}, {@code bytes} ({@code binary},
 * {@code variable_length_bytes}), {@code large_string}, {@code large_binary}, and the layouts
 * {@code vlen-utf8}, {@code vlen-bytes}, {@code zarrs.vlen_v2}, {@code zarrs.vlen}, and ZEP7 (what a codec
 * list without an array->bytes codec means for these types, registered as {@code zarrow.zep7}).
 */
public final class VlenPlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(new VlenInterleavedCodec.Factory(), new ZarrsVlenCodec.Factory(), new Zep7Codec.Factory());
  }

  @Override
  public List<DataTypeFactory> dataTypes() {
    return List.of(VarLenType.factory());
  }
}
