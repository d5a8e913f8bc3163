package dev.zarrow.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** {@code .zarray} to the v3 model and back: the dtype and codec tables, fill values, and bad documents. */
class V2MetadataTest {

  private static ObjectNode zarray(String dtype, String extra) {
    return (ObjectNode) Json.parse("{\"zarr_format\": 2, \"shape\": [10, 6], \"chunks\": [4, 3], \"dtype\": " + dtype
        + ", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null" + extra + "}", "test");
  }

  private static ArrayMetadata parse(JsonNode doc) {
    return V2Metadata.parseArray(doc, null, ".zarray");
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "\"|b1\"; \"bool\"; ",
      "\"|i1\"; \"int8\"; ",
      "\"<i2\"; \"int16\"; little",
      "\">i2\"; \"int16\"; big",
      "\"<i4\"; \"int32\"; little",
      "\">u8\"; \"uint64\"; big",
      "\"|u1\"; \"uint8\"; ",
      "\"<f2\"; \"float16\"; little",
      "\"<f4\"; \"float32\"; little",
      "\">f8\"; \"float64\"; big",
      "\"<c8\"; \"complex64\"; little",
      "\"<c16\"; \"complex128\"; little",
      "\"<M8[ns]\"; {\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}; little",
      "\">m8[10s]\"; {\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":10}}; big",
      "\"|S5\"; {\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":5}}; ",
      "\"<U3\"; {\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}; little",
      "\"|V4\"; {\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":4}}; ",
      "[[\"a\", \"<i4\"], [\"b\", \"<f8\"]]; {\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"a\",\"data_type\":\"int32\"},{\"name\":\"b\",\"data_type\":\"float64\"}]}}; little",
      "[[\"a\", \"<f8\"], [\"v\", \"<i2\", [2]]]; {\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"a\",\"data_type\":\"float64\"},{\"name\":\"v\",\"data_type\":{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":\"int16\",\"shape\":[2]}}}]}}; little",
      "[[\"m\", \">i4\", [2, 3]], [\"n\", \">f8\"]]; {\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"m\",\"data_type\":{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":\"int32\",\"shape\":[2,3]}}},{\"name\":\"n\",\"data_type\":\"float64\"}]}}; big",
      "[[\"p\", [[\"x\", \"<f4\"], [\"y\", \"|u1\"]], [2]]]; {\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"p\",\"data_type\":{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"x\",\"data_type\":\"float32\"},{\"name\":\"y\",\"data_type\":\"uint8\"}]}},\"shape\":[2]}}}]}}; little",
      "[[\"c\", \"|S2\", [3]]]; {\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"c\",\"data_type\":{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":2}},\"shape\":[3]}}}]}}; ",
  })
  void dtypesMapToV3TypesAndBack(String dtype, String v3, String endian) {
    ArrayMetadata m = parse(zarray(dtype, ""));
    assertEquals(Json.parse(v3, "v3"), m.dataType().toJson());
    assertEquals(2, m.zarrFormat());
    NamedConfig bytes = m.codecs().get(0);
    assertEquals("bytes", bytes.name());
    assertEquals(endian, bytes.config().path("endian").asText(null));
    ObjectNode back = V2Metadata.toZarray(m);
    assertEquals(Json.parse(dtype, "dtype"), back.get("dtype"));
  }

  @Test
  void theChainIsTransposeFiltersSerializerCompressor() {
    ObjectNode doc = zarray("\"<i4\"", "");
    doc.put("order", "F");
    doc.set("filters", Json.parse("[{\"id\": \"delta\", \"dtype\": \"<i4\"}, {\"id\": \"shuffle\", \"elementsize\": 4}]", "f"));
    doc.set("compressor", Json.parse("{\"id\": \"blosc\", \"cname\": \"zstd\", \"clevel\": 3, \"shuffle\": -1, \"blocksize\": 0}", "c"));
    doc.put("dimension_separator", "/");
    ArrayMetadata m = parse(doc);
    assertEquals(List.of("transpose", "numcodecs.delta", "bytes", "numcodecs.shuffle", "blosc"),
        m.codecs().stream().map(NamedConfig::name).toList());
    assertEquals(Json.parse("[1, 0]", "o"), m.codecs().get(0).config().get("order"));
    assertEquals(Json.parse("{\"dtype\": \"<i4\"}", "d"), m.codecs().get(1).config());
    assertEquals(Json.parse("{\"cname\":\"zstd\",\"clevel\":3,\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}", "b"),
        m.codecs().get(4).config());
    assertEquals(Json.parse("{\"name\":\"v2\",\"configuration\":{\"separator\":\"/\"}}", "k"), m.chunkKeyEncoding().toJson());
    assertEquals(Json.parse("{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[4,3]}}", "g"), m.chunkGrid().toJson());

    ObjectNode back = V2Metadata.toZarray(m);
    assertEquals("F", back.get("order").asText());
    assertEquals("/", back.get("dimension_separator").asText());
    assertEquals(doc.get("filters"), back.get("filters"));
    assertEquals(1, back.get("compressor").get("shuffle").asInt()); // autoshuffle of 4-byte elements
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "vlen-utf8; string",
      "vlen-bytes; bytes",
  })
  void objectArraysTakeTheirTypeFromTheObjectCodec(String codec, String type) {
    ObjectNode doc = zarray("\"|O\"", "");
    doc.set("filters", Json.parse("[{\"id\": \"" + codec + "\"}]", "f"));
    doc.set("compressor", Json.parse("{\"id\": \"zstd\", \"level\": 1}", "c"));
    ArrayMetadata m = parse(doc);
    assertEquals(type, m.dataType().name());
    assertEquals(List.of(codec, "zstd"), m.codecs().stream().map(NamedConfig::name).toList());
    assertEquals("", m.fillValue().asText()); // zarr-python 2's fill 0 of object arrays: the empty value
    ObjectNode back = V2Metadata.toZarray(m);
    assertEquals("|O", back.get("dtype").asText());
    assertEquals(doc.get("filters"), back.get("filters"));
    assertEquals(Json.parse("{\"id\": \"zstd\", \"level\": 1}", "c"), back.get("compressor"));
  }

  @Test
  void vlenArrayIsAListOfItsDtype() {
    ObjectNode doc = zarray("\"|O\"", "");
    doc.set("filters", Json.parse("[{\"id\": \"vlen-array\", \"dtype\": \"<i4\"}]", "f"));
    ArrayMetadata m = parse(doc);
    assertEquals("arrow", m.dataType().name());
    assertEquals("list", m.dataType().config().get("field").get("type").get("name").asText());
    assertEquals("vlen-array", m.codecs().get(0).name());
    assertEquals("|O", V2Metadata.toZarray(m).get("dtype").asText());
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "\"<f8\"; null; 0.0",
      "\"<i4\"; null; 0",
      "\"|b1\"; null; false",
      "\"|b1\"; 1; true",
      "\"<f4\"; \"NaN\"; \"NaN\"",
      "\"<f8\"; \"Infinity\"; \"Infinity\"",
      "\"<f8\"; \"-Infinity\"; \"-Infinity\"",
      "\"<i8\"; -7; -7",
      "\"|S3\"; \"YWJj\"; \"YWJj\"",
      "\"|S2\"; null; \"AAA=\"",
      "\"<U2\"; \"hi\"; \"hi\"",
  })
  void fillValuesInEveryV2Spelling(String dtype, String fill, String v3) {
    ObjectNode doc = zarray(dtype, "");
    doc.set("fill_value", Json.parse(fill, "fill"));
    assertEquals(Json.parse(v3, "v3"), parse(doc).fillValue());
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "zarr_format; 3; /zarr_format",
      "shape; \"x\"; /shape",
      "shape; [-1, 2]; /shape/0",
      "chunks; [4]; /chunks",
      "chunks; [0, 3]; /chunks/0",
      "dtype; \"<i3\"; /dtype",
      "dtype; \"int32\"; /dtype",
      "dtype; 5; /dtype",
      "dtype; \"<M8\"; /dtype",
      "dtype; \"|i4\"; /dtype",
      "order; \"K\"; /order",
      "order; 1; /order",
      "filters; {}; /filters",
      "filters; [{\"level\": 1}]; /filters/0/id",
      "compressor; 3; /compressor",
      "compressor; {\"id\": \"blosc\", \"shuffle\": 7}; /compressor/shuffle",
      "dimension_separator; \"-\"; /dimension_separator",
  })
  void badDocumentsNameTheKey(String key, String value, String pointer) {
    ObjectNode doc = zarray("\"<i4\"", "");
    doc.set(key, Json.parse(value, "v"));
    MetadataException e = assertThrows(MetadataException.class, () -> parse(doc));
    assertTrue(e.getMessage().contains(pointer), e.getMessage());
    assertTrue(e.getMessage().contains(".zarray"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"})
  void everyKeyTheSpecRequiresIsRequired(String key) {
    ObjectNode doc = zarray("\"<i4\"", "");
    doc.remove(key);
    MetadataException e = assertThrows(MetadataException.class, () -> parse(doc));
    assertTrue(e.getMessage().contains("/" + key + ": missing"), e.getMessage());
    assertTrue(e.getMessage().contains(".zarray"), e.getMessage());
  }

  @Test
  void aGroupWithoutItsFormatIsRefused() {
    MetadataException e = assertThrows(MetadataException.class,
        () -> V2Metadata.parseGroup(Json.parse("{}", "g"), null, ".zgroup"));
    assertTrue(e.getMessage().contains("/zarr_format: missing") && e.getMessage().contains(".zgroup"), e.getMessage());
  }

  @Test
  void objectArraysNeedAnObjectCodec() {
    MetadataException e = assertThrows(MetadataException.class, () -> parse(zarray("\"|O\"", "")));
    assertTrue(e.getMessage().contains("/filters"), e.getMessage());
  }

  @Test
  void otherIdsBecomeNumcodecsNames() {
    ObjectNode doc = zarray("\"<i4\"", "");
    doc.set("compressor", Json.parse("{\"id\": \"lz4\", \"acceleration\": 1}", "c"));
    ArrayMetadata m = parse(doc);
    assertEquals(Json.parse("{\"name\":\"numcodecs.lz4\",\"configuration\":{\"acceleration\":1}}", "c"),
        m.codecs().get(1).toJson());
    assertEquals(doc.get("compressor"), V2Metadata.toZarray(m).get("compressor"));
  }

  @Test
  void groupsAndAttributes() {
    GroupMetadata g = V2Metadata.parseGroup(Json.parse("{\"zarr_format\": 2}", "g"), Json.parse("{\"a\": 1}", "a"), ".zgroup");
    assertEquals(2, g.zarrFormat());
    assertEquals(1, g.attributes().get("a").asInt());
    assertThrows(MetadataException.class, () -> V2Metadata.parseGroup(Json.parse("{\"zarr_format\": 3}", "g"), null, ".zgroup"));
    assertThrows(MetadataException.class, () -> V2Metadata.parseGroup(Json.parse("{\"zarr_format\": 2}", "g"), Json.parse("[]", "a"), ".zgroup"));
  }

  @Test
  void whatV2CannotExpressIsRefused() {
    ArrayMetadata m = parse(zarray("\"<i4\"", ""));
    NamedConfig crc = NamedConfig.of("crc32c", null);
    var e = assertThrows(UnsupportedExtensionException.class,
        () -> V2Metadata.toZarray(m.withCodecs(List.of(m.codecs().get(0), crc, NamedConfig.of("gzip", null)))));
    assertTrue(e.getMessage().contains("crc32c"), e.getMessage());
    NamedConfig sharding = NamedConfig.of("sharding_indexed", null);
    e = assertThrows(UnsupportedExtensionException.class, () -> V2Metadata.toZarray(m.withCodecs(List.of(sharding))));
    assertTrue(e.getMessage().contains("sharding_indexed"), e.getMessage());
    ObjectNode odd = (ObjectNode) Json.parse("{\"order\": [1, 0, 2]}", "t");
    ArrayMetadata cube = parse((ObjectNode) Json.parse("{\"zarr_format\": 2, \"shape\": [2, 2, 2], \"chunks\": [1, 1, 1],"
        + " \"dtype\": \"<i4\", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}", "c"));
    e = assertThrows(UnsupportedExtensionException.class, () -> V2Metadata.toZarray(
        cube.withCodecs(List.of(NamedConfig.of("transpose", odd), cube.codecs().get(0)))));
    assertTrue(e.getMessage().contains("transpose"), e.getMessage());
    e = assertThrows(UnsupportedExtensionException.class, () -> V2Metadata.toZarray(m.withCodecs(List.of(
        m.codecs().get(0), NamedConfig.of("zstd", (ObjectNode) Json.parse("{\"level\": 1, \"checksum\": true}", "z"))))));
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
  }

  @Test
  void v3MetadataBecomesV2AndBack() {
    ArrayMetadata v3 = ArrayMetadata.parse(Json.parse("{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [5],"
        + " \"data_type\": \"string\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}},"
        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": \"\", \"codecs\": [{\"name\": \"zstd\","
        + " \"configuration\": {\"level\": 0, \"checksum\": false}}], \"dimension_names\": [\"x\"]}", "v3"), "zarr.json");
    ArrayMetadata v2 = V2Metadata.asV2(v3);
    assertEquals(2, v2.zarrFormat());
    assertEquals(List.of("vlen-utf8", "zstd"), v2.codecs().stream().map(NamedConfig::name).toList());
    assertEquals("v2", v2.chunkKeyEncoding().name());
    assertEquals("/", V2Metadata.toZarray(v2).get("dimension_separator").asText(), "default's separator kept");
    assertEquals(Json.parse("{\"_ARRAY_DIMENSIONS\": [\"x\"]}", "a"), V2Metadata.toZattrs(v2));
    ArrayMetadata back = V2Metadata.asV3(v2);
    assertEquals(3, back.zarrFormat());
    assertEquals(Json.parse("{\"name\":\"v2\",\"configuration\":{\"separator\":\"/\"}}", "k"), back.chunkKeyEncoding().toJson(),
        "v2's encoding kept in v3, as zarr-python 3's migration does: the same chunk keys");
    assertNull(back.storageTransformers());
  }

  /**
   * Issue 27: every fill spelling zarr-python 2 writes comes back as written, v2 -> v2 and v2 -> v3 -> v2;
   * where the v3 form changes it (null, which v3 has no form for; a bool's 0; an object array's 0), the v3
   * array keeps it in the attribute _zarrow_v2_fill_value, which goes when it is v2 again.
   */
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "\"<i2\"; null; 0; ",
      "\"<f8\"; null; 0.0; ",
      "\"|b1\"; 0; false; ",
      "\"|b1\"; true; true; ",
      "\"<f4\"; \"NaN\"; \"NaN\"; ",
      "\">f8\"; \"-Infinity\"; \"-Infinity\"; ",
      "\"<u8\"; 18446744073709551615; 18446744073709551615; ",
      "\"|S3\"; null; \"AAAA\"; ",
      "\"<U2\"; null; \"\"; ",
      "\"|O\"; 0; \"\"; [{\"id\": \"vlen-utf8\"}]",
      "\"|O\"; null; \"\"; [{\"id\": \"vlen-bytes\"}]",
      "\"|O\"; 0; null; [{\"id\": \"vlen-array\", \"dtype\": \"<i4\"}]",
      "\"|O\"; \"-\"; \"-\"; [{\"id\": \"vlen-utf8\"}]",
  })
  void everyFillSpellingSurvivesV2ToV3AndBack(String dtype, String v2Fill, String v3Fill, String filters) {
    ObjectNode doc = zarray(dtype, "");
    if (filters != null) {
      doc.set("filters", Json.parse(filters, "filters"));
    }
    doc.set("fill_value", Json.parse(v2Fill, "fill"));
    ArrayMetadata v2 = parse(doc);
    assertEquals(Json.parse(v3Fill, "fill"), v2.fillValue(), "the fill zarrow reads with");
    assertEquals(Json.parse(v2Fill, "fill"), V2Metadata.toZarray(v2).get("fill_value"), "v2 -> v2");
    ArrayMetadata v3 = ArrayMetadata.parse(V2Metadata.asV3(v2).toJson(), "zarr.json");
    assertEquals(Json.parse(v3Fill, "fill"), v3.fillValue());
    boolean changed = !v2Fill.equals(v3Fill);
    assertEquals(changed ? Json.parse("{\"" + V2Metadata.FILL_ATTRIBUTE + "\": " + v2Fill + "}", "a") : Json.parse("{}", "a"),
        v3.attributes(), "what the v3 array keeps of its v2 fill");
    ArrayMetadata back = V2Metadata.asV2(v3);
    assertEquals(Json.parse(v2Fill, "fill"), V2Metadata.toZarray(back).get("fill_value"), "v2 -> v3 -> v2");
    assertEquals(Json.parse("{}", "a"), V2Metadata.toZattrs(back), "the attribute is not left in v2");
  }

  @Test
  void aFillChangedInV3IsWrittenAsItIsNow() {
    ObjectNode doc = zarray("\"<i2\"", "");
    doc.putNull("fill_value");
    ArrayMetadata v3 = V2Metadata.asV3(parse(doc)).withFillValue(Json.parse("7", "f"));
    assertEquals(Json.parse("7", "f"), V2Metadata.toZarray(V2Metadata.asV2(v3)).get("fill_value"),
        "the kept spelling stands for 0, not 7: dropped");
  }

  @Test
  void dimensionNamesMoveBetweenArrayDimensionsAndDimensionNames() {
    ArrayMetadata v2 = V2Metadata.parseArray(zarray("\"<i2\"", ""),
        Json.parse("{\"_ARRAY_DIMENSIONS\": [\"y\", \"x\"], \"units\": \"m\"}", "a"), ".zarray");
    ArrayMetadata v3 = V2Metadata.asV3(v2);
    assertEquals(List.of("y", "x"), v3.dimensionNames());
    assertEquals(Json.parse("{\"units\": \"m\"}", "a"), v3.attributes(), "_ARRAY_DIMENSIONS does not stay behind in v3");
    assertEquals(Json.parse("{\"units\": \"m\", \"_ARRAY_DIMENSIONS\": [\"y\", \"x\"]}", "a"),
        V2Metadata.toZattrs(V2Metadata.asV2(v3)));
    ArrayMetadata odd = V2Metadata.asV3(V2Metadata.parseArray(zarray("\"<i2\"", ""),
        Json.parse("{\"_ARRAY_DIMENSIONS\": [\"y\"]}", "a"), ".zarray"));
    assertNull(odd.dimensionNames(), "names that do not fit the rank stay an attribute");
  }

  @ParameterizedTest
  @CsvSource({"json2", "pickle", "msgpack2"})
  void anObjectCodecZarrowDoesNotKnowIsRefusedByName(String id) {
    ObjectNode doc = zarray("\"|O\"", "");
    doc.set("filters", Json.parse("[{\"id\": \"" + id + "\"}]", "filters"));
    UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class, () -> parse(doc));
    assertTrue(e.getMessage().contains("object codec " + id) && e.getMessage().contains("/filters/0"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({".", "/"})
  void theSeparatorSurvivesV2ToV3AndBack(String separator) {
    ObjectNode doc = zarray("\"<i4\"", "");
    doc.put("dimension_separator", separator);
    ArrayMetadata v3 = V2Metadata.asV3(parse(doc));
    assertEquals(Json.parse("{\"name\":\"v2\",\"configuration\":{\"separator\":\"" + separator + "\"}}", "k"),
        ArrayMetadata.parse(v3.toJson(), "zarr.json").chunkKeyEncoding().toJson());
    assertEquals(separator, V2Metadata.toZarray(V2Metadata.asV2(v3)).get("dimension_separator").asText());
    JsonNode dotted = (ObjectNode) Json.parse("{\"name\":\"default\",\"configuration\":{\"separator\":\"" + separator + "\"}}", "k");
    ArrayMetadata fromDefault = V2Metadata.asV2(new ArrayMetadata(v3.shape(), v3.dataType(), v3.chunkGrid(),
        NamedConfig.parse(dotted, "k"), v3.fillValue(), v3.codecs(), v3.attributes(), null, null, null, 3));
    assertEquals(separator, V2Metadata.toZarray(fromDefault).get("dimension_separator").asText());
  }

  @Test
  void structAndLegacyStructuredBecomeTheNumpyFieldList() {
    JsonNode dtype = Json.parse("[[\"a\", \">i4\"], [\"t\", \">M8[s]\"], [\"s\", \"|S2\"]]", "d");
    ArrayMetadata m = parse(zarray(Json.compact(dtype), ""));
    assertEquals(dtype, V2Metadata.toZarray(m).get("dtype"));
    JsonNode legacy = Json.parse("{\"name\": \"structured\", \"configuration\": {\"fields\": [[\"a\", \"int32\"],"
        + " [\"t\", {\"name\": \"numpy.datetime64\", \"configuration\": {\"unit\": \"s\", \"scale_factor\": 1}}],"
        + " [\"s\", {\"name\": \"null_terminated_bytes\", \"configuration\": {\"length_bytes\": 2}}]]}}", "t");
    ArrayMetadata old = new ArrayMetadata(m.shape(), NamedConfig.parse(legacy, "t"), m.chunkGrid(), m.chunkKeyEncoding(),
        m.fillValue(), m.codecs(), m.attributes(), null, null, null, 2);
    assertEquals(dtype, V2Metadata.toZarray(old).get("dtype"));
  }

  @Test
  void aSubarrayShapeGivenAsOneIntegerIsOneDimension() {
    ArrayMetadata m = parse(zarray("[[\"v\", \"<i2\", 2]]", ""));
    assertEquals(Json.parse("[2]", "s"), m.dataType().config().path("fields").path(0).path("data_type").path("configuration").path("shape"));
    assertEquals(Json.parse("[[\"v\", \"<i2\", [2]]]", "d"), V2Metadata.toZarray(m).get("dtype"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "[[\"a\", \"<f8\"], [\"v\", \"<i2\", [0]]]; /dtype/1/2/0: an extent must be a positive integer, got 0",
      "[[\"v\", \"<i2\", [2, -1]]]; /dtype/0/2/1: an extent must be a positive integer, got -1",
      "[[\"v\", \"<i2\", []]]; /dtype/0/2: a field's shape is a non-empty list of extents, got []",
      "[[\"v\", \"<i2\", \"2\"]]; /dtype/0/2: a field's shape is a non-empty list of extents",
      "[[\"v\", \"<i2\", [1.5]]]; /dtype/0/2/0: an extent must be a positive integer, got 1.5",
      "[[\"v\", \"<f8\", [2147483647, 2147483647]]]; /dtype/0/2: a field of shape [2147483647,2147483647] is larger than 2^31-1 bytes",
      "[[\"v\", \"<f8\", [99999999999999999999]]]; /dtype/0/2/0: an extent must be a positive integer",
      "[[\"a\", \"<f8\", [200000000]], [\"b\", \"<f8\", [200000000]]]; /dtype: a record of more than 2^31-1 bytes",
  })
  void badSubarrayFieldsNameTheKeyAndTheReason(String dtype, String message) {
    MetadataException e = assertThrows(MetadataException.class, () -> parse(zarray(dtype, "")));
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertTrue(e.getMessage().contains(".zarray"), e.getMessage());
  }

  @Test
  void aStructuredDtypeOfBothByteOrdersIsRefusedNamingIt() {
    var e = assertThrows(UnsupportedExtensionException.class,
        () -> parse(zarray("[[\"a\", \"<i4\"], [\"b\", \">f8\"]]", "")));
    assertTrue(e.getMessage().contains("[[\"a\",\"<i4\"],[\"b\",\">f8\"]]"), e.getMessage());
    assertTrue(e.getMessage().contains(".zarray"), e.getMessage());
    assertTrue(e.getMessage().contains("byte orders"), e.getMessage());
  }
}
