package dev.zarrow.codec.numcodecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The numeric filters compute a large chunk in parts on the codec context's executor: the same bytes as in
 * one part, for every path (casts memory to memory, casts through blocks, quantize, fixedscaleoffset both
 * ways), on a chunk whose parts end inside a block and at its last value.
 */
@ExtendWith(AllocatorExtension.class)
class NumericFilterPartsTest {
  private static final int N = 3 * NumericFilter.PART + 777;
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
  private static final AtomicInteger HANDED_OVER = new AtomicInteger();

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
  }

  private static ArrayToArrayCodec codec(boolean parallel, String name, Object... keyValues) {
    ObjectNode config = new ObjectMapper().createObjectNode();
    for (int i = 0; i < keyValues.length; i += 2) {
      config.set((String) keyValues[i], new ObjectMapper().valueToTree(keyValues[i + 1]));
    }
    var context = parallel
        ? Registry.defaults().context(CodecOptions.DEFAULT, task -> {
          HANDED_OVER.incrementAndGet();
          POOL.execute(task);
        })
        : Registry.defaults().context(CodecOptions.DEFAULT);
    return (ArrayToArrayCodec) context.codec(NamedConfig.of(name, config));
  }

  private static ByteBuffer bytes(FieldVector v, FixedType type) {
    return type.toBytes(v).duplicate();
  }

  /** Encodes and decodes random values of {@code type} with the codec made sequential and parallel: equal bytes. */
  private static void same(BufferAllocator allocator, FixedType type, double range, String name, Object... config) {
    SplittableRandom random = new SplittableRandom(name.hashCode() + (long) type.hashCode());
    double[] values = new double[N];
    for (int i = 0; i < N; i++) {
      values[i] = type.equals(FixedType.FLOAT32) || type.equals(FixedType.FLOAT64) ? (random.nextDouble() - 0.5) * range : random.nextInt((int) range);
    }
    ArrayToArrayCodec one = codec(false, name, config);
    ArrayToArrayCodec parts = codec(true, name, config);
    ChunkSpec spec = new ChunkSpec(new int[] {N}, type, type.defaultFill());
    FixedType encodedType = (FixedType) one.encodedSpec(spec).dataType();
    int before = HANDED_OVER.get();
    try (FieldVector chunk = Lanes.fromDoubles(values, type, allocator);
        FieldVector e1 = one.encode(chunk, spec, allocator);
        FieldVector e2 = parts.encode(chunk, spec, allocator);
        FieldVector d1 = one.decode(e1, spec, allocator);
        FieldVector d2 = parts.decode(e1, spec, allocator)) {
      assertEquals(bytes(e1, encodedType), bytes(e2, encodedType), name + " encoded");
      assertEquals(bytes(d1, type), bytes(d2, type), name + " decoded");
      assertEquals(N, d2.getValueCount());
    }
    assertTrue(HANDED_OVER.get() > before, name + ": parts handed to the executor");
  }

  @Test
  void partsComputeWhatOnePartDoes(BufferAllocator allocator) {
    same(allocator, FixedType.FLOAT64, 1e6, "numcodecs.astype", "encode_dtype", "<f4", "decode_dtype", "<f8");
    same(allocator, FixedType.FLOAT64, 1e6, "numcodecs.astype", "encode_dtype", "<i2", "decode_dtype", "<f8");
    same(allocator, FixedType.INT32, 1e6, "numcodecs.astype", "encode_dtype", "<f8", "decode_dtype", "<i4");
    same(allocator, FixedType.INT64, 1e9, "numcodecs.astype", "encode_dtype", "<u2", "decode_dtype", "<i8");
    same(allocator, FixedType.FLOAT64, 1e4, "numcodecs.quantize", "digits", 2, "dtype", "<f8", "astype", "<f4");
    same(allocator, FixedType.FLOAT32, 1e4, "numcodecs.quantize", "digits", 3, "dtype", "<f4");
    for (String astype : List.of("<i2", "<u2", "<i4", "<f4")) {
      same(allocator, FixedType.FLOAT64, 600, "numcodecs.fixedscaleoffset", "offset", 3.5, "scale", 10, "dtype", "<f8", "astype", astype);
    }
    same(allocator, FixedType.FLOAT32, 60, "numcodecs.fixedscaleoffset", "offset", 1, "scale", 100, "dtype", "<f4", "astype", "<i4");
  }
}
