package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.junit.jupiter.api.Nested;

/**
 * Every codec of the package under the codec contract, made from its metadata through the registry.
 * Lossy filters (fixedscaleoffset, quantize, narrowing astype) get chunks of values they keep exactly.
 */
class NumcodecsContractTest {
  static final List<int[]> SHAPES = List.of(new int[] {}, new int[] {9}, new int[] {3, 4}, new int[] {0}, new int[] {2, 2, 5});

  static Codec codec(String name, Object... keyValues) {
    ObjectNode c = JsonNodeFactory.instance.objectNode();
    for (int i = 0; i < keyValues.length; i += 2) {
      c.set((String) keyValues[i], new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(keyValues[i + 1]));
    }
    return Registry.defaults().codec(NamedConfig.of(name, c), CodecOptions.DEFAULT);
  }

  static List<ChunkSpec> specs(DataType... types) {
    List<ChunkSpec> out = new ArrayList<>();
    for (DataType t : types) {
      for (int[] shape : SHAPES) {
        out.add(new ChunkSpec(shape, t, t.defaultFill()));
      }
    }
    return out;
  }

  /** A contract over chunks of values {@code k * step} for small random integers k, which lossy filters keep. */
  abstract static class Grid extends CodecContract {
    abstract double step();

    double range() {
      return 200;
    }

    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      double[] v = new double[spec.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = (random.nextInt((int) range()) - range() / 2) * step();
      }
      return Lanes.fromDoubles(v, (FixedType) spec.dataType(), allocator);
    }
  }

  // ---- bytes -> bytes ----

  @Nested
  class Zlib extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.zlib", "level", 5);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.UINT8, FixedType.INT32, FixedType.FLOAT64);
    }
  }

  @Nested
  class Lz4 extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.lz4", "acceleration", 1);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.UINT8, FixedType.INT16, FixedType.FLOAT32);
    }
  }

  @Nested
  class Bz2 extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.bz2", "level", 1);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT8, FixedType.UINT64);
    }

    @Override
    protected int flips() {
      return 16; // bzip2 is slow; a flip reaches its block CRC or its Huffman tables alike
    }
  }

  @Nested
  class Shuffle extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.shuffle", "elementsize", 4);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT32, FixedType.FLOAT64, FixedType.UINT32);
    }

    @Override
    protected boolean detectsTruncation() {
      return false; // a shuffle has no header: a shorter chunk of whole elements is another chunk
    }
  }

  @Nested
  class NumcodecsGzip extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.gzip", "level", 1);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT16);
    }
  }

  @Nested
  class NumcodecsZstd extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.zstd", "level", 3);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT32);
    }
  }

  @Nested
  class NumcodecsBlosc extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.blosc", "cname", "lz4", "clevel", 5, "shuffle", 1, "blocksize", 0);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT64, FixedType.UINT8);
    }
  }

  // ---- array -> array ----

  @Nested
  class DeltaInt extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.delta", "dtype", "<i4", "astype", "<i4");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT32);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(FixedType.INT64, FixedType.FLOAT32);
    }
  }

  @Nested
  class DeltaUint64 extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.delta", "dtype", "<u8");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.UINT64);
    }
  }

  @Nested
  class DeltaFloatToInt16 extends Grid {
    @Override
    double step() {
      return 1;
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.delta", "dtype", "<f8", "astype", "<i2");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT64);
    }
  }

  @Nested
  class FixedScaleOffset extends Grid {
    @Override
    double step() {
      return 0.1;
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.fixedscaleoffset", "offset", 5, "scale", 10, "dtype", "<f8", "astype", "<i2");
    }

    /** Values as decoding makes them, {@code k / 10 + 5}: those round-trip exactly. */
    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      double[] v = new double[spec.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = (random.nextInt(2000) - 1000) / 10.0 + 5;
      }
      return Lanes.fromDoubles(v, (FixedType) spec.dataType(), allocator);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT64);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(FixedType.FLOAT32);
    }
  }

  @Nested
  class FixedScaleOffsetFloat32 extends Grid {
    @Override
    double step() {
      return 0.25;
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.fixedscaleoffset", "offset", 0, "scale", 4, "dtype", "<f4", "astype", "|u1");
    }

    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      double[] v = new double[spec.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = random.nextInt(256) * 0.25;
      }
      return Lanes.fromDoubles(v, (FixedType) spec.dataType(), allocator);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT32);
    }
  }

  @Nested
  class Quantize extends Grid {
    @Override
    double step() {
      return 1.0 / 1024; // digits 3: numcodecs rounds to multiples of 2^-10
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.quantize", "digits", 3, "dtype", "<f8", "astype", "<f4");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT64);
    }
  }

  @Nested
  class BitRound extends Grid {
    @Override
    double step() {
      return 0.25; // small multiples of 1/4 need at most 7 mantissa bits: bit rounding keeps them
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.bitround", "keepbits", 7);
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT16, FixedType.FLOAT32, FixedType.FLOAT64);
    }
  }

  @Nested
  class AsTypeWidening extends CodecContract {
    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.astype", "encode_dtype", "<i8", "decode_dtype", "<i2");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.INT16);
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(FixedType.UINT16);
    }
  }

  @Nested
  class AsTypeNarrowing extends Grid {
    @Override
    double step() {
      return 1;
    }

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("numcodecs.astype", "encode_dtype", "|i1", "decode_dtype", "<f4");
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(FixedType.FLOAT32);
    }
  }

  // ---- array -> bytes ----

  abstract static class VlenArray extends CodecContract {
    abstract String dtype();

    @Override
    protected Codec codec() {
      return NumcodecsContractTest.codec("vlen-array", "dtype", dtype());
    }

    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs(ArrowDataType.of(((VlenArrayCodec) codec()).field()));
    }

    @Override
    protected List<ChunkSpec> unsupportedSpecs() {
      return specs(FixedType.INT32, ArrowDataType.of(((VlenArrayCodec) NumcodecsContractTest.codec("vlen-array", "dtype", "<u2")).field()));
    }

    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      return randomLists(spec, random, allocator);
    }
  }

  /** Lists of 0 to 8 random items (a quarter of them empty), of the spec's list field. */
  static FieldVector randomLists(ChunkSpec spec, Random random, BufferAllocator allocator) {
    int n = spec.size();
    ListVector list = (ListVector) spec.dataType().field("x").createVector(allocator);
    FixedType item = itemType(list);
    int[] lengths = new int[n];
    int total = 0;
    for (int i = 0; i < n; i++) {
      lengths[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(9);
      total += lengths[i];
    }
    byte[] bytes = new byte[total * item.byteWidth()];
    random.nextBytes(bytes);
    try (FieldVector values = dev.zarrow.testing.Vectors.fromBytes(item, bytes, allocator);
        ArrowBuf offsets = allocator.buffer(4L * (n + 1))) {
      int at = 0;
      offsets.setInt(0, 0);
      for (int i = 0; i < n; i++) {
        at += lengths[i];
        offsets.setInt(4L * (i + 1), at);
      }
      list.loadFieldBuffers(new ArrowFieldNode(n, 0), List.of(allocator.getEmpty(), offsets));
      ((FieldVector) list.getDataVector()).loadFieldBuffers(new ArrowFieldNode(total, 0), List.of(allocator.getEmpty(), values.getDataBuffer()));
      return list;
    }
  }

  private static FixedType itemType(ListVector list) {
    var type = list.getField().getChildren().get(0).getType();
    if (type instanceof org.apache.arrow.vector.types.pojo.ArrowType.Int i) {
      String name = (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
      return FixedType.named(name).orElseThrow();
    }
    var f = (org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint) type;
    return switch (f.getPrecision()) {
      case HALF -> FixedType.FLOAT16;
      case SINGLE -> FixedType.FLOAT32;
      default -> FixedType.FLOAT64;
    };
  }

  @Nested
  class VlenArrayInt32 extends VlenArray {
    @Override
    String dtype() {
      return "<i4";
    }
  }

  @Nested
  class VlenArrayFloat64Big extends VlenArray {
    @Override
    String dtype() {
      return ">f8";
    }
  }

  @Nested
  class VlenArrayUint8 extends VlenArray {
    @Override
    String dtype() {
      return "|u1";
    }
  }
}
