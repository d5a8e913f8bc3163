package dev.zarrow.codec.sharding;

import dev.zarrow.spi.ZarrPlugin;
import dev.zarrow.codec.CodecFactory;
import java.util.List;

/** Registers {@code sharding_indexed}. */
public final class ShardingPlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(new ShardingCodec.Factory());
  }
}
