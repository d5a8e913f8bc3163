package dev.zarrow.codec.arrow;

import dev.zarrow.spi.ZarrPlugin;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataTypeFactory;
import java.util.List;

/** The {@code arrow} data type and the {@code arrow} IPC codec (also read as {@code arrow-ipc}). */
public final class ArrowPlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(new ArrowIpcCodec.Factory());
  }

  @Override
  public List<DataTypeFactory> dataTypes() {
    return List.of(ArrowDataType.factory());
  }
}
