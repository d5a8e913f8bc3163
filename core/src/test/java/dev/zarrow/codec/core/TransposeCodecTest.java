package dev.zarrow.codec.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class TransposeCodecTest {
  private static final List<int[]> SHAPES_2D = List.of(new int[] {3, 5}, new int[] {1, 7}, new int[] {4, 0}, new int[] {16, 9});
  private static final List<int[]> SHAPES_3D = List.of(new int[] {2, 3, 4}, new int[] {5, 1, 3}, new int[] {0, 2, 2});

  @Nested
  class Swap extends CodecContract {
    @Override
    protected Codec codec() {
      return TransposeCodec.of(1, 0);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.of(t -> true, SHAPES_2D);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return CoreSpecs.of(t -> t == FixedType.INT32, List.of(new int[] {4}, new int[] {2, 3, 4}));
    }
  }

  @Nested
  class Rotate extends CodecContract {
    @Override
    protected Codec codec() {
      return TransposeCodec.of(2, 0, 1);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return CoreSpecs.of(t -> true, SHAPES_3D);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return CoreSpecs.of(t -> t == FixedType.INT32, List.of(new int[] {4}, new int[] {2, 3}));
    }
  }

  /** The early spelling "F": reversed dimensions, any rank. */
  @Nested
  class Fortran extends CodecContract {
    @Override
    protected Codec codec() {
      return codecOf("{\"order\": \"F\"}");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      List<int[]> shapes = new ArrayList<>(SHAPES_2D);
      shapes.addAll(SHAPES_3D);
      shapes.add(new int[] {});
      shapes.add(new int[] {6});
      return CoreSpecs.of(t -> t == FixedType.FLOAT64 || t == FixedType.BOOL || t == FixedType.COMPLEX64, shapes);
    }
  }

  static Codec codecOf(String configuration) {
    return Registry.defaults().codec(
        NamedConfig.parse(Json.parse("{\"name\": \"transpose\", \"configuration\": " + configuration + "}", "t"), "/codecs/0"),
        CodecOptions.DEFAULT);
  }

  private static int[] encode(Codec transpose, int[] shape, BufferAllocator allocator) {
    int n = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    ChunkSpec spec = new ChunkSpec(shape, FixedType.INT32, FixedType.INT32.defaultFill());
    CodecPipeline pipeline = CodecPipeline.of(List.of(transpose, BytesCodec.LITTLE), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    try (IntVector v = new IntVector("x", allocator)) {
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i);
      }
      v.setValueCount(n);
      ByteBuffer bytes = pipeline.encode(v).order(ByteOrder.LITTLE_ENDIAN);
      int[] out = new int[n];
      bytes.asIntBuffer().get(out);
      try (FieldVector back = pipeline.decode(Vectors.direct(Vectors.toArray(bytes)), allocator)) {
        Vectors.assertSameValues(v, back, "decoded");
      }
      return out;
    }
  }

  @Test
  void storesTheTransposeInCOrder(BufferAllocator allocator) {
    // numpy.transpose(arange(6).reshape(2, 3), (1, 0)).ravel()
    assertEquals(Arrays.toString(new int[] {0, 3, 1, 4, 2, 5}),
        Arrays.toString(encode(TransposeCodec.of(1, 0), new int[] {2, 3}, allocator)));
    // numpy.transpose(arange(24).reshape(2, 3, 4), (2, 0, 1)).ravel(): out[k, i, j] = in[i, j, k]
    assertEquals(Arrays.toString(new int[] {
            0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}),
        Arrays.toString(encode(TransposeCodec.of(2, 0, 1), new int[] {2, 3, 4}, allocator)));
    // (1, 2, 0): out[j, k, i] = in[i, j, k]
    assertEquals(Arrays.toString(new int[] {
            0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23}),
        Arrays.toString(encode(TransposeCodec.of(1, 2, 0), new int[] {2, 3, 4}, allocator)));
    // "F" reverses the dimensions, "C" keeps them.
    assertEquals(Arrays.toString(new int[] {
            0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23}),
        Arrays.toString(encode(codecOf("{\"order\": \"F\"}"), new int[] {2, 3, 4}, allocator)));
    assertEquals(Arrays.toString(new int[] {0, 1, 2, 3, 4, 5}),
        Arrays.toString(encode(codecOf("{\"order\": \"C\"}"), new int[] {2, 3}, allocator)));
  }

  @Test
  void refusesOrdersThatAreNotPermutations() {
    for (String bad : List.of("{\"order\": [0, 0]}", "{\"order\": [0, 2]}", "{\"order\": [-1, 0]}", "{\"order\": \"X\"}",
        "{\"order\": [0, 1.5]}", "{}")) {
      var e = assertThrows(MetadataException.class, () -> codecOf(bad), bad);
      assertTrue(e.getMessage().contains("/configuration/order"), e.getMessage());
    }
  }

  @Test
  void keepsItsMetadataAsWritten() {
    assertEquals("{\"name\":\"transpose\",\"configuration\":{\"order\":[2,0,1]}}",
        Json.compact(TransposeCodec.of(2, 0, 1).toMetadata().toJson()));
    assertEquals("{\"name\":\"transpose\",\"configuration\":{\"order\":\"F\"}}",
        Json.compact(codecOf("{\"order\": \"F\"}").toMetadata().toJson()));
  }
}
