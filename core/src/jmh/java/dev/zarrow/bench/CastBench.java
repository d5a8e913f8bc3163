package dev.zarrow.bench;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the time of numcodecs' astype (float32 to float64, 1M values: 4 MB in, 8 MB out) goes on one
 * thread, in one run: {@code zarrowAstype} is the codec's whole decode (a new malloc'ed chunk each call, as
 * numpy's {@code astype} does); the others write into one reused buffer: {@code scalarLoop} is the codec's
 * memory-to-memory loop (one scalar {@code cvtss2sd} per value in JDK 17), {@code integerBits} builds each
 * double's bits from the float's with integer operations (normal values only: a shape SuperWord could
 * take, were the element size not to change: it does not vectorize it in JDK 17), {@code vectorApi} is
 * the incubating Vector API's F2D cast ({@code vcvtps2pd}; needs {@code --add-modules jdk.incubator.vector},
 * so the library does not use it), {@code copyFloor} copies 8 MB ({@code memcpy}: what any cast must write).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms1g", "-Xmx1g",
    "--add-modules=jdk.incubator.vector"})
@State(Scope.Benchmark)
public class CastBench {
  static final int COUNT = 1 << 20;
  private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_128;
  private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_256;

  private BufferAllocator allocator;
  private CodecPipeline pipeline;
  private ByteBuffer stored;
  private long in;
  private long out;
  private float[] floats;
  private double[] doubles;

  @Setup
  public void setUp() {
    allocator = new RootAllocator();
    in = MemoryUtil.allocateMemory(4L * COUNT);
    out = MemoryUtil.allocateMemory(8L * COUNT);
    floats = new float[COUNT];
    doubles = new double[COUNT];
    stored = ByteBuffer.allocateDirect(4 * COUNT).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < COUNT; i++) {
      float v = (float) (Math.sin(i / 1000.0) * 100);
      floats[i] = v;
      MemoryUtil.putInt(in + 4L * i, Float.floatToRawIntBits(v));
      stored.putFloat(4 * i, v);
    }
    Registry registry = Registry.defaults();
    String chain = "[{\"name\":\"numcodecs.astype\",\"configuration\":{\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}},"
        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";
    List<Codec> codecs = new ArrayList<>();
    var list = Json.parse(chain, "astype");
    for (int i = 0; i < list.size(); i++) {
      codecs.add(registry.codec(NamedConfig.parse(list.get(i), "/codecs/" + i), CodecOptions.DEFAULT));
    }
    ChunkSpec spec = new ChunkSpec(new int[] {COUNT}, FixedType.FLOAT64, FixedType.FLOAT64.defaultFill());
    pipeline = CodecPipeline.of(codecs, spec, registry.context(CodecOptions.DEFAULT));
  }

  @TearDown
  public void tearDown() {
    MemoryUtil.freeMemory(in);
    MemoryUtil.freeMemory(out);
    allocator.close();
  }

  @Benchmark
  public long zarrowAstype() {
    try (FieldVector v = pipeline.decode(stored.duplicate(), allocator)) {
      return v.getDataBuffer().getLong(8L * (COUNT - 1));
    }
  }

  @Benchmark
  public long scalarLoop() {
    for (int i = 0; i < COUNT; i++) {
      MemoryUtil.putLong(out + 8L * i, Double.doubleToRawLongBits(Float.intBitsToFloat(MemoryUtil.getInt(in + 4L * i))));
    }
    return MemoryUtil.getLong(out);
  }

  @Benchmark
  public long integerBits() {
    for (int i = 0; i < COUNT; i++) {
      int f = MemoryUtil.getInt(in + 4L * i);
      MemoryUtil.putInt(out + 8L * i, f << 29);
      MemoryUtil.putInt(out + 8L * i + 4, ((f >> 3) & 0x8fffffff) + 0x38000000);
    }
    return MemoryUtil.getLong(out);
  }

  @Benchmark
  public double vectorApi() {
    int i = 0;
    for (; i + FLOATS.length() <= COUNT; i += FLOATS.length()) {
      FloatVector.fromArray(FLOATS, floats, i).convertShape(VectorOperators.F2D, DOUBLES, 0).reinterpretAsDoubles().intoArray(doubles, i);
    }
    return doubles[COUNT - 1];
  }

  @Benchmark
  public long copyFloor() {
    MemoryUtil.copyMemory(in, out, 4L * COUNT);
    MemoryUtil.copyMemory(in, out + 4L * COUNT, 4L * COUNT);
    return MemoryUtil.getLong(out);
  }
}
