package dev.zarrow.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.blosc.BloscCodec;
import dev.zarrow.codec.blosc.BloscCompressor;
import dev.zarrow.codec.blosc.BloscShuffle;
import dev.zarrow.codec.core.GzipCodec;
import dev.zarrow.codec.core.ZstdCodec;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzz targets for every chunk decoder: stored bytes in, a chunk or a {@link dev.zarrow.error.ZarrException}
 * out. In {@code mvn test} each runs over its corpus in
 * {@code src/test/resources/dev/zarrow/fuzz/ChunkDecoderFuzzTestInputs/<method>/}; {@code .ci/fuzz}
 * fuzzes them for real. A new codec's target: a {@link ChunkTarget} in {@link #TARGETS}, a
 * {@code @FuzzTest} method of the same name, and {@code SeedCorpus} run once for its seeds.
 */
class ChunkDecoderFuzzTest {
  /**
   * Pipelines fuzz with crc32c unchecked: a mutated input almost never carries a matching checksum, so
   * with checking on the fuzzer would never reach the codecs inside it (the crc32c target checks it).
   */
  private static final CodecOptions UNCHECKED = CodecOptions.DEFAULT.withVerifyChecksums(false);

  static final ChunkTarget BYTES_INT8 = ChunkTarget.of("bytesInt8", "\"int8\"", new int[] {37}, "[{\"name\":\"bytes\"}]");
  static final ChunkTarget BYTES_BOOL = ChunkTarget.of("bytesBool", "\"bool\"", new int[] {5, 7}, "[{\"name\":\"bytes\"}]");
  static final ChunkTarget BYTES_UINT16_BIG = ChunkTarget.of(
      "bytesUint16Big", "\"uint16\"", new int[] {33}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]");
  static final ChunkTarget BYTES_INT32_LITTLE = ChunkTarget.of(
      "bytesInt32Little", "\"int32\"", new int[] {4, 6}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]");
  static final ChunkTarget BYTES_FLOAT64_BIG = ChunkTarget.of(
      "bytesFloat64Big", "\"float64\"", new int[] {17}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]");
  static final ChunkTarget BYTES_COMPLEX64_BIG = ChunkTarget.of(
      "bytesComplex64Big", "\"complex64\"", new int[] {3, 3}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]");
  static final ChunkTarget BYTES_FLOAT16 = ChunkTarget.of(
      "bytesFloat16", "\"float16\"", new int[] {2, 3, 4}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]");
  static final ChunkTarget TRANSPOSE = ChunkTarget.of("transpose", "\"int16\"", new int[] {2, 3, 4},
      "[{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]");
  static final ChunkTarget GZIP = ChunkTarget.of("gzip", "\"uint8\"", new int[] {64},
      "[{\"name\":\"bytes\"},{\"name\":\"gzip\",\"configuration\":{\"level\":5}}]");
  static final ChunkTarget ZSTD = ChunkTarget.of("zstd", "\"float32\"", new int[] {8, 8},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}}]");
  static final ChunkTarget CRC32C = ChunkTarget.of("crc32c", "\"int32\"", new int[] {19},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]");
  static final ChunkTarget CRC32C_UNCHECKED = ChunkTarget.of("crc32cUnchecked", "\"int32\"", new int[] {19},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]",
      UNCHECKED);
  static final ChunkTarget PIPELINE_ZSTD_CRC32C = ChunkTarget.of("pipelineZstdCrc32c", "\"int64\"", new int[] {5, 6},
      "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},"
          + "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}},{\"name\":\"crc32c\"}]", UNCHECKED);
  static final ChunkTarget PIPELINE_GZIP_CRC32C = ChunkTarget.of("pipelineGzipCrc32c", "\"uint32\"", new int[] {3, 10},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"},"
          + "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]", UNCHECKED);

  static final ChunkTarget SHARDING_END = ChunkTarget.of("shardingEnd", "\"int16\"", new int[] {8, 8},
      "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],"
          + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
          + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
          + "\"index_location\":\"end\"}}]", UNCHECKED);
  static final ChunkTarget SHARDING_START_ZSTD = ChunkTarget.of("shardingStartZstd", "\"uint8\"", new int[] {16},
      "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4],"
          + "\"codecs\":[{\"name\":\"bytes\"},{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}],"
          + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
          + "\"index_location\":\"start\"}}]");
  static final ChunkTarget SHARDING_CHECKED = ChunkTarget.of("shardingChecked", "\"int32\"", new int[] {6},
      "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2],"
          + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}],"
          + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
          + "\"index_location\":\"end\"}}]");

  static final ChunkTarget VLEN_UTF8 = ChunkTarget.of("vlenUtf8", "\"string\"", new int[] {3, 5}, "[{\"name\":\"vlen-utf8\"}]");
  static final ChunkTarget VLEN_BYTES = ChunkTarget.of("vlenBytes", "\"bytes\"", new int[] {11}, "[{\"name\":\"vlen-bytes\"}]");
  static final ChunkTarget ZARRS_VLEN_START = ChunkTarget.of("zarrsVlenStart", "\"string\"", new int[] {12},
      "[{\"name\":\"zarrs.vlen\",\"configuration\":{"
          + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
          + "\"data_codecs\":[{\"name\":\"bytes\"}],\"index_data_type\":\"uint32\",\"index_location\":\"start\"}}]");
  static final ChunkTarget ZARRS_VLEN_END = ChunkTarget.of("zarrsVlenEnd", "\"bytes\"", new int[] {2, 4},
      "[{\"name\":\"zarrs.vlen\",\"configuration\":{"
          + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}],"
          + "\"data_codecs\":[{\"name\":\"bytes\"}],\"index_data_type\":\"uint64\",\"index_location\":\"end\"}}]");
  /** ZEP7: no array->bytes codec, the data type is the serializer. */
  static final ChunkTarget ZEP7_STRING = ChunkTarget.of("zep7String", "\"string\"", new int[] {9}, "[]");
  static final ChunkTarget ZEP7_LARGE_STRING = ChunkTarget.of("zep7LargeString", "\"large_string\"", new int[] {2, 3}, "[]");

  static final ChunkTarget ARROW_INT = arrow("arrowInt", new int[] {10},
      "{\"name\":\"x\",\"nullable\":true,\"type\":{\"name\":\"int\",\"bitWidth\":32,\"isSigned\":true},\"children\":[]}");
  static final ChunkTarget ARROW_UTF8 = arrow("arrowUtf8", new int[] {3, 3},
      "{\"name\":\"s\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[]}");
  static final ChunkTarget ARROW_LIST = arrow("arrowList", new int[] {7},
      "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"children\":["
          + "{\"name\":\"item\",\"nullable\":true,\"type\":{\"name\":\"int\",\"bitWidth\":64,\"isSigned\":true},\"children\":[]}]}");
  static final ChunkTarget ARROW_STRUCT = arrow("arrowStruct", new int[] {6},
      "{\"name\":\"st\",\"nullable\":true,\"type\":{\"name\":\"struct\"},\"children\":["
          + "{\"name\":\"i\",\"nullable\":false,\"type\":{\"name\":\"int\",\"bitWidth\":16,\"isSigned\":false},\"children\":[]},"
          + "{\"name\":\"s\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[]}]}");
  static final ChunkTarget ARROW_DICTIONARY = arrow("arrowDictionary", new int[] {12},
      "{\"name\":\"d\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[],"
          + "\"dictionary\":{\"id\":0,\"indexType\":{\"name\":\"int\",\"bitWidth\":8,\"isSigned\":true},\"isOrdered\":false}}");

  /** Every chunk target, for the seed corpus generator. */
  static final List<ChunkTarget> TARGETS = List.of(
      BYTES_INT8, BYTES_BOOL, BYTES_UINT16_BIG, BYTES_INT32_LITTLE, BYTES_FLOAT64_BIG, BYTES_COMPLEX64_BIG,
      BYTES_FLOAT16, TRANSPOSE, GZIP, ZSTD, CRC32C, CRC32C_UNCHECKED, PIPELINE_ZSTD_CRC32C, PIPELINE_GZIP_CRC32C,
      SHARDING_END, SHARDING_START_ZSTD, SHARDING_CHECKED, VLEN_UTF8, VLEN_BYTES, ZARRS_VLEN_START, ZARRS_VLEN_END,
      ZEP7_STRING, ZEP7_LARGE_STRING, ARROW_INT, ARROW_UTF8, ARROW_LIST, ARROW_STRUCT, ARROW_DICTIONARY);

  /** The numpy types: stored bytes converted to Arrow (NaT to null, UTF-32 to utf8, packed records to structs). */
  static final ChunkTarget BYTES_DATETIME_BIG = ChunkTarget.of("bytesDatetimeBig",
      "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}", new int[] {9},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]");
  static final ChunkTarget BYTES_UTF32_BIG = ChunkTarget.of("bytesUtf32Big",
      "{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}", new int[] {2, 3},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]");
  static final ChunkTarget BYTES_STRUCT = ChunkTarget.of("bytesStruct",
      "{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"id\",\"data_type\":\"int32\"},"
          + "{\"name\":\"t\",\"data_type\":{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"D\",\"scale_factor\":1}}},"
          + "{\"name\":\"s\",\"data_type\":{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":8}}},"
          + "{\"name\":\"b\",\"data_type\":{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":3}}}]}}",
      new int[] {5}, "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]");
  /** Kept out of {@link #TARGETS} so that their seeds come from a random source of their own. */
  static final List<ChunkTarget> NUMPY_TARGETS = List.of(BYTES_DATETIME_BIG, BYTES_UTF32_BIG, BYTES_STRUCT);

  /** A chunk of the {@code arrow} data type with {@code field} (Arrow JSON), through the arrow IPC codec. */
  private static ChunkTarget arrow(String name, int[] shape, String field) {
    return ChunkTarget.of(name, "{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.1.0\",\"field\":" + field + "}}",
        shape, "[{\"name\":\"arrow\"}]");
  }

  /**
   * Blosc: the chunk's header decides compressor, shuffle, split and typesize, so one target reads them
   * all; its seeds add c-blosc's chunks of every compressor to the pipeline's own (SeedCorpus). Kept out
   * of {@link #TARGETS} so that their seeds come from a random source of their own.
   */
  static final ChunkTarget BLOSC = ChunkTarget.of("blosc", "\"uint16\"", new int[] {2048},
      "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"blosc\",\"configuration\":"
          + "{\"typesize\":2,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":1024}}]");

  /** A cap small enough that a fuzzer can cross it. */
  static final long CAP = 1 << 16;
  static final BytesTarget ZSTD_UNKNOWN_SIZE = new BytesTarget("zstdUnknownSize", new ZstdCodec(0, false), CAP);
  static final BytesTarget GZIP_UNKNOWN_SIZE = new BytesTarget("gzipUnknownSize", new GzipCodec(6), CAP);
  static final BytesTarget BLOSC_UNKNOWN_SIZE = new BytesTarget("bloscUnknownSize",
      BloscCodec.of(BloscCompressor.ZSTD, 3, BloscShuffle.BITSHUFFLE, 4, 0, Runnable::run), CAP);

  @FuzzTest
  void bytesInt8(byte[] input) {
    BYTES_INT8.run(input);
  }

  @FuzzTest
  void bytesBool(byte[] input) {
    BYTES_BOOL.run(input);
  }

  @FuzzTest
  void bytesUint16Big(byte[] input) {
    BYTES_UINT16_BIG.run(input);
  }

  @FuzzTest
  void bytesInt32Little(byte[] input) {
    BYTES_INT32_LITTLE.run(input);
  }

  @FuzzTest
  void bytesFloat64Big(byte[] input) {
    BYTES_FLOAT64_BIG.run(input);
  }

  @FuzzTest
  void bytesComplex64Big(byte[] input) {
    BYTES_COMPLEX64_BIG.run(input);
  }

  @FuzzTest
  void bytesFloat16(byte[] input) {
    BYTES_FLOAT16.run(input);
  }

  @FuzzTest
  void bytesDatetimeBig(byte[] input) {
    BYTES_DATETIME_BIG.run(input);
  }

  @FuzzTest
  void bytesUtf32Big(byte[] input) {
    BYTES_UTF32_BIG.run(input);
  }

  @FuzzTest
  void bytesStruct(byte[] input) {
    BYTES_STRUCT.run(input);
  }

  @FuzzTest
  void transpose(byte[] input) {
    TRANSPOSE.run(input);
  }

  @FuzzTest
  void gzip(byte[] input) {
    GZIP.run(input);
  }

  @FuzzTest
  void zstd(byte[] input) {
    ZSTD.run(input);
  }

  @FuzzTest
  void crc32c(byte[] input) {
    CRC32C.run(input);
  }

  @FuzzTest
  void crc32cUnchecked(byte[] input) {
    CRC32C_UNCHECKED.run(input);
  }

  @FuzzTest
  void pipelineZstdCrc32c(byte[] input) {
    PIPELINE_ZSTD_CRC32C.run(input);
  }

  @FuzzTest
  void pipelineGzipCrc32c(byte[] input) {
    PIPELINE_GZIP_CRC32C.run(input);
  }

  @FuzzTest
  void shardingEnd(byte[] input) {
    SHARDING_END.run(input);
  }

  @FuzzTest
  void shardingStartZstd(byte[] input) {
    SHARDING_START_ZSTD.run(input);
  }

  @FuzzTest
  void shardingChecked(byte[] input) {
    SHARDING_CHECKED.run(input);
  }

  @FuzzTest
  void vlenUtf8(byte[] input) {
    VLEN_UTF8.run(input);
  }

  @FuzzTest
  void vlenBytes(byte[] input) {
    VLEN_BYTES.run(input);
  }

  @FuzzTest
  void zarrsVlenStart(byte[] input) {
    ZARRS_VLEN_START.run(input);
  }

  @FuzzTest
  void zarrsVlenEnd(byte[] input) {
    ZARRS_VLEN_END.run(input);
  }

  @FuzzTest
  void zep7String(byte[] input) {
    ZEP7_STRING.run(input);
  }

  @FuzzTest
  void zep7LargeString(byte[] input) {
    ZEP7_LARGE_STRING.run(input);
  }

  @FuzzTest
  void arrowInt(byte[] input) {
    ARROW_INT.run(input);
  }

  @FuzzTest
  void arrowUtf8(byte[] input) {
    ARROW_UTF8.run(input);
  }

  @FuzzTest
  void arrowList(byte[] input) {
    ARROW_LIST.run(input);
  }

  @FuzzTest
  void arrowStruct(byte[] input) {
    ARROW_STRUCT.run(input);
  }

  @FuzzTest
  void arrowDictionary(byte[] input) {
    ARROW_DICTIONARY.run(input);
  }

  @FuzzTest
  void zstdUnknownSize(byte[] input) {
    ZSTD_UNKNOWN_SIZE.run(input);
  }

  @FuzzTest
  void gzipUnknownSize(byte[] input) {
    GZIP_UNKNOWN_SIZE.run(input);
  }

  @FuzzTest
  void blosc(byte[] input) {
    BLOSC.run(input);
  }

  @FuzzTest
  void bloscUnknownSize(byte[] input) {
    BLOSC_UNKNOWN_SIZE.run(input);
  }

  @AfterAll
  static void allocatorEmpty() {
    // Not closed: NumcodecsFuzzTest's targets share it in the same JVM.
    if (ChunkTarget.ALLOCATOR.getAllocatedMemory() != 0) {
      throw new IllegalStateException(ChunkTarget.ALLOCATOR.getAllocatedMemory() + " bytes left allocated: " + ChunkTarget.ALLOCATOR.toVerboseString());
    }
  }
}
