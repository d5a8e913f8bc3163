package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class BytesCodecTest {

  @Nested
  class Little extends CodecContract {
    @Override
    protected Codec codec() {
      return new BytesCodec(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.all();
    }
  }

  @Nested
  class Big extends CodecContract {
    @Override
    protected Codec codec() {
      return new BytesCodec(ByteOrder.BIG_ENDIAN);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.all();
    }
  }

  /** Without "endian": one-byte types only. */
  @Nested
  class NoEndian extends CodecContract {
    @Override
    protected Codec codec() {
      return new BytesCodec(null);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.of(t -> t.swapUnit() == 1, CoreSpecs.SHAPES);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return CoreSpecs.of(t -> t.swapUnit() > 1, List.of(new int[] {3}));
    }
  }

  // ---- golden bytes: one vector built from Java values, its bytes in both orders ----

  private record Golden(FixedType type, Consumer<FieldVector> values, int count, String little, String big) {}

  private static List<Golden> goldens() {
    return List.of(
        new Golden(FixedType.BOOL, v -> { ((BitVector) v).set(0, 1); ((BitVector) v).set(1, 0); ((BitVector) v).set(2, 1); }, 3,
            "010001", "010001"),
        new Golden(FixedType.INT8, v -> { ((TinyIntVector) v).set(0, -1); ((TinyIntVector) v).set(1, 2); }, 2, "ff02", "ff02"),
        new Golden(FixedType.UINT8, v -> { ((UInt1Vector) v).set(0, 255); ((UInt1Vector) v).set(1, 1); }, 2, "ff01", "ff01"),
        new Golden(FixedType.INT16, v -> { ((SmallIntVector) v).set(0, 1); ((SmallIntVector) v).set(1, -2); }, 2,
            "0100feff", "0001fffe"),
        new Golden(FixedType.UINT16, v -> ((UInt2Vector) v).set(0, 0x1234), 1, "3412", "1234"),
        new Golden(FixedType.INT32, v -> { ((IntVector) v).set(0, 0x01020304); ((IntVector) v).set(1, -1); }, 2,
            "04030201ffffffff", "01020304ffffffff"),
        new Golden(FixedType.UINT32, v -> ((UInt4Vector) v).set(0, 0xdeadbeef), 1, "efbeadde", "deadbeef"),
        new Golden(FixedType.INT64, v -> ((BigIntVector) v).set(0, 0x0102030405060708L), 1,
            "0807060504030201", "0102030405060708"),
        new Golden(FixedType.UINT64, v -> { ((UInt8Vector) v).set(0, -1L); ((UInt8Vector) v).set(1, 0x00000000000000ffL); }, 2,
            "ffffffffffffffff" + "ff00000000000000", "ffffffffffffffff" + "00000000000000ff"),
        new Golden(FixedType.FLOAT16, v -> {
              ((Float2Vector) v).set(0, Float16.toFloat16(1.0f));
              ((Float2Vector) v).set(1, Float16.toFloat16(-2.0f));
            }, 2, "003c00c0", "3c00c000"),
        new Golden(FixedType.FLOAT32, v -> { ((Float4Vector) v).set(0, 1.0f); ((Float4Vector) v).set(1, -0.0f); }, 2,
            "0000803f00000080", "3f80000080000000"),
        new Golden(FixedType.FLOAT64, v -> ((Float8Vector) v).set(0, 1.0), 1, "000000000000f03f", "3ff0000000000000"),
        new Golden(FixedType.COMPLEX64, v -> complex(v, 1.0, 2.0), 1, "0000803f00000040", "3f80000040000000"),
        new Golden(FixedType.COMPLEX128, v -> complex(v, 1.0, 2.0), 1,
            "000000000000f03f0000000000000040", "3ff00000000000004000000000000000"),
        new Golden(FixedType.raw(24), v -> {
              ((FixedSizeBinaryVector) v).set(0, new byte[] {1, 2, 3});
              ((FixedSizeBinaryVector) v).set(1, new byte[] {4, 5, 6});
            }, 2, "010203040506", "010203040506"));
  }

  private static void complex(FieldVector v, double re, double im) {
    FixedSizeListVector list = (FixedSizeListVector) v;
    FieldVector parts = (FieldVector) list.getDataVector();
    if (parts instanceof Float4Vector f) {
      f.setSafe(0, (float) re);
      f.setSafe(1, (float) im);
    } else {
      ((Float8Vector) parts).setSafe(0, re);
      ((Float8Vector) parts).setSafe(1, im);
    }
    parts.setValueCount(2);
    list.setNotNull(0);
  }

  private static FieldVector build(Golden g, BufferAllocator allocator) {
    FieldVector v = g.type.field("x").createVector(allocator);
    v.setInitialCapacity(g.count);
    v.allocateNew();
    g.values.accept(v);
    v.setValueCount(g.count);
    return v;
  }

  @Test
  void encodesEveryCoreTypeInBothOrders(BufferAllocator allocator) {
    for (Golden g : goldens()) {
      ChunkSpec spec = new ChunkSpec(new int[] {g.count}, g.type, g.type.defaultFill());
      try (FieldVector v = build(g, allocator)) {
        for (boolean little : new boolean[] {true, false}) {
          BytesCodec codec = new BytesCodec(little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
          CodecPipeline pipeline = CodecPipeline.of(List.of(codec), spec, Registry.defaults().context(CodecOptions.DEFAULT));
          String expected = little ? g.little : g.big;
          assertEquals(expected, Vectors.hex(Vectors.toArray(pipeline.encode(v))), g.type + " " + codec);
          try (FieldVector decoded = pipeline.decode(Vectors.direct(Vectors.unhex(expected)), allocator)) {
            Vectors.assertSameValues(v, decoded, g.type + " " + codec + " decoded");
          }
        }
      }
    }
  }

  @Test
  void refusesChunksOfTheWrongSize(BufferAllocator allocator) {
    ChunkSpec spec = new ChunkSpec(new int[] {4}, FixedType.INT32, FixedType.INT32.defaultFill());
    CodecPipeline pipeline = CodecPipeline.of(List.of(BytesCodec.LITTLE), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    for (int n : new int[] {0, 15, 17, 32}) {
      var e = assertThrows(CorruptChunkException.class, () -> pipeline.decode(ByteBuffer.allocateDirect(n), allocator));
      assertTrue(e.getMessage().contains("16"), e.getMessage());
    }
  }

  @Test
  void readsOnlyTheBytesOfAOneDimensionalRegion(BufferAllocator allocator) {
    ChunkSpec spec = new ChunkSpec(new int[] {1000}, FixedType.INT32, FixedType.INT32.defaultFill());
    CodecPipeline pipeline = CodecPipeline.of(List.of(BytesCodec.LITTLE), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    ByteBuffer stored = ByteBuffer.allocateDirect(4000).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 1000; i++) {
      stored.putInt(i * 4, i * 3);
    }
    AtomicLong read = new AtomicLong();
    ByteSource all = ByteSource.of(stored);
    ByteSource counting = new ByteSource() {
      @Override
      public long size() {
        return all.size();
      }

      @Override
      public ByteBuffer read(ByteRange range) {
        read.addAndGet(range.length(size()));
        return all.read(range);
      }
    };
    try (FieldVector v = pipeline.decodeRegion(counting, new Box(new long[] {10}, new long[] {20}), allocator)) {
      assertEquals(20, v.getValueCount());
      for (int i = 0; i < 20; i++) {
        assertEquals((10 + i) * 3, ((IntVector) v).get(i));
      }
    }
    assertEquals(80, read.get(), "bytes read for 20 int32 elements");
  }

  @Test
  void parsesItsConfiguration() {
    Registry registry = Registry.defaults();
    assertEquals(new BytesCodec(null).toMetadata(), codec(registry, "{\"name\": \"bytes\"}").toMetadata());
    assertEquals("{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}",
        Json.compact(codec(registry, "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}").toMetadata().toJson()));
    var bad = assertThrows(MetadataException.class,
        () -> codec(registry, "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"middle\"}}"));
    assertTrue(bad.getMessage().contains("/configuration/endian"), bad.getMessage());
    var unknown = assertThrows(MetadataException.class,
        () -> codec(registry, "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\", \"x\": 1}}"));
    assertTrue(unknown.getMessage().contains("/configuration/x"), unknown.getMessage());
  }

  @Test
  void needsAnEndianForMultiByteTypes() {
    ChunkSpec spec = new ChunkSpec(new int[] {4}, FixedType.INT32, FixedType.INT32.defaultFill());
    var e = assertThrows(CodecException.class, () -> CodecPipeline.of(List.of(new BytesCodec(null)), spec, Registry.defaults().context(CodecOptions.DEFAULT)));
    assertTrue(e.getMessage().contains("endian"), e.getMessage());
  }

  private static Codec codec(Registry registry, String json) {
    return registry.codec(NamedConfig.parse(Json.parse(json, "test"), "/codecs/0"), CodecOptions.DEFAULT);
  }
}
