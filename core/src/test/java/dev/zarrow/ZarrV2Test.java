package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.StructType;
import dev.zarrow.dtype.SubarrayType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import dev.zarrow.testing.RecordingStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Zarr v2 nodes through the API: opened after zarr.json, listed, written back as v2, refused clearly. */
@ExtendWith(AllocatorExtension.class)
class ZarrV2Test {

  private static void put(MemoryStore store, String key, String text) {
    store.set(key, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static String zarray(String dtype, String compressor, String filters, String fill) {
    return "{\"zarr_format\": 2, \"shape\": [5], \"chunks\": [2], \"dtype\": \"" + dtype + "\", \"compressor\": "
        + compressor + ", \"fill_value\": " + fill + ", \"order\": \"C\", \"filters\": " + filters + "}";
  }

  @Test
  void v2NodesOpenListAndReadMissingChunksAsFill(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    put(store, ".zgroup", "{\"zarr_format\": 2}");
    put(store, ".zattrs", "{\"title\": \"v2\"}");
    put(store, "sub/.zgroup", "{\"zarr_format\": 2}");
    put(store, "a/.zarray", zarray("<i4", "null", "null", "null"));
    put(store, "a/.zattrs", "{\"units\": \"m\"}");
    store.set("a/0", ByteBuffer.wrap(new byte[] {1, 0, 0, 0, 2, 0, 0, 0}));
    put(store, "s/.zarray", zarray("|O", "null", "[{\"id\": \"vlen-utf8\"}]", "0"));

    ZarrGroup root = Zarr.openGroup(store, "");
    assertEquals("v2", root.attributes().get("title").asText());
    assertEquals(List.of("a", "s", "sub"), root.childNames());
    ZarrArray a = root.array("a");
    assertEquals("m", a.attributes().get("units").asText());
    assertEquals("int32", a.dataType().name());
    try (NdVector v = a.read(allocator)) {
      IntVector ints = (IntVector) v.vector();
      assertEquals(List.of(1, 2, 0, 0, 0), List.of(ints.get(0), ints.get(1), ints.get(2), ints.get(3), ints.get(4)));
    }
    try (NdVector v = root.array("s").read(allocator)) {
      VarCharVector strings = (VarCharVector) v.vector();
      assertEquals("", new String(strings.get(3), StandardCharsets.UTF_8));
    }
  }

  @Test
  void openingAV2ArrayLooksUpZarrJsonZarrayAndZattrsOnceAndReadsOneDocument() {
    MemoryStore memory = new MemoryStore();
    put(memory, "a/.zarray", zarray("<i4", "null", "null", "0"));
    RecordingStore store = new RecordingStore(memory);
    Zarr.openArray(store, "a");
    assertEquals(List.of("a/.zarray"), store.requests().stream().map(RecordingStore.Request::key).toList());
    assertEquals(3, store.sizes()); // zarr.json (missing), .zarray, .zattrs (missing)
  }

  @Test
  void zarrJsonComesFirst() {
    MemoryStore store = new MemoryStore();
    put(store, "x/.zarray", zarray("<i4", "null", "null", "0"));
    Zarr.createArray(store, "y", ArraySpec.of(FixedType.INT8, 3));
    store.set("x/zarr.json", store.get("y/zarr.json").orElseThrow());
    assertEquals(3, Zarr.openArray(store, "x").metadata().zarrFormat());
  }

  @Test
  void unknownCodecIdsAreRefusedAtOpenByIdAndKey() {
    MemoryStore store = new MemoryStore();
    put(store, "a/.zarray", zarray("<i4", "{\"id\": \"nosuchcodec\", \"level\": 1}", "null", "0"));
    UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class, () -> Zarr.open(store, "a"));
    assertTrue(e.getMessage().contains("nosuchcodec"), e.getMessage());
    assertTrue(e.getMessage().contains("a/.zarray"), e.getMessage());
  }

  @Test
  void badZarrayIsAMetadataExceptionNamingKeyAndDocument() {
    MemoryStore store = new MemoryStore();
    put(store, "a/.zarray", zarray("<i4", "null", "null", "0").replace("\"C\"", "\"Q\""));
    MetadataException e = assertThrows(MetadataException.class, () -> Zarr.open(store, "a"));
    assertTrue(e.getMessage().contains("/order") && e.getMessage().contains("a/.zarray"), e.getMessage());
  }

  @Test
  void arraysAndGroupsCreatedAsV2StayV2(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray a = Zarr.createArray(store, "g/h/a", ArraySpec.of(VarLenType.STRING, 4).chunks(3).zarrFormat(2)
        .attributes(JsonNodeFactory.instance.objectNode().put("k", 1)));
    assertTrue(store.exists("g/h/a/.zarray") && store.exists("g/h/a/.zattrs"));
    assertTrue(store.exists("g/.zgroup") && store.exists("g/h/.zgroup") && store.exists(".zgroup"));
    assertFalse(store.exists("g/zarr.json") || store.exists("g/h/a/zarr.json"));
    try (VarCharVector v = new VarCharVector("", allocator)) {
      v.allocateNew(4);
      for (int i = 0; i < 4; i++) {
        v.setSafe(i, ("x" + i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(4);
      a.write(Box.of(new long[] {4}), v);
    }
    assertTrue(store.exists("g/h/a/0") && store.exists("g/h/a/1"));
    var zarray = Json.parse(store.get("g/h/a/.zarray").orElseThrow(), "z");
    assertEquals("|O", zarray.get("dtype").asText());
    assertEquals("vlen-utf8", zarray.get("filters").get(0).get("id").asText());
    ZarrArray updated = Zarr.openArray(store, "g/h/a").withAttributes(JsonNodeFactory.instance.objectNode().put("k", 2));
    assertEquals(2, updated.metadata().zarrFormat());
    assertEquals(2, Json.parse(store.get("g/h/a/.zattrs").orElseThrow(), "a").get("k").asInt());
    ZarrGroup child = Zarr.openGroup(store, "g").createGroup("c");
    assertEquals(2, child.metadata().zarrFormat());
    assertTrue(store.exists("g/c/.zgroup"));
  }

  @Test
  void whatV2CannotExpressIsRefusedBeforeAnythingIsWritten() {
    MemoryStore store = new MemoryStore();
    ArraySpec sharded = ArraySpec.of(FixedType.INT32, 8).chunks(8).zarrFormat(2).codecs(List.of(
        ArraySpec.shardingIndexed(new int[] {4}, List.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little"))))));
    var e = assertThrows(UnsupportedExtensionException.class, () -> Zarr.createArray(store, "a", sharded));
    assertTrue(e.getMessage().contains("sharding_indexed"), e.getMessage());
    assertTrue(store.list("").isEmpty());
  }

  private static void assertRecords(ZarrArray array, List<Integer> a, List<Double> b, BufferAllocator allocator) {
    try (NdVector v = array.read(allocator)) {
      StructVector records = (StructVector) v.vector();
      IntVector as = (IntVector) records.getChild("a");
      Float8Vector bs = (Float8Vector) records.getChild("b");
      for (int i = 0; i < a.size(); i++) {
        assertEquals(a.get(i), as.get(i), "a[" + i + "]");
        assertEquals(b.get(i), bs.get(i), "b[" + i + "]");
      }
    }
  }

  @Test
  void bigEndianStructuredFillValuesAreReadSwappedAndWrittenBack(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    // zarr-python 2's fill (-7, 2.5) of [("a", ">i4"), ("b", ">f8")]: base64 of the big-endian record
    put(store, "s/.zarray", "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": [[\"a\", \">i4\"], [\"b\", \">f8\"]],"
        + " \"compressor\": null, \"fill_value\": \"////+UAEAAAAAAAA\", \"order\": \"C\", \"filters\": null}");
    ZarrArray array = Zarr.openArray(store, "s");
    assertEquals("struct", array.dataType().name());
    assertRecords(array, List.of(-7, -7, -7), List.of(2.5, 2.5, 2.5), allocator);
    assertEquals("{\"a\":-7,\"b\":2.5}", Json.compact(array.metadata().fillValue()));
    array.withAttributes(JsonNodeFactory.instance.objectNode().put("k", 1));
    assertEquals("////+UAEAAAAAAAA", Json.parse(store.get("s/.zarray").orElseThrow(), "z").get("fill_value").asText());
    // as v3 the fill value means the same records
    ZarrArray v3 = ZarrArray.of(store, "s", dev.zarrow.metadata.V2Metadata.asV3(array.metadata()), ZarrOptions.defaults());
    assertRecords(v3, List.of(-7), List.of(2.5), allocator);
  }

  @Test
  void bigEndianSubarrayFieldsAreSwappedElementByElementBothWays(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    // numpy [("m", ">i4", (2,)), ("n", ">f8")], fill ([-7, 9], 2.5) as zarr-python 2 writes it
    String zarray = "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": [[\"m\", \">i4\", [2]], [\"n\", \">f8\"]],"
        + " \"compressor\": null, \"fill_value\": \"////+QAAAAlABAAAAAAAAA==\", \"order\": \"C\", \"filters\": null}";
    put(store, "s/.zarray", zarray);
    byte[] chunk = Vectors.unhex("00000001 00000002 3fe0000000000000 00000003 fffffffc 4020000000000000");
    store.set("s/0", ByteBuffer.wrap(chunk));
    ZarrArray array = Zarr.openArray(store, "s");
    assertEquals("{\"m\":[-7,9],\"n\":2.5}", Json.compact(array.metadata().fillValue()));
    try (NdVector v = array.read(allocator)) {
      StructVector records = (StructVector) v.vector();
      assertEquals("[[1,2], [3,-4], [-7,9]]", java.util.stream.IntStream.range(0, 3)
          .mapToObj(i -> records.getChild("m").getObject(i).toString()).toList().toString());
      assertEquals(8.0, ((Float8Vector) records.getChild("n")).get(1));
      // written back: the same big-endian bytes
      put(store, "t/.zarray", zarray);
      Zarr.openArray(store, "t").write(0, records);
    }
    ByteBuffer written = store.get("t/0").orElseThrow();
    byte[] bytes = new byte[written.remaining()];
    written.duplicate().get(bytes);
    assertEquals(java.util.HexFormat.of().formatHex(chunk), java.util.HexFormat.of().formatHex(bytes));
    // and the .zarray rewritten keeps the dtype and the fill's spelling
    array.withAttributes(JsonNodeFactory.instance.objectNode().put("k", 1));
    var doc = Json.parse(store.get("s/.zarray").orElseThrow(), "z");
    assertEquals(Json.parse(zarray, "z").get("dtype"), doc.get("dtype"));
    assertEquals("////+QAAAAlABAAAAAAAAA==", doc.get("fill_value").asText());
  }

  @Test
  void damagedSubarrayRecordsAreRefusedNamingTheKeyNeverAllocated(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    String fields = "[[\"a\", \"<f8\"], [\"v\", \"<i2\", [2]]]";
    put(store, "s/.zarray", "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": " + fields + ","
        + " \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
    store.set("s/0", ByteBuffer.wrap(new byte[23])); // two records are 24 bytes
    ZarrArray array = Zarr.openArray(store, "s");
    var e = assertThrows(dev.zarrow.error.ZarrException.class, () -> array.read(allocator).close());
    assertTrue(e.getMessage().contains("s/0"), e.getMessage());
    // a fill value of another record size
    put(store, "f/.zarray", "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": " + fields + ","
        + " \"compressor\": null, \"fill_value\": \"AAAAAAAAAAAAAA==\", \"order\": \"C\", \"filters\": null}");
    var fill = assertThrows(MetadataException.class, () -> Zarr.openArray(store, "f"));
    assertTrue(fill.getMessage().contains("f/.zarray") && fill.getMessage().contains("/fill_value")
        && fill.getMessage().contains("base64 of exactly 12 bytes, not 10"), fill.getMessage());
    // a sub-array of 4096 x 4096 doubles (128 MiB a record) is refused at open, before any chunk is sized
    put(store, "h/.zarray", "{\"zarr_format\": 2, \"shape\": [1000], \"chunks\": [1000], \"dtype\": [[\"v\", \"<f8\", [4096, 4096]]],"
        + " \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
    var huge = assertThrows(MetadataException.class, () -> Zarr.openArray(store, "h"));
    assertTrue(huge.getMessage().contains("h/.zarray") && huge.getMessage().contains("/data_type/configuration/fields/0/data_type")
        && huge.getMessage().contains("more than 16777216 bytes"), huge.getMessage());
  }

  @Test
  void aStructuredDtypeOfBothByteOrdersIsRefusedAtOpenNamingIt() {
    MemoryStore store = new MemoryStore();
    put(store, "s/.zarray", "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": [[\"a\", \"<i4\"], [\"b\", \">f8\"]],"
        + " \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
    var e = assertThrows(UnsupportedExtensionException.class, () -> Zarr.openArray(store, "s"));
    assertTrue(e.getMessage().contains("s/.zarray"), e.getMessage());
    assertTrue(e.getMessage().contains("[[\"a\",\"<i4\"],[\"b\",\">f8\"]]"), e.getMessage());
  }

  @Test
  void legacyStructuredWithoutEndianIsLittleEndian(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    put(store, "s/zarr.json", "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [2], \"data_type\": {\"name\":"
        + " \"structured\", \"configuration\": {\"fields\": [[\"a\", \"int32\"], [\"b\", \"float64\"]]}},"
        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}},"
        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": \"AAAAAAAAAAAAAAAA\","
        + " \"codecs\": [{\"name\": \"bytes\"}]}");
    ByteBuffer chunk = ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    chunk.putInt(3).putDouble(0.5).putInt(-4).putDouble(8.0);
    store.set("s/c/0", chunk.flip());
    ZarrArray array = Zarr.openArray(store, "s");
    assertRecords(array, List.of(3, -4), List.of(0.5, 8.0), allocator);
  }

  @Test
  void structArraysAreWrittenAsV2WithTheNumpyFieldList() {
    MemoryStore store = new MemoryStore();
    StructType struct = StructType.of(List.of(new StructType.Member("a", FixedType.INT32), new StructType.Member("b", FixedType.FLOAT64)));
    Zarr.createArray(store, "s", ArraySpec.of(struct, 3).chunks(2).zarrFormat(2));
    var zarray = Json.parse(store.get("s/.zarray").orElseThrow(), "z");
    assertEquals(Json.parse("[[\"a\", \"<i4\"], [\"b\", \"<f8\"]]", "d"), zarray.get("dtype"));
    assertEquals("AAAAAAAAAAAAAAAA", zarray.get("fill_value").asText());
    assertEquals(".", zarray.get("dimension_separator").asText(), "no key encoding given: v2's default, keys 0.0");
  }

  @Test
  void subarrayFieldsMadeThroughTheApiAreWrittenAsNumpyShapedFields() {
    MemoryStore store = new MemoryStore();
    StructType struct = StructType.of(List.of(new StructType.Member("a", FixedType.FLOAT64),
        new StructType.Member("m", SubarrayType.of(FixedType.INT32, 2, 3))));
    Zarr.createArray(store, "s", ArraySpec.of(struct, 3).chunks(2).zarrFormat(2)
        .serializer(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "big"))));
    var zarray = Json.parse(store.get("s/.zarray").orElseThrow(), "z");
    assertEquals(Json.parse("[[\"a\", \">f8\"], [\"m\", \">i4\", [2, 3]]]", "d"), zarray.get("dtype"));
    assertEquals(32, java.util.Base64.getDecoder().decode(zarray.get("fill_value").asText()).length);
    assertThrows(MetadataException.class, () -> SubarrayType.of(FixedType.INT32, 2, 0));
  }
}
