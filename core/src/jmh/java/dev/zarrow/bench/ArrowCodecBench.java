package dev.zarrow.bench;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.arrow.ArrowIpcCodec;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FillValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The arrow codec on one 1M-element chunk of each column type of the table (int64, float64,
 * utf8, list&lt;int32&gt;, struct), against Arrow Java's own ArrowStreamWriter/ArrowStreamReader of
 * the same vector in the same run: encode (vector to bytes) and decode (bytes, in direct memory as a
 * file store hands them out, to vector; the baseline reads a byte array and copies the body).
 *
 * <pre>
 * mvn -o -q -Pbench compile &amp;&amp; mvn -o -q -Pbench dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp target/classes:$(cat cp.txt) org.openjdk.jmh.Main ArrowCodecBench
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xmx1g", "-XX:MaxDirectMemorySize=2g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ArrowCodecBench {
  static final int ROWS = 1 << 20;

  @Param({"int64", "float64", "utf8", "list_int32", "struct"})
  public String column;

  private BufferAllocator allocator;
  private FieldVector vector;
  private ChunkSpec spec;
  private ArrowIpcCodec codec;
  private byte[] chunk;
  private ByteBuffer stored;
  private byte[] stream;

  @Setup
  public void setup() throws IOException {
    allocator = new RootAllocator();
    Random random = new Random(7);
    Field field = switch (column) {
      case "int64" -> new Field("c", FieldType.nullable(new ArrowType.Int(64, true)), null);
      case "float64" -> new Field("c", FieldType.nullable(
          new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)), null);
      case "utf8" -> new Field("c", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
      case "list_int32" -> new Field("c", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null)));
      default -> new Field("c", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null),
          new Field("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    };
    vector = field.createVector(allocator);
    vector.allocateNew();
    for (int i = 0; i < ROWS; i++) {
      boolean isNull = random.nextInt(20) == 0;
      switch (column) {
        case "int64" -> set((BigIntVector) vector, i, isNull, random.nextLong());
        case "float64" -> {
          if (!isNull) {
            ((Float8Vector) vector).setSafe(i, random.nextDouble());
          }
        }
        case "utf8" -> {
          if (!isNull) {
            ((VarCharVector) vector).setSafe(i, ("value-" + random.nextInt(100000)).getBytes());
          }
        }
        case "list_int32" -> {
          ListVector list = (ListVector) vector;
          if (!isNull) {
            int start = list.startNewValue(i);
            IntVector items = (IntVector) list.getDataVector();
            int n = random.nextInt(5);
            for (int k = 0; k < n; k++) {
              items.setSafe(start + k, random.nextInt());
            }
            list.endValue(i, n);
          }
        }
        default -> {
          StructVector struct = (StructVector) vector;
          if (!isNull) {
            struct.setIndexDefined(i);
            ((BigIntVector) struct.getChild("a")).setSafe(i, random.nextLong());
            ((VarCharVector) struct.getChild("b")).setSafe(i, ("s" + random.nextInt(1000)).getBytes());
          }
          struct.getChild("a").setValueCount(i + 1);
          struct.getChild("b").setValueCount(i + 1);
        }
      }
    }
    vector.setValueCount(ROWS);
    ArrowDataType type = ArrowDataType.of(field);
    spec = new ChunkSpec(new int[] {ROWS}, type, FillValue.NULL);
    codec = ArrowIpcCodec.arrow();
    ByteBuffer encoded = codec.encode(vector, spec, allocator);
    chunk = new byte[encoded.remaining()];
    encoded.get(chunk);
    stream = baselineWrite();
    // As a file store hands chunks out: the caller's own direct memory (reused: decoding only reads it).
    stored = ByteBuffer.allocateDirect(chunk.length).put(chunk).flip();
  }

  private static void set(BigIntVector v, int i, boolean isNull, long value) {
    if (!isNull) {
      v.setSafe(i, value);
    }
  }

  @TearDown
  public void tearDown() {
    vector.close();
    allocator.close();
  }

  @Benchmark
  public int encodeZarrow() {
    return codec.encode(vector, spec, allocator).remaining();
  }

  @Benchmark
  public int encodeArrowStreamWriter() throws IOException {
    return baselineWrite().length;
  }

  private byte[] baselineWrite() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(chunk == null ? 1 << 20 : chunk.length + 1024);
    VectorSchemaRoot root = new VectorSchemaRoot(List.of(vector)); // not closed: the vector is the benchmark's
    try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
      writer.start();
      writer.writeBatch();
      writer.end();
    }
    return out.toByteArray();
  }

  @Benchmark
  public int decodeZarrow() {
    try (FieldVector v = codec.decode(stored.duplicate(), spec, allocator)) {
      return v.getValueCount();
    }
  }

  /**
   * The same operations outside JMH: thread CPU time per operation, best of 7 rounds of 10 after 30 warm-up calls, which a
   * machine shared with other work disturbs far less than wall time.
   */
  public static void main(String[] args) throws Exception {
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    System.out.printf("%-11s %10s %10s %7s %10s %10s %7s%n", "column", "encode", "baseline", "ratio", "decode",
        "baseline", "ratio");
    for (String c : List.of("int64", "float64", "utf8", "list_int32", "struct")) {
      ArrowCodecBench b = new ArrowCodecBench();
      b.column = c;
      b.setup();
      double[] ms = new double[4];
      java.util.concurrent.Callable<?>[] ops = {b::encodeZarrow, b::encodeArrowStreamWriter, b::decodeZarrow,
          b::decodeArrowStreamReader};
      for (int o = 0; o < ops.length; o++) {
        for (int i = 0; i < 30; i++) {
          ops[o].call(); // warm-up
        }
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 7; round++) {
          long t0 = cpu.getCurrentThreadCpuTime();
          for (int i = 0; i < 10; i++) {
            ops[o].call();
          }
          best = Math.min(best, (cpu.getCurrentThreadCpuTime() - t0) / 10 / 1e6);
        }
        ms[o] = best;
      }
      System.out.printf("%-11s %8.2fms %8.2fms %7.2f %8.2fms %8.2fms %7.2f%n", c, ms[0], ms[1], ms[0] / ms[1], ms[2],
          ms[3], ms[2] / ms[3]);
      b.tearDown();
    }
  }

  @Benchmark
  public int decodeArrowStreamReader() throws IOException {
    try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayReadableSeekableByteChannel(stream), allocator)) {
      reader.loadNextBatch();
      return reader.getVectorSchemaRoot().getRowCount();
    }
  }
}
