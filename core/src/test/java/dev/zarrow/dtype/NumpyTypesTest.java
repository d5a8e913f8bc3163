package dev.zarrow.dtype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class NumpyTypesTest {

  static DataType type(String json) {
    return Registry.defaults().dataType(NamedConfig.parse(Json.parse(json, "t"), "/data_type"));
  }

  static final String DATETIME_NS = "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}";
  static final String TIMEDELTA_10S = "{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":10}}";
  static final String DATETIME_D = "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"D\",\"scale_factor\":1}}";
  static final String UTF32_3 = "{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}";
  static final String S4 = "{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":4}}";
  static final String V3 = "{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":3}}";
  static final String STRUCT = "{\"name\":\"struct\",\"configuration\":{\"fields\":["
      + "{\"name\":\"id\",\"data_type\":\"int32\"},{\"name\":\"flag\",\"data_type\":\"uint8\"},"
      + "{\"name\":\"t\",\"data_type\":" + DATETIME_NS + "},{\"name\":\"s\",\"data_type\":" + UTF32_3 + "}]}}";

  static String subarray(String element, String shape) {
    return "{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":" + element + ",\"shape\":" + shape + "}}";
  }

  /** numpy's [("a", "<f8"), ("v", "<i2", (2,)), ("m", "<i4", (2, 3)), ("p", [("x", "<f4"), ("y", "|u1")], (2,))]. */
  static final String POINT = "{\"name\":\"struct\",\"configuration\":{\"fields\":["
      + "{\"name\":\"x\",\"data_type\":\"float32\"},{\"name\":\"y\",\"data_type\":\"uint8\"}]}}";
  static final String SUBARRAYS = "{\"name\":\"struct\",\"configuration\":{\"fields\":["
      + "{\"name\":\"a\",\"data_type\":\"float64\"},{\"name\":\"v\",\"data_type\":" + subarray("\"int16\"", "[2]") + "},"
      + "{\"name\":\"m\",\"data_type\":" + subarray("\"int32\"", "[2,3]") + "},"
      + "{\"name\":\"p\",\"data_type\":" + subarray(POINT, "[2]") + "}]}}";

  private static final List<String> NOT_TIME = List.of("null", "1.5", "1e3", "\"nat\"", "\"1\"", "[1]", "{}", "true", "9223372036854775808");

  @Nested
  class DateTimeNs extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(DATETIME_NS); }
    @Override protected List<String> canonicalFills() { return List.of("\"NaT\"", "0", "-1", "9223372036854775807", "1700000000000000000"); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("-9223372036854775808", "\"NaT\""); }
    @Override protected List<String> badFills() { return NOT_TIME; }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"NaT\"", "0000000000000080", "1", "0100000000000000"); }
  }

  @Nested
  class TimeDelta10s extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(TIMEDELTA_10S); }
    @Override protected List<String> canonicalFills() { return List.of("\"NaT\"", "-5", "7"); }
    @Override protected List<String> badFills() { return NOT_TIME; }
  }

  @Nested
  class DateTimeDays extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(DATETIME_D); }
    @Override protected List<String> canonicalFills() { return List.of("\"NaT\"", "19000"); }
    @Override protected List<String> badFills() { return NOT_TIME; }
  }

  @Nested
  class Utf32 extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(UTF32_3); }
    @Override protected List<String> canonicalFills() { return List.of("\"\"", "\"abc\"", "\"é😀\"", "\"a\\u0000b\""); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("\"a\\u0000\"", "\"a\""); }
    @Override protected List<String> badFills() { return List.of("null", "1", "[]", "\"abcd\"", "\"😀😀😀😀\""); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"Hi\"", "480000006900000000000000", "\"😀\"", "00f60100" + "0".repeat(16)); }
  }

  @Nested
  class NullTerminatedBytes extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(S4); }
    @Override protected List<String> canonicalFills() { return List.of("\"\"", "\"AQID\"", "\"/////w==\""); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("\"AQIDAA==\"", "\"AQID\""); }
    @Override protected List<String> badFills() { return List.of("null", "0", "[1,2]", "\"AQIDBAU=\"", "\"!!\""); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"AQ==\"", "01000000"); }
  }

  @Nested
  class RawBytes extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(V3); }
    @Override protected List<String> canonicalFills() { return List.of("\"AAAA\"", "\"AQID\"", "\"AQIA\""); }
    @Override protected List<String> badFills() { return List.of("null", "0", "\"AQ==\"", "\"AQIDBA==\"", "\"!!\""); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"AQIA\"", "010200"); }
  }

  @Nested
  class Struct extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(STRUCT); }
    @Override protected List<String> canonicalFills() {
      return List.of("{\"id\":0,\"flag\":0,\"t\":\"NaT\",\"s\":\"\"}", "{\"id\":-1,\"flag\":255,\"t\":5,\"s\":\"ab\"}");
    }
    @Override protected Map<String, String> equivalentFills() {
      // the legacy spelling: base64 of the packed little-endian bytes (4 + 1 + 8 + 12 = 25)
      return Map.of("\"AQAAAAIDAAAAAAAAAGEAAAAAAAAAAAAAAA==\"", "{\"id\":1,\"flag\":2,\"t\":3,\"s\":\"a\"}");
    }
    @Override protected List<String> badFills() {
      return List.of("null", "0", "{}", "{\"id\":0,\"flag\":0,\"t\":0}", "{\"id\":0,\"flag\":0,\"t\":0,\"s\":\"\",\"x\":1}",
          "{\"id\":0,\"flag\":256,\"t\":0,\"s\":\"\"}", "\"AAAA\"");
    }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("{\"id\":1,\"flag\":2,\"t\":3,\"s\":\"a\"}", "01000000" + "02" + "0300000000000000" + "61000000" + "0".repeat(16));
    }
  }

  @Nested
  class StructWithSubarrays extends DataTypeContract {
    @Override protected DataType type() { return NumpyTypesTest.type(SUBARRAYS); }
    @Override protected List<String> canonicalFills() {
      return List.of("{\"a\":0.0,\"v\":[0,0],\"m\":[[0,0,0],[0,0,0]],\"p\":[{\"x\":0.0,\"y\":0},{\"x\":0.0,\"y\":0}]}",
          "{\"a\":1.5,\"v\":[1,-2],\"m\":[[1,2,3],[4,5,6]],\"p\":[{\"x\":1.0,\"y\":2},{\"x\":3.0,\"y\":255}]}");
    }
    @Override protected List<String> badFills() {
      String p = ",\"p\":[{\"x\":0,\"y\":0},{\"x\":0,\"y\":0}]}";
      return List.of("null", "0", "{\"a\":0,\"v\":0,\"m\":[[0,0,0],[0,0,0]]" + p, "{\"a\":0,\"v\":[0],\"m\":[[0,0,0],[0,0,0]]" + p,
          "{\"a\":0,\"v\":[0,0],\"m\":[0,0,0,0,0,0]" + p, "{\"a\":0,\"v\":[0,0],\"m\":[[0,0,0],[0,0]]" + p,
          "{\"a\":0,\"v\":[0,70000],\"m\":[[0,0,0],[0,0,0]]" + p);
    }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("{\"a\":1.5,\"v\":[1,-2],\"m\":[[1,2,3],[4,5,6]],\"p\":[{\"x\":1.0,\"y\":2},{\"x\":3.0,\"y\":255}]}",
          "000000000000f83f" + "0100feff" + "010000000200000003000000040000000500000006000000" + "0000803f02" + "00004040ff");
    }
  }

  @Test
  void subarrayFieldsAreNestedFixedSizeListsOfTheirElements(BufferAllocator allocator) {
    StructType t = (StructType) type(SUBARRAYS);
    assertEquals(8 + 4 + 24 + 10, t.byteWidth());
    assertArrayEquals(new int[] {8, 2, 2, 4, 4, 4, 4, 4, 4, 4, 1, 4, 1}, t.swapUnits());
    var m = t.field("r").getChildren().get(2);
    assertEquals(new ArrowType.FixedSizeList(2), m.getType());
    assertEquals(new ArrowType.FixedSizeList(3), m.getChildren().get(0).getType());
    assertEquals(new ArrowType.Int(32, true), m.getChildren().get(0).getChildren().get(0).getType());
    assertEquals(ArrowType.Struct.INSTANCE, t.field("r").getChildren().get(3).getChildren().get(0).getType());
    byte[] bytes = Vectors.unhex("000000000000f83f 0100feff 010000000200000003000000 040000000500000006000000 0000803f02 0000404007"
        + "000000000000f0bf 0700f9ff ffffffff0000000000000000 000000000000000009000000 000080bf00 0000000001");
    try (FieldVector v = Vectors.fromBytes(t, bytes, allocator)) {
      StructVector s = (StructVector) v;
      assertEquals(2, s.getValueCount());
      assertEquals("[1,-2]", s.getChild("v").getObject(0).toString());
      assertEquals("[[-1,0,0],[0,0,9]]", s.getChild("m").getObject(1).toString());
      assertEquals("[{\"x\":1.0,\"y\":2},{\"x\":3.0,\"y\":7}]", s.getChild("p").getObject(0).toString());
      assertArrayEquals(bytes, Vectors.bytes(t, v));
    }
  }

  @Test
  void badSubarraysNameTheKeyAndTheReason() {
    Map<String, String> cases = Map.ofEntries(
        Map.entry(subarray("\"int16\"", "[]"), "/fields/0/data_type/configuration/shape: a sub-array needs at least one dimension"),
        Map.entry(subarray("\"int16\"", "[2,0]"), "/fields/0/data_type/configuration/shape/1: an extent must be in [1, 16777216], got 0"),
        Map.entry(subarray("\"int16\"", "[-3]"), "/fields/0/data_type/configuration/shape/0: an extent must be in"),
        Map.entry(subarray("\"float64\"", "[2147483647,2147483647]"), "/fields/0/data_type/configuration/shape/0: an extent must be in"),
        Map.entry(subarray("\"float64\"", "[4096,4096]"), "/fields/0/data_type/configuration/shape: a sub-array of [4096, 4096] float64"),
        Map.entry(subarray("\"int16\"", "2"), "/fields/0/data_type/configuration/shape: a sub-array needs a list of extents"),
        Map.entry(subarray("\"int16\"", "[1.5]"), "/fields/0/data_type/configuration/shape/0: an extent must be an integer"),
        Map.entry(subarray("\"string\"", "[2]"), "/fields/0/data_type/configuration/data_type: a struct field or sub-array element needs a fixed-size"),
        Map.entry(subarray(subarray("\"int8\"", "[2]"), "[2]"), "/fields/0/data_type/configuration/data_type: a sub-array of sub-arrays"),
        Map.entry("{\"name\":\"zarrow.subarray\",\"configuration\":{\"data_type\":\"int8\",\"shape\":[2],\"order\":\"F\"}}",
            "/fields/0/data_type/configuration/order: unknown option"),
        Map.entry("{\"name\":\"zarrow.subarray\",\"configuration\":{\"shape\":[2]}}", "/fields/0/data_type/configuration/data_type: missing"));
    cases.forEach((field, message) -> {
      String json = "{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"a\",\"data_type\":" + field + "}]}}";
      var e = assertThrows(MetadataException.class, () -> type(json), json);
      assertTrue(e.getMessage().contains(message), json + ": " + e.getMessage());
    });
  }

  @Test
  void timeTypesMapToTimestampDurationOrInt64WithTheirMetadata() {
    assertEquals(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null), type(DATETIME_NS).field("t").getType());
    assertTrue(type(DATETIME_NS).field("t").isNullable());
    assertEquals(new ArrowType.Duration(TimeUnit.MICROSECOND),
        type("{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"μs\",\"scale_factor\":1}}").field("t").getType());
    var days = type(DATETIME_D).field("t");
    assertEquals(new ArrowType.Int(64, true), days.getType());
    assertEquals(DATETIME_D, days.getMetadata().get(NumpyTimeType.METADATA_KEY));
    var tenSeconds = type(TIMEDELTA_10S).field("t");
    assertEquals(new ArrowType.Int(64, true), tenSeconds.getType());
    assertEquals(TIMEDELTA_10S, tenSeconds.getMetadata().get(NumpyTimeType.METADATA_KEY));
  }

  @Test
  void natIsNullBothWays(BufferAllocator allocator) {
    FixedWidthType t = (FixedWidthType) type(DATETIME_NS);
    byte[] bytes = Vectors.unhex("0100000000000000 0000000000000080 ffffffffffffffff");
    try (FieldVector v = Vectors.fromBytes(t, bytes, allocator)) {
      TimeStampNanoVector ts = (TimeStampNanoVector) v;
      assertEquals(1, ts.get(0));
      assertTrue(ts.isNull(1));
      assertEquals(-1, ts.get(2));
      assertArrayEquals(bytes, Vectors.bytes(t, v));
    }
    try (FieldVector v = Vectors.fromBytes(t, Vectors.unhex("0100000000000000"), allocator)) {
      assertEquals(0, v.getNullCount());
    }
  }

  @Test
  void utf32DecodesStripsPaddingAndRefusesBadCodePoints(BufferAllocator allocator) {
    FixedWidthType t = (FixedWidthType) type(UTF32_3);
    byte[] bytes = Vectors.unhex("48000000 69000000 00000000" + "00f60100 00000000 41000000" + "00000000 00000000 00000000");
    try (FieldVector v = Vectors.fromBytes(t, bytes, allocator)) {
      assertArrayEquals(new String[] {"Hi", "😀\u0000A", ""}, Vectors.strings(v));
      assertArrayEquals(bytes, Vectors.bytes(t, v));
    }
    for (String bad : List.of("00d80000", "00001100", "ffffffff")) {
      var e = assertThrows(CorruptChunkException.class,
          () -> Vectors.fromBytes(t, Vectors.unhex("41000000 00000000 00000000" + "41000000" + bad + "00000000"), allocator).close());
      assertTrue(e.getMessage().contains("element 1"), e.getMessage());
    }
  }

  @Test
  void utf32RefusesStringsLongerThanTheWidth(BufferAllocator allocator) {
    FixedWidthType t = (FixedWidthType) type(UTF32_3);
    try (VarCharVector v = Vectors.utf8(allocator, "x", "abc", "😀😀😀", "abcd")) {
      var e = assertThrows(IllegalArgumentException.class, () -> t.toBytes(v));
      assertTrue(e.getMessage().contains("element 2") && e.getMessage().contains("3 code points"), e.getMessage());
    }
  }

  @Test
  void structIsPackedWithoutPadding(BufferAllocator allocator) {
    StructType t = (StructType) type(STRUCT);
    assertEquals(25, t.byteWidth());
    assertArrayEquals(new int[] {4, 1, 8, 4, 4, 4}, t.swapUnits());
    byte[] bytes = Vectors.unhex("01000000 02 0000000000000080 61000000 62000000 00000000"
        + "ffffffff ff 0500000000000000 00000000 00000000 00000000");
    try (FieldVector v = Vectors.fromBytes(t, bytes, allocator)) {
      StructVector s = (StructVector) v;
      assertEquals(2, s.getValueCount());
      assertEquals(0, s.getNullCount());
      assertEquals(1, s.getChild("id").getObject(0));
      assertEquals(-1, s.getChild("id").getObject(1));
      assertEquals((byte) 2, ((Number) s.getChild("flag").getObject(0)).byteValue());
      assertTrue(s.getChild("t").isNull(0));
      assertEquals("ab", s.getChild("s").getObject(0).toString());
      assertEquals("", s.getChild("s").getObject(1).toString());
      assertArrayEquals(bytes, Vectors.bytes(t, v));
    }
  }

  @Test
  void legacyStructuredIsReadAndWrittenAsStruct() {
    DataType legacy = type("{\"name\":\"structured\",\"configuration\":{\"fields\":[[\"x\",\"float32\"],[\"y\",\"int16\"]]}}");
    DataType modern = type("{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"x\",\"data_type\":\"float32\"},"
        + "{\"name\":\"y\",\"data_type\":{\"name\":\"int16\"}}]}}");
    assertEquals(modern, legacy);
    assertEquals("struct", legacy.toMetadata().name());
    assertEquals(6, legacy.byteWidth());
  }

  @Test
  void badMetadataNamesTheKey() {
    Map<String, String> cases = Map.ofEntries(
        Map.entry("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"parsec\",\"scale_factor\":1}}", "/unit"),
        Map.entry("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":0}}", "/scale_factor"),
        Map.entry("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"s\"}}", "/scale_factor"),
        Map.entry("{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":1,\"x\":1}}", "/x"),
        Map.entry("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":6}}", "/length_bytes"),
        Map.entry("{\"name\":\"fixed_length_utf32\",\"configuration\":{}}", "/length_bytes"),
        Map.entry("{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":0}}", "/length_bytes"),
        Map.entry("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":\"3\"}}", "/length_bytes"),
        Map.entry("{\"name\":\"struct\",\"configuration\":{\"fields\":[]}}", "/fields"),
        Map.entry("{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"a\",\"data_type\":\"string\"}]}}", "/fields/0/data_type"),
        Map.entry("{\"name\":\"struct\",\"configuration\":{\"fields\":[[\"a\",\"int8\"],[\"a\",\"int8\"]]}}", "/fields/1/name"),
        Map.entry("{\"name\":\"struct\",\"configuration\":{\"fields\":[[\"a\"]]}}", "/fields/0"),
        Map.entry("{\"name\":\"struct\"}", "/fields"));
    cases.forEach((json, pointer) -> {
      var e = assertThrows(MetadataException.class, () -> type(json), json);
      assertTrue(e.getMessage().contains(pointer), json + ": " + e.getMessage());
    });
  }

  @Test
  void bytesTypesShareTheStoredBytes(BufferAllocator allocator) {
    FixedWidthType s4 = (FixedWidthType) type(S4);
    assertTrue(s4.bytesAreArrowData());
    assertFalse(((FixedWidthType) type(UTF32_3)).bytesAreArrowData());
    assertEquals(new ArrowType.FixedSizeBinary(4), s4.field("b").getType());
    try (FieldVector v = Vectors.fromBytes(s4, Vectors.unhex("61620000 ffffffff"), allocator)) {
      assertArrayEquals(Vectors.unhex("61620000"), (byte[]) v.getObject(0));
    }
  }
}
