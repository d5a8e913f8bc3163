package dev.zarrow.codec.numcodecs;

import dev.zarrow.codec.CodecFactory;
import dev.zarrow.spi.ZarrPlugin;
import java.util.List;

/**
 * Registers numcodecs' codecs under the names zarr-python 3 gives them ({@code numcodecs.<id>}, and
 * {@code vlen-array}): what Zarr v2 compressors and filters map to, and valid in v3 metadata too.
 */
public final class NumcodecsPlugin implements ZarrPlugin {
  @Override
  public List<CodecFactory> codecs() {
    return List.of(
        new ZlibCodec.Factory(), new Lz4Codec.Factory(), new Bz2Codec.Factory(), new ShuffleCodec.Factory(),
        new DeltaCodec.Factory(), new FixedScaleOffsetCodec.Factory(), new QuantizeCodec.Factory(),
        new AsTypeCodec.Factory(), new BitRoundCodec.Factory(), new VlenArrayCodec.Factory(),
        AliasCodec.gzip(), AliasCodec.zstd(), AliasCodec.blosc());
  }
}
