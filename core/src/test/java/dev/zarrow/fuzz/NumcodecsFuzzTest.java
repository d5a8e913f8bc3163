package dev.zarrow.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.testing.Vectors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzz targets for numcodecs' codecs in Zarr v2-like filter chains (filters, then the compressor, as a
 * v2 {@code .zarray} maps to v3 codecs), and for their decompressors alone with an unknown decoded size.
 * The corpora in {@code src/test/resources/dev/zarrow/fuzz/NumcodecsFuzzTestInputs/<method>/} hold the
 * pipelines' own seeds ({@code seed-*}, {@link SeedCorpus}) and numcodecs' encodings of the same chains
 * ({@code numcodecs-*}, written by {@code core/src/test/python/numcodecs_codecs.py seeds}).
 */
class NumcodecsFuzzTest {
  static final ChunkTarget DELTA_SCALE_SHUFFLE_ZLIB = ChunkTarget.of("deltaScaleShuffleZlib", "\"float64\"", new int[] {64},
      "[{\"name\":\"numcodecs.delta\",\"configuration\":{\"dtype\":\"<f8\",\"astype\":\"<f8\"}},"
          + "{\"name\":\"numcodecs.fixedscaleoffset\",\"configuration\":{\"offset\":0,\"scale\":10,\"dtype\":\"<f8\",\"astype\":\"<i4\"}},"
          + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
          + "{\"name\":\"numcodecs.shuffle\",\"configuration\":{\"elementsize\":4}},"
          + "{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":1}}]");
  static final ChunkTarget DELTA_LZ4 = ChunkTarget.of("deltaLz4", "\"int64\"", new int[] {64},
      "[{\"name\":\"numcodecs.delta\",\"configuration\":{\"dtype\":\"<i8\",\"astype\":\"<i2\"}},"
          + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
          + "{\"name\":\"numcodecs.lz4\",\"configuration\":{\"acceleration\":1}}]");
  static final ChunkTarget QUANTIZE_ASTYPE_BZ2 = ChunkTarget.of("quantizeAstypeBz2", "\"float64\"", new int[] {64},
      "[{\"name\":\"numcodecs.quantize\",\"configuration\":{\"digits\":2,\"dtype\":\"<f8\",\"astype\":\"<f4\"}},"
          + "{\"name\":\"numcodecs.astype\",\"configuration\":{\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f4\"}},"
          + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
          + "{\"name\":\"numcodecs.bz2\",\"configuration\":{\"level\":1}}]");
  static final ChunkTarget VLEN_ARRAY_ZLIB = ChunkTarget.of("vlenArrayZlib",
      "{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.1.0\",\"field\":{\"name\":\"x\",\"nullable\":false,"
          + "\"type\":{\"name\":\"list\"},\"children\":[{\"name\":\"item\",\"nullable\":false,"
          + "\"type\":{\"name\":\"int\",\"bitWidth\":32,\"isSigned\":true},\"children\":[]}]}}}",
      new int[] {9},
      "[{\"name\":\"vlen-array\",\"configuration\":{\"dtype\":\"<i4\"}},{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":1}}]");

  /** Every chain target, for the seed corpus generator. */
  static final List<ChunkTarget> TARGETS = List.of(DELTA_SCALE_SHUFFLE_ZLIB, DELTA_LZ4, QUANTIZE_ASTYPE_BZ2, VLEN_ARRAY_ZLIB);

  static final BytesTarget LZ4_UNKNOWN_SIZE = bytes("lz4UnknownSize", "numcodecs.lz4", "{\"acceleration\":1}");
  static final BytesTarget BZ2_UNKNOWN_SIZE = bytes("bz2UnknownSize", "numcodecs.bz2", "{\"level\":1}");

  private static BytesTarget bytes(String name, String codec, String config) {
    NamedConfig metadata = NamedConfig.of(codec, (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(config, name));
    return new BytesTarget(name, (BytesToBytesCodec) Registry.defaults().codec(metadata, CodecOptions.DEFAULT), ChunkDecoderFuzzTest.CAP);
  }

  @FuzzTest
  void deltaScaleShuffleZlib(byte[] input) {
    DELTA_SCALE_SHUFFLE_ZLIB.run(input);
  }

  @FuzzTest
  void deltaLz4(byte[] input) {
    DELTA_LZ4.run(input);
  }

  @FuzzTest
  void quantizeAstypeBz2(byte[] input) {
    QUANTIZE_ASTYPE_BZ2.run(input);
  }

  @FuzzTest
  void vlenArrayZlib(byte[] input) {
    VLEN_ARRAY_ZLIB.run(input);
  }

  @FuzzTest
  void lz4UnknownSize(byte[] input) {
    LZ4_UNKNOWN_SIZE.run(input);
  }

  @FuzzTest
  void bz2UnknownSize(byte[] input) {
    BZ2_UNKNOWN_SIZE.run(input);
  }

  /** numcodecs' own encodings of each chain (the {@code numcodecs-*} seeds) decode, and encode back to chunks that decode alike. */
  @Test
  void numcodecsSeedsDecode() throws IOException {
    Path inputs = Path.of("src/test/resources/dev/zarrow/fuzz/NumcodecsFuzzTestInputs");
    try (BufferAllocator allocator = new RootAllocator()) {
      for (ChunkTarget target : TARGETS) {
        List<Path> seeds;
        try (Stream<Path> files = Files.list(inputs.resolve(target.name()))) {
          seeds = files.filter(p -> p.getFileName().toString().startsWith("numcodecs-")).sorted().toList();
        }
        assertEquals(6, seeds.size(), target.name());
        for (Path seed : seeds) {
          byte[] bytes = Files.readAllBytes(seed);
          try (FieldVector chunk = target.pipeline().decode(ByteBuffer.wrap(bytes), allocator);
              FieldVector again = target.pipeline().decode(target.pipeline().encode(chunk, allocator), allocator)) {
            assertEquals(target.pipeline().spec().size(), chunk.getValueCount(), seed.toString());
            Vectors.assertSameValues(chunk, again, seed + " re-encoded");
          }
        }
      }
    }
  }

  @AfterAll
  static void allocatorEmpty() {
    // The allocator is shared with ChunkDecoderFuzzTest, so it stays open: nothing may be left on it.
    if (ChunkTarget.ALLOCATOR.getAllocatedMemory() != 0) {
      throw new IllegalStateException(ChunkTarget.ALLOCATOR.getAllocatedMemory() + " bytes left allocated");
    }
  }
}
