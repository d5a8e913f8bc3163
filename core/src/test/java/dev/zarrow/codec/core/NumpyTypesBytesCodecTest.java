package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.nio.ByteOrder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Golden bytes of the numpy types through {@code bytes}, little and big endian, from the specs'
 * examples: zarr-extensions' struct layout (int32, uint8, float64: 13 bytes, offsets 0, 4, 5) and
 * fixed_length_utf32 "Hi" in 12 bytes; each decodes to the same values either way and encodes back.
 */
@ExtendWith(AllocatorExtension.class)
class NumpyTypesBytesCodecTest {
  private static final BytesCodec BIG = new BytesCodec(ByteOrder.BIG_ENDIAN);

  static DataType type(String json) {
    return Registry.defaults().dataType(NamedConfig.parse(Json.parse(json, "t"), "/data_type"));
  }

  private static void golden(DataType type, String little, String big, BufferAllocator allocator) {
    ChunkSpec spec = new ChunkSpec(new int[] {Vectors.unhex(little).length / type.byteWidth()}, type, type.defaultFill());
    assertFalse(BytesCodec.LITTLE.isArrowLayout(spec) && !((FixedWidthType) type).bytesAreArrowData());
    try (FieldVector fromLittle = BytesCodec.LITTLE.decode(Vectors.direct(Vectors.unhex(little)), spec, allocator);
        FieldVector fromBig = BIG.decode(Vectors.direct(Vectors.unhex(big)), spec, allocator)) {
      Vectors.assertSameValues(fromLittle, fromBig, type + " little vs big");
      assertEquals(little.replace(" ", ""), Vectors.hex(Vectors.toArray(BytesCodec.LITTLE.encode(fromBig, spec, allocator))));
      assertEquals(big.replace(" ", ""), Vectors.hex(Vectors.toArray(BIG.encode(fromLittle, spec, allocator))));
    }
  }

  @Test
  void structOfTheSpecExample(BufferAllocator allocator) {
    DataType t = type("{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"id\",\"data_type\":\"int32\"},"
        + "{\"name\":\"flags\",\"data_type\":\"uint8\"},{\"name\":\"value\",\"data_type\":\"float64\"}]}}");
    assertEquals(13, t.byteWidth());
    // id 1, flags 0x80, value 1.0; id -2, flags 0, value -0.5
    golden(t, "01000000 80 000000000000f03f" + "feffffff 00 000000000000e0bf",
        "00000001 80 3ff0000000000000" + "fffffffe 00 bfe0000000000000", allocator);
  }

  @Test
  void utf32OfTheSpecExample(BufferAllocator allocator) {
    DataType t = type("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}");
    golden(t, "48000000 69000000 00000000" + "00f60100 00000000 00000000",
        "00000048 00000069 00000000" + "0001f600 00000000 00000000", allocator);
  }

  @Test
  void timesAndBytes(BufferAllocator allocator) {
    golden(type("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":1}}"),
        "0100000000000000 0000000000000080", "0000000000000001 8000000000000000", allocator);
    golden(type("{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":3}}"),
        "616200 ffffff", "616200 ffffff", allocator);
  }

  @Test
  void multiByteTypesNeedAnEndianAndBadSizesAreCorrupt(BufferAllocator allocator) {
    DataType utf32 = type("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":4}}");
    ChunkSpec spec = new ChunkSpec(new int[] {2}, utf32, utf32.defaultFill());
    assertThrows(CodecException.class, () -> new BytesCodec(null).validate(spec));
    new BytesCodec(null).validate(new ChunkSpec(new int[] {2},
        type("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":4}}"), utf32.defaultFill()));
    assertThrows(CorruptChunkException.class, () -> BIG.decode(Vectors.direct(new byte[7]), spec, allocator));
    assertArrayEquals(new int[] {4}, ((FixedWidthType) utf32).swapUnits());
  }
}
