package dev.zarrow.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrayMetadataTest {
  /** The example array document of the Zarr v3 core specification. */
  static final String SPEC_EXAMPLE = """
      {
          "zarr_format": 3,
          "node_type": "array",
          "shape": [10000, 1000],
          "dimension_names": ["rows", "columns"],
          "data_type": "float64",
          "chunk_grid": {
              "name": "regular",
              "configuration": {
                  "chunk_shape": [1000, 100]
              }
          },
          "chunk_key_encoding": {
              "name": "default",
              "configuration": {
                  "separator": "/"
              }
          },
          "codecs": [{
              "name": "bytes",
              "configuration": {
                  "endian": "big"
              }
          }],
          "fill_value": "NaN",
          "attributes": {
              "foo": 42,
              "bar": "apples",
              "baz": [1, 2, 3, 4]
          }
      }
      """;

  /** What zarr-python 3 writes (hand-written in its key order): storage_transformers empty, no dimension names. */
  static final String ZARR_PYTHON = """
      {
        "shape": [100, 100],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [10, 10]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [
          {"name": "bytes", "configuration": {"endian": "little"}},
          {"name": "zstd", "configuration": {"level": 0, "checksum": false}}
        ],
        "attributes": {},
        "zarr_format": 3,
        "node_type": "array",
        "storage_transformers": []
      }
      """;

  /**
   * Extension points of every kind, with nulls in the dimension names, must_understand:false extensions
   * and an explicit must_understand:true (written back as it stands).
   */
  static final String EXTENDED = """
      {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [4, 5, 6],
        "data_type": {"name": "r16"},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 5, 3]}},
        "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
        "fill_value": [0, 255],
        "codecs": [
          {"name": "transpose", "configuration": {"order": [2, 0, 1]}, "must_understand": true},
          {"name": "bytes"},
          "crc32c"
        ],
        "attributes": {"nested": {"a": [1.5, null, "x"]}, "big": 18446744073709551615},
        "dimension_names": ["x", null, "z"],
        "storage_transformers": [{"name": "future", "must_understand": false}],
        "my_extension": {"must_understand": false, "settings": [1, 2]},
        "another": {"must_understand": false}
      }
      """;

  static ArrayMetadata parse(String json) {
    return ArrayMetadata.parse(Json.parse(json, "zarr.json"), "zarr.json");
  }

  @Test
  void readsTheSpecificationExample() {
    ArrayMetadata m = parse(SPEC_EXAMPLE);
    assertArrayEquals(new long[] {10000, 1000}, m.shape());
    assertEquals(NamedConfig.plain("float64"), m.dataType());
    assertEquals("regular", m.chunkGrid().name());
    assertEquals("\"NaN\"", Json.compact(m.fillValue()));
    assertEquals(List.of("rows", "columns"), m.dimensionNames());
    assertEquals("big", m.codecs().get(0).config().get("endian").textValue());
    assertEquals(42, m.attributes().get("foo").intValue());
    assertNull(m.storageTransformers());
  }

  @Test
  void documentsWriteBackEqual() {
    for (String doc : List.of(SPEC_EXAMPLE, ZARR_PYTHON, EXTENDED)) {
      JsonNode input = Json.parse(doc, "zarr.json");
      // Compared as parsed text: Jackson's nodes differ by number class (IntNode, LongNode) where JSON does not.
      JsonNode output = Json.parse(Json.pretty(parse(doc).toJson()), "written");
      assertEquals(input, output, "written back: " + Json.compact(output));
      assertEquals(parse(doc), parse(new String(Json.pretty(output), StandardCharsets.UTF_8)));
    }
  }

  @Test
  void writesKeysInTheSpecificationsOrder() {
    List<String> keys = keys(parse(EXTENDED).toJson());
    assertEquals(List.of("zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value",
        "codecs", "attributes", "dimension_names", "storage_transformers", "my_extension", "another"), keys);
    assertEquals(List.of("zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value",
        "codecs", "attributes", "storage_transformers"), keys(parse(ZARR_PYTHON).toJson()));
    // A document in that order is written back byte for byte.
    String pretty = new String(Json.pretty(parse(EXTENDED).toJson()), StandardCharsets.UTF_8);
    assertEquals(pretty, new String(Json.pretty(parse(pretty).toJson()), StandardCharsets.UTF_8));
    // Plain names stay plain, objects stay objects.
    assertEquals("\"crc32c\"", Json.compact(parse(EXTENDED).toJson().get("codecs").get(2)));
    assertEquals("{\"name\":\"bytes\"}", Json.compact(parse(EXTENDED).toJson().get("codecs").get(1)));
    assertEquals("{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]},\"must_understand\":true}",
        Json.compact(parse(EXTENDED).toJson().get("codecs").get(0)));
    assertEquals("{\"name\":\"r16\"}", Json.compact(parse(EXTENDED).toJson().get("data_type")));
  }

  private static List<String> keys(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void keepsNullDimensionNamesAndExtensions() {
    ArrayMetadata m = parse(EXTENDED);
    assertEquals(Arrays.asList("x", null, "z"), m.dimensionNames());
    assertEquals(List.of("my_extension", "another"), new ArrayList<>(m.extensions().keySet()));
    assertEquals("[1,2]", Json.compact(m.extensions().get("my_extension").get("settings")));
    assertEquals(false, m.storageTransformers().get(0).mustUnderstand());
    assertEquals("18446744073709551615", m.attributes().get("big").asText());
  }

  @Test
  void refusesUnknownExtensionsNamingThem() {
    for (String ext : List.of("{\"must_understand\": true}", "{}", "42", "\"x\"", "{\"must_understand\": \"false\"}")) {
      ObjectNode doc = (ObjectNode) Json.parse(ZARR_PYTHON, "t");
      doc.set("strange_thing", Json.parse(ext, "t"));
      var e = assertThrows(UnsupportedExtensionException.class, () -> ArrayMetadata.parse(doc, "a/zarr.json"), ext);
      assertTrue(e.getMessage().contains("strange_thing") && e.getMessage().contains("a/zarr.json"), e.getMessage());
    }
  }

  @Test
  void missingOrWrongFieldsNameTheirPointer() {
    for (String key : List.of("zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding",
        "fill_value", "codecs")) {
      ObjectNode doc = (ObjectNode) Json.parse(ZARR_PYTHON, "t");
      doc.remove(key);
      var e = assertThrows(MetadataException.class, () -> ArrayMetadata.parse(doc, "a/zarr.json"), key);
      assertTrue(e.getMessage().contains("/" + key) && e.getMessage().contains("a/zarr.json"), e.getMessage());
    }
    assertPointer("\"shape\": [100, 100]", "\"shape\": [100, -1]", "/shape/1");
    assertPointer("\"shape\": [100, 100]", "\"shape\": [100, 1.5]", "/shape/1");
    assertPointer("\"shape\": [100, 100]", "\"shape\": [100, 99999999999999999999]", "/shape/1");
    assertPointer("\"shape\": [100, 100]", "\"shape\": 100", "/shape");
    assertPointer("\"zarr_format\": 3", "\"zarr_format\": 2", "/zarr_format");
    assertPointer("\"node_type\": \"array\"", "\"node_type\": \"group\"", "/node_type");
    assertPointer("{\"name\": \"zstd\",", "{\"nam\": \"zstd\",", "/codecs/1/name");
    assertPointer("{\"name\": \"zstd\",", "{\"name\": \"zstd\", \"extra\": 1,", "/codecs/1/extra");
    assertPointer("\"configuration\": {\"level\": 0, \"checksum\": false}", "\"configuration\": [1]", "/codecs/1/configuration");
    assertPointer("\"attributes\": {}", "\"attributes\": []", "/attributes");
    assertPointer("\"storage_transformers\": []", "\"storage_transformers\": {}", "/storage_transformers");
    assertPointer("\"storage_transformers\": []", "\"dimension_names\": [\"a\"]", "/dimension_names");
    assertPointer("\"storage_transformers\": []", "\"dimension_names\": [\"a\", 1]", "/dimension_names/1");
    assertPointer("\"data_type\": \"int32\"", "\"data_type\": 5", "/data_type");
    assertPointer("\"data_type\": \"int32\"", "\"data_type\": {\"name\": \"int32\", \"must_understand\": 1}", "/data_type/must_understand");
  }

  private static void assertPointer(String from, String to, String pointer) {
    assertTrue(ZARR_PYTHON.contains(from), from);
    String doc = ZARR_PYTHON.replace(from, to);
    var e = assertThrows(MetadataException.class, () -> parse(doc), to);
    assertTrue(e.getMessage().contains(pointer + ":"), "expected " + pointer + " in: " + e.getMessage());
  }

  @Test
  void refusesDocumentsThatAreNotJsonObjects() {
    for (String doc : List.of("[]", "3", "\"x\"", "null")) {
      assertThrows(MetadataException.class, () -> parse(doc), doc);
    }
    for (String doc : List.of("", "{", "{} {}", "{\"a\": NaN}", "{\"a\": 1, \"a\": 2}")) {
      var e = assertThrows(MetadataException.class, () -> Json.parse(doc, "k/zarr.json"), doc);
      assertTrue(e.getMessage().contains("k/zarr.json"), e.getMessage());
    }
    String deep = "[".repeat(5000) + "]".repeat(5000);
    assertThrows(MetadataException.class, () -> Json.parse(deep, "deep"));
  }

  @Test
  void copiesAreIndependent() {
    ArrayMetadata m = parse(SPEC_EXAMPLE);
    long[] shape = m.shape();
    shape[0] = 1;
    assertEquals(10000, m.shape()[0]);
    ArrayMetadata resized = m.withShape(new long[] {5, 6});
    assertArrayEquals(new long[] {5, 6}, resized.shape());
    assertEquals(m.attributes(), resized.attributes());
    assertThrows(MetadataException.class, () -> m.withShape(new long[] {5}), "dimension names no longer fit");
    ZarrException e = assertThrows(MetadataException.class, () -> m.withShape(new long[] {5}));
    assertTrue(e.getMessage().contains("/dimension_names"));
  }

  @Test
  void readsGroups() {
    String group = """
        {"zarr_format": 3, "node_type": "group", "attributes": {"a": 1},
         "consolidated_metadata": null, "ext": {"must_understand": false, "v": 2}}
        """;
    GroupMetadata g = GroupMetadata.parse(Json.parse(group, "t"), "g/zarr.json");
    assertEquals(Json.parse(group, "t"), g.toJson());
    assertEquals(List.of("zarr_format", "node_type", "attributes", "consolidated_metadata", "ext"), keys(g.toJson()));
    assertEquals("{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{}}",
        Json.compact(GroupMetadata.parse(Json.parse("{\"zarr_format\": 3, \"node_type\": \"group\"}", "t"), "g").toJson()));
    var e = assertThrows(UnsupportedExtensionException.class, () -> GroupMetadata.parse(
        Json.parse("{\"zarr_format\": 3, \"node_type\": \"group\", \"members\": {}}", "t"), "g/zarr.json"));
    assertTrue(e.getMessage().contains("members"), e.getMessage());
    assertThrows(MetadataException.class, () -> GroupMetadata.parse(Json.parse(SPEC_EXAMPLE, "t"), "g"));
  }

}
