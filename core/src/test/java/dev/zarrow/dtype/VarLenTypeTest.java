package dev.zarrow.dtype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.error.CodecException;
import dev.zarrow.testing.Vectors;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class VarLenTypeTest {

  private static DataType named(String json) {
    return Registry.defaults().dataType(NamedConfig.parse(Json.parse(json, "test"), "/data_type"));
  }

  @Test
  void namesAliasesAndBothForms() {
    assertSame(VarLenType.STRING, named("\"string\""));
    assertSame(VarLenType.STRING, named("{\"name\": \"string\"}"));
    assertSame(VarLenType.STRING, named("{\"name\": \"string\", \"configuration\": {}}"));
    assertSame(VarLenType.BYTES, named("\"bytes\""));
    assertSame(VarLenType.BYTES, named("\"binary\""));
    assertSame(VarLenType.BYTES, named("{\"name\": \"variable_length_bytes\"}"));
    assertSame(VarLenType.LARGE_STRING, named("\"large_string\""));
    assertSame(VarLenType.LARGE_BINARY, named("{\"name\": \"large_binary\"}"));
    assertEquals("bytes", named("\"binary\"").toMetadata().toJson().textValue());
    assertThrows(MetadataException.class, () -> named("{\"name\": \"string\", \"configuration\": {\"x\": 1}}"));
  }

  @Test
  void arrowForms(BufferAllocator allocator) {
    assertEquals(ArrowType.Utf8.INSTANCE, VarLenType.STRING.field("x").getType());
    assertFalse(VarLenType.STRING.field("x").isNullable());
    try (FieldVector s = Vectors.varLen(VarLenType.STRING, allocator, "a");
        FieldVector b = Vectors.varLen(VarLenType.BYTES, allocator, new byte[] {1});
        FieldVector ls = Vectors.varLen(VarLenType.LARGE_STRING, allocator, "a");
        FieldVector lb = Vectors.varLen(VarLenType.LARGE_BINARY, allocator, new byte[] {1})) {
      assertTrue(s instanceof VarCharVector);
      assertTrue(b instanceof VarBinaryVector);
      assertTrue(ls instanceof LargeVarCharVector);
      assertTrue(lb instanceof LargeVarBinaryVector);
    }
  }

  @Test
  void defaultSerializers() {
    assertEquals("vlen-utf8", VarLenType.STRING.defaultSerializer().orElseThrow().name());
    assertEquals("vlen-bytes", VarLenType.BYTES.defaultSerializer().orElseThrow().name());
    assertTrue(VarLenType.LARGE_STRING.defaultSerializer().isEmpty());
    assertTrue(VarLenType.LARGE_BINARY.defaultSerializer().isEmpty());
    for (VarLenType t : VarLenType.ALL) {
      assertTrue(t.implicitSerializer().isPresent(), t.name());
    }
  }

  private static JsonNode json(String text) {
    return Json.parse(text, "test");
  }

  @Test
  void stringFillValues() {
    FillValue fill = VarLenType.STRING.parseFill(json("\"n/a ✓\""));
    assertArrayEquals("n/a ✓".getBytes(StandardCharsets.UTF_8), fill.bytes());
    assertEquals("n/a ✓", VarLenType.STRING.fillToJson(fill).textValue());
    assertEquals("", VarLenType.STRING.fillToJson(VarLenType.STRING.defaultFill()).textValue());
    assertThrows(MetadataException.class, () -> VarLenType.STRING.parseFill(json("0")));
    assertThrows(MetadataException.class, () -> VarLenType.STRING.parseFill(json("null")));
    assertThrows(MetadataException.class, () -> VarLenType.STRING.parseFill(json("\"\\ud800\"")));
  }

  @Test
  void bytesFillValues() {
    FillValue fromBase64 = VarLenType.BYTES.parseFill(json("\"AAH/\""));
    assertArrayEquals(new byte[] {0, 1, (byte) 0xff}, fromBase64.bytes());
    assertEquals(fromBase64, VarLenType.BYTES.parseFill(json("[0, 1, 255]")));
    assertEquals("AAH/", VarLenType.BYTES.fillToJson(fromBase64).textValue());
    assertEquals("", VarLenType.LARGE_BINARY.fillToJson(VarLenType.LARGE_BINARY.defaultFill()).textValue());
    assertThrows(MetadataException.class, () -> VarLenType.BYTES.parseFill(json("\"not base64!\"")));
    assertThrows(MetadataException.class, () -> VarLenType.BYTES.parseFill(json("[256]")));
    assertThrows(MetadataException.class, () -> VarLenType.BYTES.parseFill(json("3")));
  }

  @Test
  void filledAndIsAllFill(BufferAllocator allocator) {
    for (VarLenType t : VarLenType.ALL) {
      FillValue abc = FillValue.of("abc".getBytes(StandardCharsets.UTF_8));
      try (FieldVector v = t.filled(allocator, 1000, abc)) {
        assertEquals(1000, v.getValueCount());
        assertEquals(0, v.getNullCount());
        assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), Vectors.byteArrays(v)[999]);
        assertTrue(t.isAllFill(v, abc));
        assertFalse(t.isAllFill(v, t.defaultFill()));
        assertFalse(t.isAllFill(v, FillValue.of("abd".getBytes(StandardCharsets.UTF_8))));
      }
      try (FieldVector v = t.filled(allocator, 7, t.defaultFill())) {
        assertTrue(t.isAllFill(v, t.defaultFill()));
      }
      // Same total length, different split: not all fill.
      try (FieldVector v = Vectors.varLen(t, allocator, "ab".getBytes(), "cabc".getBytes(), "abc".getBytes())) {
        assertFalse(t.isAllFill(v, abc));
      }
      try (FieldVector v = Vectors.varLen(t, allocator, "abc".getBytes(), "abc".getBytes(), "abd".getBytes())) {
        assertFalse(t.isAllFill(v, abc));
      }
    }
  }

  @Test
  void refusesNullsWithAdviceAndHugeStringChunks(BufferAllocator allocator) {
    try (VarCharVector v = new VarCharVector("x", allocator)) {
      v.allocateNew();
      v.setSafe(0, "a".getBytes());
      v.setNull(1);
      v.setValueCount(2);
      ChunkSpec spec = new ChunkSpec(new int[] {2}, VarLenType.STRING, VarLenType.STRING.defaultFill());
      CodecPipeline pipeline = CodecPipeline.of(List.of(), spec, Registry.defaults().context(CodecOptions.DEFAULT));
      // Nulls in a string chunk are the caller's mistake, not bad data.
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pipeline.encode(v));
      assertTrue(e.getMessage().contains("arrow data type"), e.getMessage());
      assertFalse(VarLenType.STRING.isAllFill(v, VarLenType.STRING.defaultFill()));
    }
    // 2^20 elements of 4 KiB: 4 GiB of data is refused before anything is allocated.
    CodecException e = assertThrows(CodecException.class,
        () -> VarLenType.STRING.filled(allocator, 1 << 20, FillValue.of(new byte[4096])));
    assertTrue(e.getMessage().contains("large_string"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> VarLenType.STRING.fillToJson(FillValue.NULL));
  }

  /** The text types' fill values: JSON strings of Unicode characters. */
  abstract static class TextContract extends DataTypeContract {
    @Override protected List<String> canonicalFills() { return List.of("\"\"", "\"abc\"", "\"h\u00e9llo \ud83d\ude00\""); }
    @Override protected List<String> badFills() { return List.of("0", "null", "[1]", "true", "\"\\ud800\""); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"abc\"", "616263", "\"\u00e9\"", "c3a9"); }
  }

  /** The binary types' fill values: base64 text, also read as arrays of integers 0..255. */
  abstract static class BinaryContract extends DataTypeContract {
    @Override protected List<String> canonicalFills() { return List.of("\"\"", "\"AAEC\"", "\"/w==\""); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("[0, 1, 2]", "\"AAEC\"", "[]", "\"\"", "[255]", "\"/w==\""); }
    @Override protected List<String> badFills() { return List.of("\"not base64!\"", "[256]", "[-1]", "[1.5]", "3", "null", "{}"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("\"AAEC\"", "000102", "[255]", "ff"); }
  }

  @Nested
  class StringContract extends TextContract {
    @Override protected DataType type() { return VarLenType.STRING; }
  }

  @Nested
  class LargeStringContract extends TextContract {
    @Override protected DataType type() { return VarLenType.LARGE_STRING; }
  }

  @Nested
  class BytesContract extends BinaryContract {
    @Override protected DataType type() { return VarLenType.BYTES; }
  }

  @Nested
  class LargeBinaryContract extends BinaryContract {
    @Override protected DataType type() { return VarLenType.LARGE_BINARY; }
  }
}
