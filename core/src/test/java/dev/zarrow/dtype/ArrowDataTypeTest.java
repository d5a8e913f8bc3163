package dev.zarrow.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.NdVector;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.arrow.ArrowIpcCodec;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The arrow data type: metadata kept as read, refusals, stored and memory fields, fill values. */
@ExtendWith(AllocatorExtension.class)
class ArrowDataTypeTest {

  static ArrowDataType parse(String dataTypeJson) {
    return (ArrowDataType) Registry.defaults().dataType(NamedConfig.parse(Json.parse(dataTypeJson, "t"), "/data_type"));
  }

  static String config(String fieldJson) {
    return "{\"name\": \"arrow\", \"configuration\": {\"version\": \"0.1.0\", \"field\": " + fieldJson + "}}";
  }

  static Field nullable(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.nullable(type), List.of(children));
  }

  static Field required(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.notNullable(type), List.of(children));
  }

  static final ArrowType INT32 = new ArrowType.Int(32, true);

  @Test
  void metadataIsKeptTextForText(BufferAllocator allocator) {
    // Arrow Java's spelling (keys out of canonical order, "Sparse", an explicit null timezone) stays as written.
    String field = "{\"nullable\":true,\"name\":\"u\",\"type\":{\"typeIds\":[3,9],\"mode\":\"Sparse\",\"name\":\"union\"},"
        + "\"children\":[{\"name\":\"t\",\"nullable\":true,\"type\":{\"name\":\"timestamp\",\"unit\":\"SECOND\","
        + "\"timezone\":null},\"children\":[]},{\"name\":\"s\",\"nullable\":false,\"type\":{\"name\":\"utf8\"}}],"
        + "\"metadata\":[{\"value\":\"2\",\"key\":\"b\"},{\"key\":\"a\",\"value\":\"1\"}]}";
    String json = "{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.1.0\",\"field\":" + field + "}}";
    ArrowDataType type = parse(json);
    assertEquals(json, Json.compact(type.toMetadata().toJson()));
    assertEquals(List.of("b", "a"), new ArrayList<>(type.storedField().getMetadata().keySet()));

    MemoryStore store = new MemoryStore();
    String doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4],\"data_type\":" + json
        + ",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
        + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":null,\"codecs\":[{\"name\":\"arrow\"}],"
        + "\"attributes\":{}}";
    store.set("a/zarr.json", ByteBuffer.wrap(doc.getBytes(StandardCharsets.UTF_8)));
    ZarrArray array = Zarr.openArray(store, "a").withAttributes(Json.mapper().createObjectNode().put("k", 1));
    JsonNode written = Json.parse(store.get("a/zarr.json").orElseThrow(), "zarr.json");
    assertEquals(json, Json.compact(written.get("data_type")));
    try (NdVector all = array.read(allocator)) {
      assertEquals(4, all.vector().getValueCount());
    }
  }

  @Test
  void refusals() {
    String int32 = "{\"name\":\"x\",\"nullable\":true,\"type\":{\"name\":\"int\",\"bitWidth\":32,\"isSigned\":true},\"children\":[]}";
    ZarrException e = assertThrows(UnsupportedExtensionException.class,
        () -> parse("{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.2.0\",\"field\":" + int32 + "}}"));
    assertTrue(e.getMessage().contains("0.2.0") && e.getMessage().contains("0.1.0"), e.getMessage());
    assertThrows(MetadataException.class, () -> parse("{\"name\":\"arrow\",\"configuration\":{\"field\":" + int32 + "}}"));
    assertThrows(MetadataException.class, () -> parse("{\"name\":\"arrow\"}"));
    assertThrows(MetadataException.class, () -> parse("{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.1.0\"}}"));
    e = assertThrows(MetadataException.class, () -> parse(
        "{\"name\":\"arrow\",\"configuration\":{\"version\":\"0.1.0\",\"field\":" + int32 + ",\"extra\":1}}"));
    assertTrue(e.getMessage().contains("/data_type/configuration/extra"), e.getMessage());
    e = assertThrows(MetadataException.class, () -> parse(config(
        "{\"name\":\"x\",\"nullable\":true,\"type\":{\"name\":\"int\",\"bitWidth\":31,\"isSigned\":true}}")));
    assertTrue(e.getMessage().startsWith("/data_type/configuration/field/type/bitWidth"), e.getMessage());
    e = assertThrows(UnsupportedExtensionException.class, () -> parse(config(
        "{\"name\":\"x\",\"nullable\":true,\"type\":{\"name\":\"decimal\",\"precision\":5,\"scale\":1,\"bitWidth\":32}}")));
    assertTrue(e.getMessage().contains("decimal32"), e.getMessage());
    e = assertThrows(MetadataException.class, () -> parse(config(
        "{\"name\":\"u\",\"nullable\":true,\"type\":{\"name\":\"union\",\"mode\":\"DENSE\"},\"children\":[" + int32 + "]}")));
    assertTrue(e.getMessage().contains("typeIds"), e.getMessage());
    // One dictionary id for two value types, and a dictionary inside its own values.
    String dictA = "{\"name\":\"a\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"dictionary\":{\"id\":0}}";
    String dictB = "{\"name\":\"b\",\"nullable\":true,\"type\":{\"name\":\"binary\"},\"dictionary\":{\"id\":0}}";
    e = assertThrows(MetadataException.class, () -> parse(config(
        "{\"name\":\"s\",\"nullable\":true,\"type\":{\"name\":\"struct\"},\"children\":[" + dictA + "," + dictB + "]}")));
    assertTrue(e.getMessage().contains("dictionary 0"), e.getMessage());
    e = assertThrows(MetadataException.class, () -> parse(config(
        "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"dictionary\":{\"id\":0},\"children\":[" + dictA + "]}")));
    assertTrue(e.getMessage().contains("inside its own values"), e.getMessage());
    // Shared ids with one value type are fine.
    String dictA2 = dictA.replace("\"a\"", "\"a2\"");
    parse(config("{\"name\":\"s\",\"nullable\":true,\"type\":{\"name\":\"struct\"},\"children\":[" + dictA + "," + dictA2 + "]}"));
  }

  @Test
  void storedMemoryAndIndexedFields() {
    DictionaryEncoding outer = new DictionaryEncoding(1, false, new ArrowType.Int(16, true));
    DictionaryEncoding inner = new DictionaryEncoding(0, true, new ArrowType.Int(8, false));
    Field item = new Field("item", new FieldType(true, ArrowType.Utf8.INSTANCE, inner), List.of());
    Field list = new Field("l", new FieldType(true, ArrowType.List.INSTANCE, outer, Map.of("k", "v")), List.of(item));
    ArrowDataType type = ArrowDataType.of(list);
    assertEquals(list, type.storedField());
    assertTrue(type.hasDictionaries());
    Field memory = type.memoryField();
    assertNull(memory.getDictionary());
    assertNull(memory.getChildren().get(0).getDictionary());
    assertEquals(Map.of("k", "v"), memory.getMetadata());
    assertEquals("renamed", type.field("renamed").getName());
    assertEquals("item", type.field("renamed").getChildren().get(0).getName());
    assertEquals("renamed", type.storedField("renamed").getName());
    assertEquals(outer, type.storedField("renamed").getDictionary());
    Field indexed = Dictionaries.indexedField(list);
    assertEquals(new ArrowType.Int(16, true), indexed.getType());
    assertTrue(indexed.getChildren().isEmpty());
    Map<Long, Field> values = Dictionaries.valueFields(list);
    assertEquals(List.of(1L, 0L), new ArrayList<>(values.keySet()));
    assertEquals(ArrowType.List.INSTANCE, values.get(1L).getType());
    assertEquals(inner, values.get(1L).getChildren().get(0).getDictionary());
    assertEquals(ArrowType.Utf8.INSTANCE, values.get(0L).getType());
    assertEquals(type, ArrowDataType.of(list));
    assertEquals(type.hashCode(), ArrowDataType.of(list).hashCode());
  }

  // ---- fill values ----

  private static ArrowDataType of(Field f) {
    return ArrowDataType.of(f);
  }

  @Test
  void scalarFillValues() {
    record Case(ArrowType type, String json) {}
    List<Case> cases = List.of(
        new Case(new ArrowType.Int(8, false), "255"),
        new Case(new ArrowType.Int(64, true), "-9223372036854775808"),
        new Case(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE), "\"NaN\""),
        new Case(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE), "-0.0"),
        new Case(new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.HALF), "\"Infinity\""),
        new Case(ArrowType.Bool.INSTANCE, "true"),
        new Case(ArrowType.Utf8.INSTANCE, "\"h\u00e9llo\""),
        new Case(ArrowType.LargeUtf8.INSTANCE, "\"\""),
        new Case(ArrowType.Utf8View.INSTANCE, "\"a view value\""),
        new Case(ArrowType.Binary.INSTANCE, "\"AAEC\""),
        new Case(new ArrowType.FixedSizeBinary(3), "\"AAEC\""),
        new Case(new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "UTC"), "1700000000000000"),
        new Case(new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY), "19000"),
        new Case(new ArrowType.Duration(org.apache.arrow.vector.types.TimeUnit.SECOND), "-5"));
    for (Case c : cases) {
      ArrowDataType type = of(nullable("x", c.type));
      JsonNode json = Json.parse(c.json, "fill");
      FillValue fill = type.parseFill(json);
      assertEquals(Json.compact(json), Json.compact(type.fillToJson(fill)), c.type.toString());
    }
    assertThrows(MetadataException.class, () -> of(nullable("x", new ArrowType.Int(8, false))).parseFill(Json.parse("256", "f")));
    assertThrows(MetadataException.class, () -> of(nullable("x", new ArrowType.FixedSizeBinary(2))).parseFill(Json.parse("\"AAEC\"", "f")));
    assertThrows(MetadataException.class, () -> of(nullable("x", ArrowType.Binary.INSTANCE)).parseFill(Json.parse("\"***\"", "f")));
    assertThrows(MetadataException.class, () -> of(nullable("x", ArrowType.Utf8.INSTANCE)).parseFill(Json.parse("3", "f")));
    ZarrException e = assertThrows(MetadataException.class,
        () -> of(nullable("l", ArrowType.List.INSTANCE, nullable("i", INT32))).parseFill(Json.parse("[]", "f")));
    assertTrue(e.getMessage().contains("takes only null"), e.getMessage());
    assertEquals(FillValue.NULL, of(required("x", INT32)).parseFill(NullNode.getInstance()));
  }

  @Test
  void defaultFills() {
    assertEquals(FillValue.NULL, of(nullable("x", INT32)).defaultFill());
    assertEquals(FillValue.of(new byte[4]), of(required("x", INT32)).defaultFill());
    assertEquals(FillValue.of(new byte[0]), of(required("x", ArrowType.Utf8.INSTANCE)).defaultFill());
    assertEquals(FillValue.NULL, of(required("s", ArrowType.Struct.INSTANCE, required("a", INT32))).defaultFill());
  }

  @Test
  void blankFillIsNullWhereNullableElseZero(BufferAllocator allocator) {
    Field struct = required("s", ArrowType.Struct.INSTANCE, required("a", INT32), nullable("b", ArrowType.Utf8.INSTANCE),
        required("l", ArrowType.List.INSTANCE, nullable("i", INT32)));
    ArrowDataType type = of(struct);
    try (FieldVector blank = type.filled(allocator, 3, FillValue.NULL)) {
      StructVector s = (StructVector) blank;
      assertEquals(3, s.getValueCount());
      for (int i = 0; i < 3; i++) {
        assertFalse(s.isNull(i));
        assertEquals(0, ((IntVector) s.getChild("a")).get(i));
        assertTrue(s.getChild("b").isNull(i));
        assertEquals(List.of(), s.getChild("l").getObject(i));
      }
      assertTrue(type.isAllFill(blank, FillValue.NULL));
      ((IntVector) s.getChild("a")).set(1, 5);
      assertFalse(type.isAllFill(blank, FillValue.NULL));
    }
    Field union = nullable("u", new ArrowType.Union(UnionMode.Sparse, new int[] {4, 9}),
        nullable("a", INT32), nullable("b", ArrowType.Utf8.INSTANCE));
    try (FieldVector blank = of(union).filled(allocator, 2, FillValue.NULL)) {
      assertNull(blank.getObject(0));
      assertEquals(4, ((UnionVector) blank).getTypeBuffer().getByte(1));
      assertTrue(of(union).isAllFill(blank, FillValue.NULL));
    }
  }

  @Test
  void scalarFillVectors(BufferAllocator allocator) {
    ArrowDataType ints = of(nullable("x", INT32));
    FillValue seven = ints.parseFill(Json.parse("7", "f"));
    try (FieldVector v = ints.filled(allocator, 4, seven)) {
      for (int i = 0; i < 4; i++) {
        assertEquals(7, ((IntVector) v).get(i));
      }
      assertTrue(ints.isAllFill(v, seven));
      assertFalse(ints.isAllFill(v, FillValue.NULL));
      ((IntVector) v).setNull(2);
      assertFalse(ints.isAllFill(v, seven));
    }
    ArrowDataType strings = of(nullable("x", ArrowType.Utf8.INSTANCE));
    FillValue ab = strings.parseFill(Json.parse("\"ab\"", "f"));
    try (FieldVector v = strings.filled(allocator, 3, ab)) {
      assertEquals("ab", v.getObject(2).toString());
      assertTrue(strings.isAllFill(v, ab));
      ((VarCharVector) v).setSafe(1, "ac".getBytes(StandardCharsets.UTF_8));
      assertFalse(strings.isAllFill(v, ab));
    }
    for (String spelled : List.of("true", "false")) {
      ArrowDataType bools = of(required("b", ArrowType.Bool.INSTANCE));
      FillValue fill = bools.parseFill(Json.parse(spelled, "f"));
      try (FieldVector v = bools.filled(allocator, 9, fill)) {
        assertEquals(Boolean.valueOf(spelled), v.getObject(8));
        assertTrue(bools.isAllFill(v, fill));
      }
    }
    ArrowDataType views = of(nullable("v", ArrowType.Utf8View.INSTANCE));
    FillValue longer = views.parseFill(Json.parse("\"more than twelve bytes\"", "f"));
    try (FieldVector v = views.filled(allocator, 3, longer)) {
      assertEquals("more than twelve bytes", v.getObject(1).toString());
      assertTrue(views.isAllFill(v, longer));
    }
  }

  /** Every fixture field: blank vectors are all fill, survive the codec, and fixture data is not fill. */
  @Test
  void blankVectorsOfEveryFixtureType(BufferAllocator allocator) throws Exception {
    for (Path file : ArrowJsonFiles.fixtureFiles()) {
      for (JsonNode fieldJson : ArrowJsonFiles.read(file).get("schema").get("fields")) {
        ArrowDataType type = of(FieldJson.parse(fieldJson));
        ChunkSpec spec = new ChunkSpec(new int[] {5}, type, FillValue.NULL);
        try (FieldVector blank = type.filled(allocator, 5, FillValue.NULL)) {
          String what = file.getFileName() + ":" + fieldJson.get("name");
          assertTrue(type.isAllFill(blank, FillValue.NULL), what);
          try (FieldVector back = ArrowIpcCodec.arrow().decode(ArrowIpcCodec.arrow().encode(blank, spec, allocator), spec, allocator)) {
            assertTrue(VectorEqualsVisitor.vectorEquals(blank, back, (a, b) -> true), what);
            assertTrue(type.isAllFill(back, FillValue.NULL), what);
          }
        }
      }
    }
  }

  @Test
  void missingChunksReadAsFillAndFillChunksAreNotStored(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ArrowDataType type = of(nullable("s", ArrowType.Utf8.INSTANCE));
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(type, 6).chunks(2).codecs(List.of(NamedConfig.of("arrow", null))));
    try (VarCharVector v = new VarCharVector("s", allocator)) {
      v.allocateNew();
      v.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
      v.setNull(1);
      v.setValueCount(2);
      array.write(2, v);
      v.setNull(0);
      array.write(4, v); // all null: the fill, so no chunk
    }
    assertTrue(store.get("a/c/1").isPresent());
    assertFalse(store.get("a/c/2").isPresent());
    assertFalse(store.get("a/c/0").isPresent());
    try (NdVector all = array.read(allocator)) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        values.add(all.vector().isNull(i) ? null : all.vector().getObject(i).toString());
      }
      assertEquals(java.util.Arrays.asList(null, null, "x", null, null, null), values);
    }
    ArrowDataType ints = of(required("i", INT32));
    ZarrArray filled = Zarr.createArray(store, "b",
        ArraySpec.of(ints, 3).chunks(2).fillValue(Json.parse("-1", "f")).codecs(List.of(NamedConfig.of("arrow", null))));
    try (NdVector all = filled.read(new Box(new long[] {1}, new long[] {2}), allocator)) {
      assertEquals(-1, ((IntVector) all.vector()).get(0));
      assertEquals(-1, ((IntVector) all.vector()).get(1));
    }
  }

  // ---- the data type contract, for fields of every kind of scalar fill ----

  @Nested
  class NullableInt32Contract extends DataTypeContract {
    @Override protected DataType type() { return of(nullable("x", INT32)); }
    @Override protected List<String> canonicalFills() { return List.of("null", "0", "-7", "2147483647"); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("1.0", "1"); }
    @Override protected List<String> badFills() { return List.of("\"7\"", "1.5", "2147483648", "[1]", "true"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("-2", "feffffff"); }
  }

  @Nested
  class RequiredFloat64Contract extends DataTypeContract {
    @Override protected DataType type() {
      return of(required("f", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)));
    }
    @Override protected List<String> canonicalFills() { return List.of("0.0", "-0.0", "\"NaN\"", "1.5"); }
    @Override protected List<String> badFills() { return List.of("\"x\"", "[]", "{}"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("1.5", "000000000000f83f"); }
  }

  @Nested
  class NullableUtf8Contract extends DataTypeContract {
    @Override protected DataType type() { return of(nullable("s", ArrowType.Utf8.INSTANCE)); }
    @Override protected List<String> canonicalFills() { return List.of("null", "\"\"", "\"h\u00e9llo\""); }
    @Override protected List<String> badFills() { return List.of("3", "[1]", "true", "{}"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"ab\"", "6162"); }
  }

  @Nested
  class RequiredBinaryContract extends DataTypeContract {
    @Override protected DataType type() { return of(required("b", ArrowType.Binary.INSTANCE)); }
    @Override protected List<String> canonicalFills() { return List.of("\"\"", "\"AAEC\""); }
    @Override protected List<String> badFills() { return List.of("\"***\"", "3", "[0]"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"AAEC\"", "000102"); }
  }

  @Nested
  class NullableBoolContract extends DataTypeContract {
    @Override protected DataType type() { return of(nullable("b", ArrowType.Bool.INSTANCE)); }
    @Override protected List<String> canonicalFills() { return List.of("null", "true", "false"); }
    @Override protected List<String> badFills() { return List.of("0", "\"true\"", "[]"); }
  }

  @Nested
  class DictionaryEncodedUtf8Contract extends DataTypeContract {
    @Override protected DataType type() {
      return of(new Field("d", new FieldType(true, ArrowType.Utf8.INSTANCE,
          new DictionaryEncoding(0, false, new ArrowType.Int(16, true))), null));
    }
    @Override protected List<String> canonicalFills() { return List.of("null", "\"zero\""); }
    @Override protected List<String> badFills() { return List.of("0", "[]"); }
  }
}
