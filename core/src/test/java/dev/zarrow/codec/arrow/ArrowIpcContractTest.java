package dev.zarrow.codec.arrow;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContract;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.testing.Vectors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Nested;

/**
 * The {@code arrow} IPC codec under the codec contract: native types (fixed and variable width) and
 * the {@code arrow} data type (nullable numbers and strings, a dictionary-encoded column), in its
 * {@code arrow} and {@code arrow-ipc} spellings.
 */
class ArrowIpcContractTest {
  static final Field NULLABLE_INT = new Field("n", FieldType.nullable(new ArrowType.Int(32, true)), null);
  static final Field NULLABLE_UTF8 = new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
  static final Field DICT_UTF8 = new Field("d",
      new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(0, false, new ArrowType.Int(16, true))), null);

  static List<ChunkSpec> specs() {
    List<DataType> types = List.of(FixedType.INT32, FixedType.FLOAT64, FixedType.BOOL, FixedType.COMPLEX64,
        VarLenType.STRING, VarLenType.LARGE_BINARY,
        ArrowDataType.of(NULLABLE_INT), ArrowDataType.of(NULLABLE_UTF8), ArrowDataType.of(DICT_UTF8));
    List<ChunkSpec> out = new ArrayList<>();
    for (DataType t : types) {
      for (int[] shape : List.of(new int[] {}, new int[] {7}, new int[] {3, 4}, new int[] {0})) {
        out.add(new ChunkSpec(shape, t, t.defaultFill()));
      }
    }
    return out;
  }

  /** Random elements of any of {@link #specs}'s types: a quarter null where the field is nullable. */
  static FieldVector random(ChunkSpec spec, Random random, BufferAllocator allocator) {
    DataType type = spec.dataType();
    int n = spec.size();
    if (type instanceof FixedWidthType) {
      return Vectors.random(type, n, random, allocator);
    }
    FieldVector v = type.field("x").createVector(allocator);
    v.allocateNew();
    boolean nullable = v.getField().isNullable();
    for (int i = 0; i < n; i++) {
      if (nullable && random.nextInt(4) == 0) {
        v.setNull(i);
      } else if (v instanceof IntVector ints) {
        ints.setSafe(i, random.nextInt());
      } else {
        // Few distinct strings, so that a dictionary has repeats; any bytes for binary.
        byte[] value = type.equals(VarLenType.LARGE_BINARY)
            ? randomBytes(random)
            : ("v" + random.nextInt(5)).repeat(random.nextInt(3)).getBytes(StandardCharsets.UTF_8);
        ((VariableWidthFieldVector) v).setSafe(i, value);
      }
    }
    v.setValueCount(n);
    return v;
  }

  private static byte[] randomBytes(Random random) {
    byte[] out = new byte[random.nextInt(9)];
    random.nextBytes(out);
    return out;
  }

  abstract static class Ipc extends CodecContract {
    @Override
    protected List<ChunkSpec> supportedSpecs() {
      return specs();
    }

    @Override
    protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
      return random(spec, random, allocator);
    }

    /**
     * A stream cut after a whole message can still be a complete chunk: the end-of-stream marker is
     * optional (writers that omit it are read), and an empty chunk needs no record batch.
     */
    @Override
    protected boolean detectsTruncation() {
      return false;
    }

    @Override
    protected int flips() {
      return 24;
    }
  }

  @Nested
  class Arrow extends Ipc {
    @Override
    protected Codec codec() {
      return ArrowIpcCodec.arrow();
    }
  }

  @Nested
  class ArrowIpcWithColumnName extends Ipc {
    @Override
    protected Codec codec() {
      return ArrowIpcCodecTest.codec("{\"name\": \"arrow-ipc\", \"configuration\": {\"column_name\": \"zarr_array\"}}");
    }
  }
}
