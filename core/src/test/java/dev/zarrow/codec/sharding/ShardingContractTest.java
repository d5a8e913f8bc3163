package dev.zarrow.codec.sharding;

import dev.zarrow.ArraySpec;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.junit.jupiter.api.Nested;

/** sharding_indexed under the codec contract: the partial read and write paths checked against slices. */
class ShardingContractTest {
  static Codec sharding(int[] inner, IndexLocation location) {
    NamedConfig bytes = ArraySpec.defaultIndexCodecs().get(0);
    NamedConfig metadata = ArraySpec.shardingIndexed(inner, List.of(bytes, ArraySpec.zstd(1)), ArraySpec.defaultIndexCodecs(), location.json());
    return Registry.defaults().codec(metadata, CodecOptions.DEFAULT);
  }

  static List<ChunkSpec> specs(List<int[]> shapes) {
    List<FixedType> types = List.of(FixedType.INT32, FixedType.BOOL, FixedType.COMPLEX64, FixedType.FLOAT16, FixedType.raw(24));
    return types.stream().flatMap(t -> shapes.stream().map(s -> new ChunkSpec(s, t, t.defaultFill()))).toList();
  }

  @Nested
  class TwoDimensionsIndexAtEnd extends CodecContract {
    @Override
    protected Codec codec() {
      return sharding(new int[] {2, 3}, IndexLocation.END);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(List.of(new int[] {4, 6}, new int[] {2, 3}, new int[] {6, 9}));
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(List.of(new int[] {5, 6}, new int[] {4}));
    }

    @Override
    protected int flips() {
      return 16;
    }
  }

  @Nested
  class OneDimensionIndexAtStart extends CodecContract {
    @Override
    protected Codec codec() {
      return sharding(new int[] {4}, IndexLocation.START);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(List.of(new int[] {16}, new int[] {4}));
    }

    @Override
    protected int flips() {
      return 16;
    }
  }
}
