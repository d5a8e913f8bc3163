package dev.zarrow.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.spi.Registry;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.AllocatorExtension;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class FixedTypeTest {
  private static final List<String> NOT_NUMBERS = List.of("null", "\"1\"", "[1]", "{}", "true");

  private static List<String> plus(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  @Nested
  class Bool extends DataTypeContract {
    @Override protected DataType type() { return FixedType.BOOL; }
    @Override protected List<String> canonicalFills() { return List.of("true", "false"); }
    @Override protected List<String> badFills() { return List.of("0", "1", "\"true\"", "null", "[]"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("true", "01", "false", "00"); }
  }

  @Nested
  class Int8 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.INT8; }
    @Override protected List<String> canonicalFills() { return List.of("0", "-128", "127"); }
    @Override protected Map<String, String> equivalentFills() { return Map.of("1.0", "1", "-2e1", "-20", "-0.0", "0"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("128", "-129", "1.5", "\"NaN\"", "1e400", "-1e400")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("-1", "ff", "127", "7f"); }
  }

  @Nested
  class UInt8 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.UINT8; }
    @Override protected List<String> canonicalFills() { return List.of("0", "255"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("-1", "256", "0.5")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("255", "ff"); }
  }

  @Nested
  class Int16 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.INT16; }
    @Override protected List<String> canonicalFills() { return List.of("-32768", "32767"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("32768", "-32769")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("-2", "feff", "258", "0201"); }
  }

  @Nested
  class UInt16 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.UINT16; }
    @Override protected List<String> canonicalFills() { return List.of("65535", "1"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("65536", "-1")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("65535", "ffff", "4660", "3412"); }
  }

  @Nested
  class Int32 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.INT32; }
    @Override protected List<String> canonicalFills() { return List.of("-2147483648", "2147483647", "0"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("2147483648", "1e10")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("16909060", "04030201", "-1", "ffffffff"); }
  }

  @Nested
  class UInt32 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.UINT32; }
    @Override protected List<String> canonicalFills() { return List.of("4294967295", "0"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("4294967296", "-1")); }
    @Override protected Map<String, String> fillBytes() { return Map.of("3735928559", "efbeadde"); }
  }

  @Nested
  class Int64 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.INT64; }
    @Override protected List<String> canonicalFills() { return List.of("-9223372036854775808", "9223372036854775807", "-1"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("9223372036854775808", "-9223372036854775809", "1e400")); }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("-9223372036854775808", "0000000000000080", "72623859790382856", "0807060504030201");
    }
  }

  @Nested
  class UInt64 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.UINT64; }
    @Override protected List<String> canonicalFills() { return List.of("18446744073709551615", "9223372036854775808", "0"); }
    @Override protected List<String> badFills() { return plus(NOT_NUMBERS, List.of("18446744073709551616", "-1")); }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("18446744073709551615", "ffffffffffffffff", "9223372036854775808", "0000000000000080");
    }
  }

  private static final List<String> BAD_FLOATS =
      List.of("null", "true", "[1.0]", "{}", "\"nan\"", "\"inf\"", "\"0x\"", "\"0xzz\"", "\"1.0\"", "\"\"");

  @Nested
  class Float16 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.FLOAT16; }
    @Override protected List<String> canonicalFills() {
      return List.of("1.0", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "-0.0", "0.0", "\"0x7c01\"", "65504.0");
    }
    @Override protected Map<String, String> equivalentFills() {
      return Map.of("\"0x3c00\"", "1.0", "1", "1.0", "0.1", "0.0999755859375", "\"0x7e00\"", "\"NaN\"", "\"0xFC00\"", "\"-Infinity\"");
    }
    @Override protected List<String> badFills() { return plus(BAD_FLOATS, List.of("\"0x3c\"", "\"0x3c000\"", "\"0x7fc00000\"")); }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("\"NaN\"", "007e", "1.0", "003c", "-0.0", "0080", "\"0x7c01\"", "017c", "\"-Infinity\"", "00fc");
    }
  }

  @Nested
  class Float32 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.FLOAT32; }
    @Override protected List<String> canonicalFills() {
      return List.of("1.5", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "-0.0", "\"0x7fc00001\"", "\"0xffc00000\"",
          "3.4028235E38", "1.4E-45", "0.1");
    }
    @Override protected Map<String, String> equivalentFills() {
      return Map.of("\"0x3fc00000\"", "1.5", "\"0x7FC00000\"", "\"NaN\"", "2", "2.0", "0.100000001490116119384765625", "0.1");
    }
    @Override protected List<String> badFills() { return plus(BAD_FLOATS, List.of("\"0x7fc0000\"", "\"0x7ff8000000000000\"", "\"-0x1\"")); }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("\"NaN\"", "0000c07f", "\"0x7fc00001\"", "0100c07f", "-0.0", "00000080", "1.5", "0000c03f",
          "\"Infinity\"", "0000807f");
    }
  }

  @Nested
  class Float64 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.FLOAT64; }
    @Override protected List<String> canonicalFills() {
      return List.of("0.1", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "-0.0", "\"0x7ff8000000000001\"", "1.0E300", "4.9E-324",
          "-1.7976931348623157E308");
    }
    @Override protected Map<String, String> equivalentFills() {
      return Map.of("\"0x3ff0000000000000\"", "1.0", "1", "1.0", "-9007199254740993", "-9.007199254740992E15");
    }
    @Override protected List<String> badFills() { return plus(BAD_FLOATS, List.of("\"0x7fc00000\"")); }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("\"NaN\"", "000000000000f87f", "\"0x7ff8000000000001\"", "010000000000f87f", "-0.0", "0000000000000080",
          "1.0", "000000000000f03f");
    }
  }

  private static final List<String> BAD_COMPLEX =
      List.of("1.0", "[1.0]", "[1.0,2.0,3.0]", "[\"x\",1]", "null", "[null,1]", "{\"re\":1,\"im\":2}", "\"NaN\"");

  @Nested
  class Complex64 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.COMPLEX64; }
    @Override protected List<String> canonicalFills() {
      return List.of("[1.0,-2.5]", "[\"NaN\",\"-Infinity\"]", "[-0.0,\"0x7fc00001\"]", "[0.0,0.0]");
    }
    @Override protected Map<String, String> equivalentFills() { return Map.of("[1,\"0x40000000\"]", "[1.0,2.0]"); }
    @Override protected List<String> badFills() { return BAD_COMPLEX; }
    @Override protected Map<String, String> fillBytes() { return Map.of("[1.0,2.0]", "0000803f00000040"); }
  }

  @Nested
  class Complex128 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.COMPLEX128; }
    @Override protected List<String> canonicalFills() { return List.of("[1.0,-2.5]", "[\"Infinity\",\"NaN\"]"); }
    @Override protected List<String> badFills() { return BAD_COMPLEX; }
    @Override protected Map<String, String> fillBytes() {
      return Map.of("[1.0,2.0]", "000000000000f03f0000000000000040");
    }
  }

  @Nested
  class Raw16 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.raw(16); }
    @Override protected List<String> canonicalFills() { return List.of("[1,255]", "[0,0]"); }
    @Override protected List<String> badFills() {
      return List.of("[1]", "[1,256]", "[-1,0]", "\"0x0102\"", "1", "[1.5,2]", "null", "[1,2,3]");
    }
    @Override protected Map<String, String> fillBytes() { return Map.of("[1,255]", "01ff"); }
  }

  @Nested
  class Raw24 extends DataTypeContract {
    @Override protected DataType type() { return FixedType.raw(24); }
    @Override protected List<String> canonicalFills() { return List.of("[0,0,0]", "[10,20,30]"); }
    @Override protected List<String> badFills() { return List.of("[0,0]", "0"); }
    @Override protected Map<String, String> fillBytes() { return Map.of("[10,20,30]", "0a141e"); }
  }

  @Test
  void namesAndArrowForms() {
    assertEquals(new ArrowType.Int(16, false), FixedType.UINT16.field("x").getType());
    assertEquals(new ArrowType.FixedSizeBinary(3), FixedType.raw(24).field("x").getType());
    assertEquals(new ArrowType.FixedSizeList(2), FixedType.COMPLEX64.field("x").getType());
    assertEquals(1, FixedType.COMPLEX64.field("x").getChildren().size());
    assertEquals(FixedType.raw(24), FixedType.named("r24").orElseThrow());
    for (String bad : List.of("r0", "r", "r-8", "int128", "R8", "r08")) {
      assertTrue(FixedType.named(bad).isEmpty(), bad);
    }
    assertThrows(MetadataException.class, () -> FixedType.named("r7"));
    assertThrows(MetadataException.class, () -> FixedType.named("r99999992"));
    var e = assertThrows(UnsupportedExtensionException.class, () -> Registry.defaults().dataType(NamedConfig.plain("int128")));
    assertTrue(e.getMessage().contains("int128") && e.getMessage().contains("int64"), e.getMessage());
  }

  @Test
  void refusesFillValuesOfTheWrongSize(BufferAllocator allocator) {
    assertThrows(IllegalArgumentException.class, () -> FixedType.INT32.filled(allocator, 3, FillValue.of(new byte[2])));
    assertThrows(IllegalArgumentException.class, () -> FixedType.INT32.filled(allocator, 3, FillValue.NULL));
  }

  @Test
  void aVectorLoadedFromBytesHasAllItsValuesValidAndOwnsItsBitmap(BufferAllocator allocator) {
    try (ArrowBuf data = allocator.buffer(4 * 70)) {
      for (int i = 0; i < 70; i++) {
        data.setInt(4L * i, i);
      }
      try (FieldVector v = FixedType.INT32.fromBytes(data, 70, allocator)) {
        assertEquals(0, v.getNullCount());
        assertFalse(Buffers.hasNulls(v));
        ((IntVector) v).setNull(69); // the bitmap is the vector's own, writable
        assertEquals(1, v.getNullCount());
        assertEquals(68, ((IntVector) v).get(68));
      }
    }
  }
}
