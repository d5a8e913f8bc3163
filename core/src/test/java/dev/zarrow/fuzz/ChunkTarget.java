package dev.zarrow.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.spi.Registry;
import dev.zarrow.error.ZarrException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;

/**
 * One chunk-decoding fuzz target: a codec chain (as {@code zarr.json} writes it) bound to a data type
 * and chunk shape. {@link #run} feeds one stored chunk to every decoding path and checks what comes
 * out; {@link #seeds} encodes sample chunks for the seed corpus. A target for a new codec is one
 * {@code ChunkTarget.of(...)} line in {@link ChunkDecoderFuzzTest} plus its {@code @FuzzTest} method.
 *
 * <p>The only exceptions a decoder may throw are {@link ZarrException}s; anything else escapes to
 * Jazzer as a finding, as do leaked Arrow memory and a decoding that disagrees with itself.
 */
public final class ChunkTarget {
  /** Shared by every target; checked to be empty after each input. */
  static final BufferAllocator ALLOCATOR = new RootAllocator(Long.MAX_VALUE);

  private final String name;
  private final CodecPipeline pipeline;

  private ChunkTarget(String name, CodecPipeline pipeline) {
    this.name = name;
    this.pipeline = pipeline;
  }

  /**
   * A target for {@code codecs} (a JSON array as in {@code zarr.json}) over chunks of {@code shape}
   * of {@code dataType} (a JSON {@code data_type} value), with the default fill value.
   */
  public static ChunkTarget of(String name, String dataType, int[] shape, String codecs) {
    return of(name, dataType, shape, codecs, CodecOptions.DEFAULT);
  }

  public static ChunkTarget of(String name, String dataType, int[] shape, String codecs, CodecOptions options) {
    Registry registry = Registry.defaults();
    DataType type = registry.dataType(NamedConfig.parse(Json.parse(dataType, name), "/data_type"));
    List<Codec> chain = new ArrayList<>();
    JsonNode list = Json.parse(codecs, name);
    for (int i = 0; i < list.size(); i++) {
      chain.add(registry.codec(NamedConfig.parse(list.get(i), "/codecs/" + i), options));
    }
    ChunkSpec spec = new ChunkSpec(shape, type, type.defaultFill());
    return new ChunkTarget(name, CodecPipeline.of(chain, spec, Registry.defaults().context(options)));
  }

  public String name() {
    return name;
  }

  public CodecPipeline pipeline() {
    return pipeline;
  }

  /**
   * Decodes {@code input} as a stored chunk: from writable direct memory (what a file store returns),
   * read-only memory (a memory store) and the heap, whole and by a region that the input picks. All
   * must agree; a chunk that decodes must encode and decode again to the same values.
   */
  public void run(byte[] input) {
    FieldVector fromDirect = null;
    FieldVector fromReadOnly = null;
    FieldVector fromHeap = null;
    try {
      fromDirect = attempt(() -> pipeline.decode(direct(input), ALLOCATOR));
      fromReadOnly = attempt(() -> pipeline.decode(direct(input).asReadOnlyBuffer(), ALLOCATOR));
      fromHeap = attempt(() -> pipeline.decode(ByteBuffer.wrap(input).asReadOnlyBuffer(), ALLOCATOR));
      assertSame("read-only", fromDirect, fromReadOnly);
      assertSame("heap", fromDirect, fromHeap);
      if (fromDirect != null) {
        roundTrip(fromDirect);
      }
      checkRegion(input, fromDirect);
    } finally {
      close(fromDirect, fromReadOnly, fromHeap);
    }
    assertEquals(0, ALLOCATOR.getAllocatedMemory(), name + ": Arrow memory leaked decoding one input");
  }

  private void roundTrip(FieldVector decoded) {
    ByteBuffer encoded = pipeline.encode(decoded);
    try (FieldVector again = pipeline.decode(copy(encoded), ALLOCATOR)) {
      assertTrue(VectorEqualsVisitor.vectorEquals(decoded, again), name + ": decode(encode(decode(x))) differs from decode(x)");
    }
  }

  /** A region chosen by the input's hash, so the corpus covers many regions without a format change. */
  private void checkRegion(byte[] input, FieldVector whole) {
    int[] shape = pipeline.spec().shape();
    CRC32 crc = new CRC32();
    crc.update(input);
    Random pick = new Random(crc.getValue());
    long[] start = new long[shape.length];
    long[] size = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      start[d] = shape[d] == 0 ? 0 : pick.nextInt(shape[d]);
      size[d] = shape[d] == 0 ? 0 : 1 + pick.nextInt(shape[d] - (int) start[d]);
    }
    Box region = new Box(start, size);
    FieldVector part = attempt(() -> pipeline.decodeRegion(ByteSource.of(direct(input)), region, ALLOCATOR));
    try {
      if (whole == null) {
        // A partial read may skip the bytes that made the whole decode fail; nothing else may.
        boolean partialRead = pipeline.arrayCodecs().isEmpty() && pipeline.bytesCodecs().isEmpty();
        assertTrue(part == null || partialRead, name + ": a region decoded from a chunk that does not decode");
        return;
      }
      assertTrue(part != null, name + ": region " + region + " refused from a chunk that decodes");
      try (FieldVector expected = Regions.extract(whole, Regions.toLong(shape), region, ALLOCATOR)) {
        assertTrue(VectorEqualsVisitor.vectorEquals(expected, part), name + ": region " + region + " differs from the whole chunk's");
      }
    } finally {
      close(part);
    }
  }

  /**
   * Stored chunks to seed the corpus: the fill value, random values, and small smooth values (which
   * compress well), or for variable-size and nested types three chunks of {@link RandomValues}, encoded
   * by this target's own pipeline.
   */
  public List<byte[]> seeds(Random random) {
    ChunkSpec spec = pipeline.spec();
    List<byte[]> out = new ArrayList<>();
    try (FieldVector fill = spec.dataType().filled(ALLOCATOR, spec.size(), spec.fillValue())) {
      out.add(bytes(pipeline.encode(fill)));
    }
    if (!(spec.dataType() instanceof FixedWidthType)) {
      for (int n = 0; n < 3; n++) {
        try (FieldVector chunk = spec.dataType().field("seed").createVector(ALLOCATOR)) {
          RandomValues.fill(chunk, spec.size(), random);
          out.add(bytes(pipeline.encode(chunk)));
        }
      }
    }
    if (spec.dataType() instanceof FixedWidthType type) {
      int width = type.byteWidth();
      byte[] noise = new byte[spec.size() * width];
      random.nextBytes(noise);
      byte[] smooth = new byte[noise.length];
      for (int i = 0; i < smooth.length; i += width) {
        smooth[i] = (byte) (i / width % 7);
      }
      boolean bool = type.name().equals("bool");
      for (byte[] little : List.of(noise, smooth)) {
        if (bool) {
          for (int i = 0; i < little.length; i++) little[i] &= 1;
        }
        ByteBuffer buffer = direct(little);
        try (ArrowBuf data = Buffers.wrap(buffer, ALLOCATOR);
            FieldVector chunk = type.fromBytes(data, spec.size(), ALLOCATOR)) {
          out.add(bytes(pipeline.encode(chunk)));
        } catch (ZarrException notAValue) {
          // random bytes are no value of a converted type (UTF-32 beyond U+10FFFF): the smooth ones are
        }
      }
    }
    return out;
  }

  private static FieldVector attempt(Supplier<FieldVector> decode) {
    try {
      return decode.get();
    } catch (ZarrException refused) {
      return null;
    }
  }

  private void assertSame(String how, FieldVector expected, FieldVector actual) {
    assertEquals(expected == null, actual == null, name + ": decoding from " + how + " memory disagrees on whether the chunk is valid");
    if (expected != null) {
      assertTrue(VectorEqualsVisitor.vectorEquals(expected, actual), name + ": decoding from " + how + " memory gives other values");
    }
  }

  private static void close(FieldVector... vectors) {
    for (FieldVector v : vectors) {
      if (v != null) {
        v.close();
      }
    }
  }

  static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  static ByteBuffer copy(ByteBuffer bytes) {
    return ByteBuffer.allocateDirect(bytes.remaining()).put(bytes.duplicate()).flip();
  }

  static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
