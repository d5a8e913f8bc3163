package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code --codec} grammar and its printed form. */
class CodecSpecsTest {

  private static String parsed(String... specs) {
    StringBuilder out = new StringBuilder();
    for (NamedConfig c : CodecSpecs.parse(List.of(specs))) {
      out.append(Json.compact(c.toJson()));
    }
    return out.toString();
  }

  @Test
  void shortForms() {
    assertEquals("{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}", parsed("bytes"));
    assertEquals("{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}", parsed("bytes:big"));
    assertEquals("{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}}", parsed("zstd")); // level 0 means 3: written as it is
    assertEquals("{\"name\":\"zstd\",\"configuration\":{\"level\":-3,\"checksum\":false}}", parsed("zstd:-3"));
    assertEquals("{\"name\":\"gzip\",\"configuration\":{\"level\":5}}", parsed("gzip"));
    assertEquals("{\"name\":\"gzip\",\"configuration\":{\"level\":9}}", parsed(" gzip:9 "));
    assertEquals("{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}}", parsed("transpose:2,0,1"));
    assertEquals("{\"name\":\"crc32c\"}", parsed("crc32c"));
    assertEquals("{\"name\":\"vlen-utf8\"}", parsed("vlen-utf8"));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\"}}", parsed("blosc:{\"cname\":\"lz4\"}"));
  }

  @Test
  void blosc() {
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,\"blocksize\":0}}", parsed("blosc"));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,\"blocksize\":0}}", parsed("blosc:zstd"));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4hc\",\"clevel\":9,\"blocksize\":0}}", parsed("blosc:lz4hc:9"));
    assertEquals("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zlib\",\"clevel\":1,\"shuffle\":\"bitshuffle\",\"blocksize\":0}}",
        parsed("blosc:zlib:1:bitshuffle"));
    for (String bad : List.of("blosc:lz4:x", "blosc:lz4:10", "blosc:lz4:5:byte", "blosc:lz4:5:shuffle:0")) {
      assertThrows(IllegalArgumentException.class, () -> CodecSpecs.parse(List.of(bad)), bad);
    }
    String stored = "{\"name\":\"blosc\",\"configuration\":{\"typesize\":4,\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"blocksize\":0}}";
    assertEquals("blosc:lz4:5:shuffle", CodecSpecs.format(CodecSpecs.parse(List.of(stored)).get(0)));
    assertEquals("blosc:zstd:3:noshuffle", CodecSpecs.format(CodecSpecs.parse(List.of("blosc:zstd:3:noshuffle")).get(0)));
  }

  @Test
  void jsonForms() {
    assertEquals("{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}}",
        parsed("{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}}"));
    assertEquals("\"bytes\"{\"name\":\"crc32c\"}", parsed("[\"bytes\", {\"name\": \"crc32c\"}]"));
  }

  @Test
  void badSpecs() {
    for (List<String> bad : List.of(List.of("zstd:x"), List.of("transpose"), List.of("transpose:1,a"), List.of("bytes:mid"),
        List.of("crc32c:1"), List.of("{\"name\":3}"), List.of("[1]"), List.of("[\"bytes\"]", "crc32c"), List.of("a b"),
        List.of("{"), List.of("x:{\"a\":1"), List.of("x:[1]"))) {
      assertThrows(IllegalArgumentException.class, () -> CodecSpecs.parse(bad), bad.toString());
    }
  }

  @Test
  void formatIsTheShortGrammarBack() {
    List<String> specs = List.of("transpose:1,0", "bytes:big", "zstd:7", "gzip:2", "crc32c", "vlen-bytes", "blosc:{\"cname\":\"lz4\"}");
    for (String spec : specs) {
      assertEquals(spec, CodecSpecs.format(CodecSpecs.parse(List.of(spec)).get(0)));
    }
    assertEquals("bytes", CodecSpecs.format(CodecSpecs.parse(List.of("bytes:little")).get(0)));
    assertEquals("zstd:{\"level\":1,\"checksum\":true}",
        CodecSpecs.format(CodecSpecs.parse(List.of("{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}}")).get(0)));
    String sharded = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2,2],\"codecs\":[{\"name\":\"bytes\","
        + "\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],\"index_codecs\":[],\"index_location\":\"end\"}}";
    assertEquals("sharding_indexed(chunks 2,2: bytes crc32c)", CodecSpecs.format(CodecSpecs.parse(List.of(sharded)).get(0)));
  }
}
