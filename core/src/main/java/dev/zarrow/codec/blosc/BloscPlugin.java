package dev.zarrow.codec.blosc;

import dev.zarrow.codec.CodecFactory;
import dev.zarrow.spi.ZarrPlugin;
import java.util.List;

/** Registers {@code blosc}. */
public final class BloscPlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(new BloscCodec.Factory());
  }
}
