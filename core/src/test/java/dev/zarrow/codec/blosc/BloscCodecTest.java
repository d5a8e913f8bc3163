package dev.zarrow.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.codec.core.BytesCodec;
import dev.zarrow.codec.core.CoreSpecs;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The codec contract for {@code blosc} in its main settings, and its configuration. */
class BloscCodecTest extends CodecContract {
  /** A pool, so that large chunks take the block-parallel path. */
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  static Codec codec(String config) {
    return Registry.defaults().context(CodecOptions.DEFAULT, POOL)
        .codec(NamedConfig.parse(Json.parse("{\"name\":\"blosc\",\"configuration\":" + config + "}", "test"), "/codecs/0"));
  }

  /** The core specs and a chunk of several blocks, large enough to decode in parallel. */
  static List<ChunkSpec> specs() {
    List<ChunkSpec> specs = new ArrayList<>(CoreSpecs.all());
    specs.add(new ChunkSpec(new int[] {700, 1000}, FixedType.FLOAT32, CoreSpecs.fill(FixedType.FLOAT32)));
    return specs;
  }

  @Override
  protected Codec codec() {
    return codec("{\"typesize\":4,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}");
  }

  @Override
  protected List<ChunkSpec> supportedSpecs() {
    return specs();
  }

  @Override
  protected int flips() {
    return 16;
  }

  /** Typesize and shuffle from the data type (bound by the pipeline), zstd. */
  @Nested
  class FromDataType extends CodecContract {
    @Override
    protected Codec codec() {
      return BloscCodecTest.codec("{\"cname\":\"zstd\",\"clevel\":1}");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs();
    }

    @Override
    protected int flips() {
      return 16;
    }
  }

  @Nested
  class BitShuffleZlib extends CodecContract {
    @Override
    protected Codec codec() {
      return BloscCodecTest.codec("{\"typesize\":8,\"cname\":\"zlib\",\"clevel\":1,\"shuffle\":\"bitshuffle\",\"blocksize\":0}");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs();
    }

    @Override
    protected int flips() {
      return 16;
    }
  }

  @Nested
  class NoShuffleLz4hcSmallBlocks extends CodecContract {
    @Override
    protected Codec codec() {
      return BloscCodecTest.codec("{\"typesize\":2,\"cname\":\"lz4hc\",\"clevel\":9,\"shuffle\":\"noshuffle\",\"blocksize\":256}");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs();
    }

    @Override
    protected int flips() {
      return 16;
    }
  }

  @Nested
  class Copied extends CodecContract {
    @Override
    protected Codec codec() {
      return BloscCodecTest.codec("{\"typesize\":4,\"cname\":\"lz4\",\"clevel\":0,\"shuffle\":\"shuffle\",\"blocksize\":0}");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs();
    }

    @Override
    protected int flips() {
      return 8;
    }
  }

  @Test
  void typesizeAndShuffleComeFromTheDataTypeWhenLeftOut() {
    Codec codec = codec("{\"cname\":\"lz4\",\"clevel\":5}");
    ChunkSpec spec = new ChunkSpec(new int[] {10}, FixedType.FLOAT64, CoreSpecs.fill(FixedType.FLOAT64));
    CodecPipeline pipeline = CodecPipeline.of(List.of(BytesCodec.LITTLE, codec), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"typesize\":8,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}}",
        Json.compact(pipeline.codecs().get(1).toMetadata().toJson()));
    ChunkSpec bytes = new ChunkSpec(new int[] {10}, FixedType.UINT8, CoreSpecs.fill(FixedType.UINT8));
    CodecPipeline ofBytes = CodecPipeline.of(List.of(BytesCodec.LITTLE, codec), bytes, Registry.defaults().context(CodecOptions.DEFAULT));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"typesize\":1,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"bitshuffle\",\"blocksize\":0}}",
        Json.compact(ofBytes.codecs().get(1).toMetadata().toJson()), "zarr-python's rule: bitshuffle for one-byte elements");
  }

  @Test
  void refusesBadConfigurations() {
    UnsupportedExtensionException snappy = assertThrows(UnsupportedExtensionException.class,
        () -> codec("{\"typesize\":4,\"cname\":\"snappy\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}"));
    assertTrue(snappy.getMessage().contains("snappy"), snappy.getMessage());
    for (String bad : List.of("{\"cname\":\"lzma\"}", "{\"cname\":4}", "{\"clevel\":10}", "{\"clevel\":-1}", "{\"clevel\":\"5\"}",
        "{\"shuffle\":\"byte\"}", "{\"shuffle\":1}", "{\"typesize\":0}", "{\"typesize\":2.5}", "{\"blocksize\":-1}")) {
      MetadataException e = assertThrows(MetadataException.class, () -> codec(bad), bad);
      assertTrue(e.getMessage().contains("/configuration/"), e.getMessage());
    }
  }

  @Test
  void blosclzChunksAreWrittenAndReadBack() {
    BloscCodec codec = (BloscCodec) codec("{\"typesize\":4,\"cname\":\"blosclz\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}");
    java.nio.ByteBuffer data = java.nio.ByteBuffer.allocateDirect(40_000).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 10_000; i++) {
      data.putInt(i / 7);
    }
    data.flip();
    java.nio.ByteBuffer chunk = codec.encode(data.duplicate());
    assertEquals(0, chunk.get(2) >> 5 & 7, "the header names blosclz");
    assertTrue(chunk.remaining() < 4000, "compressed: " + chunk.remaining() + " bytes");
    assertEquals(data, codec.decode(chunk, 40_000, Integer.MAX_VALUE));
  }

  @Test
  void decodedSizeIsCheckedBeforeAllocating() {
    BloscCodec codec = (BloscCodec) codec("{\"typesize\":4,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}");
    java.nio.ByteBuffer chunk = codec.encode(java.nio.ByteBuffer.allocateDirect(4000));
    assertThrows(CorruptChunkException.class, () -> codec.decode(chunk.duplicate(), 4001, Integer.MAX_VALUE));
    assertThrows(CorruptChunkException.class, () -> codec.decode(chunk.duplicate(), -1, 3999));
    assertEquals(4000, codec.decode(chunk.duplicate(), -1, 4000).remaining());
  }
}
