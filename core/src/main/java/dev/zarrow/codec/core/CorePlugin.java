package dev.zarrow.codec.core;

import dev.zarrow.spi.ZarrPlugin;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.DataTypeFactory;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.NumpyTypes;
import java.util.List;

/**
 * The core of Zarr v3: the fixed-size data types (core and numpy: {@link NumpyTypes}) and the codecs
 * bytes, transpose, gzip, zstd, crc32c.
 */
public final class CorePlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(
        new BytesCodec.Factory(), new TransposeCodec.Factory(), new GzipCodec.Factory(),
        new ZstdCodec.Factory(), new Crc32cCodec.Factory());
  }

  @Override
  public List<DataTypeFactory> dataTypes() {
    return List.of(FixedType.factory(), NumpyTypes.factory());
  }
}
