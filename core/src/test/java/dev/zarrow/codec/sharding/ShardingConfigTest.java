package dev.zarrow.codec.sharding;

import static dev.zarrow.codec.sharding.ShardingGoldenTest.BYTES_LE;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.CRC;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.put;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.sharding;
import static dev.zarrow.codec.sharding.ShardingGoldenTest.zarrJson;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.Zarr;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.MemoryStore;
import org.junit.jupiter.api.Test;

/** Configurations that must be refused when the array is opened, with a message that says why. */
class ShardingConfigTest {
  static final String INDEX = "[" + BYTES_LE + "," + CRC + "]";
  static final String INNER = "[" + BYTES_LE + "]";

  static <T extends ZarrException> T refused(Class<T> type, String codec, String chunks, String... words) {
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[16,16]", "int32", chunks, codec));
    T e = assertThrows(type, () -> Zarr.openArray(store, "a"));
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' in: " + e.getMessage());
    }
    return e;
  }

  @Test
  void shardShapeMustBeDivisibleByTheInnerChunkShape() {
    refused(CodecException.class, sharding("[3,4]", INNER, INDEX, "end"), "[8,8]", "not divisible", "[8, 8]", "[3, 4]", "a/zarr.json");
  }

  @Test
  void ranksMustMatch() {
    refused(CodecException.class, sharding("[4]", INNER, INDEX, "end"), "[8,8]", "chunk_shape [4]", "dimensions");
  }

  @Test
  void variableSizeIndexCodecsAreRefused() {
    String zstdIndex = "[" + BYTES_LE + ",{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}]";
    refused(CodecException.class, sharding("[4,4]", INNER, zstdIndex, "end"), "[8,8]", "index_codecs", "zstd", "fixed size");
  }

  @Test
  void badOptionsAreMetadataErrors() {
    refused(MetadataException.class, sharding("[4,4]", INNER, INDEX, "middle"), "[8,8]", "index_location");
    refused(MetadataException.class, "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":" + INNER
        + ",\"index_codecs\":" + INDEX + ",\"extra\":1}}", "[8,8]", "/configuration/extra");
    refused(MetadataException.class, "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":" + INNER + "}}",
        "[8,8]", "index_codecs");
    refused(MetadataException.class, "{\"name\":\"sharding_indexed\",\"configuration\":{\"codecs\":" + INNER + ",\"index_codecs\":" + INDEX + "}}",
        "[8,8]", "chunk_shape");
    refused(MetadataException.class, sharding("[4,0]", INNER, INDEX, "end"), "[8,8]", "chunk_shape/1");
    refused(MetadataException.class, sharding("[4,-2]", INNER, INDEX, "end"), "[8,8]", "chunk_shape/1");
    refused(MetadataException.class, sharding("[4,4]", "{}", INDEX, "end"), "[8,8]", "/configuration/codecs");
  }

  @Test
  void innerCodecsAreCheckedAgainstTheInnerChunk() {
    refused(CodecException.class, sharding("[4,4]", "[{\"name\":\"crc32c\"}]", INDEX, "end"), "[8,8]", "codecs", "crc32c");
    refused(UnsupportedExtensionException.class, sharding("[4,4]", "[{\"name\":\"nope\"}]", INDEX, "end"), "[8,8]", "nope");
  }

  @Test
  void tooManyInnerChunksAreRefusedBeforeAllocating() {
    MemoryStore store = new MemoryStore();
    put(store, "a/zarr.json", zarrJson("[1073741824]", "uint8", "[1073741824]", sharding("[1]", INNER, INDEX, "end")));
    CodecException e = assertThrows(CodecException.class, () -> Zarr.openArray(store, "a"));
    assertTrue(e.getMessage().contains("2 GiB"), e.getMessage());
  }
}
