package dev.zarrow.codec.vlen;

import dev.zarrow.ArraySpec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.junit.jupiter.api.Nested;

/** The variable-length layouts under the codec contract, with random strings (any code point) and bytes. */
class VlenContractTest {
  static final List<int[]> SHAPES = List.of(new int[] {}, new int[] {9}, new int[] {3, 4}, new int[] {0}, new int[] {2, 2, 3});

  static List<ChunkSpec> specs(List<VarLenType> types) {
    List<ChunkSpec> out = new ArrayList<>();
    for (VarLenType t : types) {
      for (int[] shape : SHAPES) {
        out.add(new ChunkSpec(shape, t, t.defaultFill()));
      }
    }
    return out;
  }

  /** Random values: strings of random code points (1 to 4 UTF-8 bytes each), or random bytes; some empty. */
  static FieldVector random(ChunkSpec spec, Random random, BufferAllocator allocator) {
    VarLenType type = (VarLenType) spec.dataType();
    VariableWidthFieldVector v = (VariableWidthFieldVector) type.field("x").createVector(allocator);
    v.allocateNew();
    for (int i = 0; i < spec.size(); i++) {
      int n = random.nextInt(4) == 0 ? 0 : random.nextInt(12);
      byte[] value;
      if (type.isText()) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < n; k++) {
          int cp;
          do {
            cp = random.nextInt(4) == 0 ? random.nextInt(0x110000) : 0x20 + random.nextInt(0x5f);
          } while (cp >= 0xd800 && cp <= 0xdfff);
          s.appendCodePoint(cp);
        }
        value = s.toString().getBytes(StandardCharsets.UTF_8);
      } else {
        value = new byte[n];
        random.nextBytes(value);
      }
      v.setSafe(i, value);
    }
    v.setValueCount(spec.size());
    return v;
  }

  abstract static class Vlen extends CodecContract {
    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      return random(spec, random, allocator);
    }
  }

  @Nested
  class Utf8 extends Vlen {
    @Override
    protected Codec codec() {
      return VlenInterleavedCodec.of(VlenInterleavedCodec.UTF8, CodecOptions.DEFAULT);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(List.of(VarLenType.STRING, VarLenType.LARGE_STRING));
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      List<ChunkSpec> out = new ArrayList<>(specs(List.of(VarLenType.BYTES)));
      out.add(new ChunkSpec(new int[] {3}, FixedType.INT32, FixedType.INT32.defaultFill()));
      return out;
    }
  }

  @Nested
  class Bytes extends Vlen {
    @Override
    protected Codec codec() {
      return VlenInterleavedCodec.of(VlenInterleavedCodec.BYTES, CodecOptions.DEFAULT);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(List.of(VarLenType.BYTES, VarLenType.LARGE_BINARY));
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(List.of(VarLenType.STRING));
    }
  }

  @Nested
  class ZarrsVlen extends Vlen {
    @Override
    protected Codec codec() {
      return registry().codec(ZarrsVlenCodec.metadata("uint32", ZarrsVlenCodec.IndexLocation.END,
          List.of(ZarrsVlenCodec.bytesCodec(true), ArraySpec.zstd(1)), List.of(ZarrsVlenCodec.bytesCodec(false))),
          CodecOptions.DEFAULT);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(VarLenType.ALL);
    }
  }

  /** ZEP7's offsets+data layout, named explicitly (an array's codec list implies it by naming no serializer). */
  @Nested
  class Zep7 extends Vlen {
    @Override
    protected Codec codec() {
      return registry().codec(dev.zarrow.metadata.NamedConfig.plain(VarLenType.ZEP7_CODEC), CodecOptions.DEFAULT);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(VarLenType.ALL);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return List.of(new ChunkSpec(new int[] {3}, FixedType.INT32, FixedType.INT32.defaultFill()));
    }
  }
}
