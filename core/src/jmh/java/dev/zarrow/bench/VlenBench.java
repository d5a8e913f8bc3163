package dev.zarrow.bench;

import dev.zarrow.spi.Registry;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * Decoding 4M random strings of 0..32 UTF-8 bytes, in 16 chunks of 256K elements, from each layout
 * (ZEP7, vlen-utf8, zarrs.vlen with plain bytes chains), next to a memcpy of the vlen-utf8 chunk bytes in
 * the same run. Every operation decodes all 16 chunks; MB/s = string bytes (printed at setup) / time.
 * Chunks are writable direct buffers, as a file store returns them. {@code assembleWholeArray} is the
 * copy a whole-array read adds: the 16 decoded chunks into one vector (runs of bytes, offsets rebased).
 *
 * <pre>
 * mvn -Pbench -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench.cp
 * java --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED \
 *   -cp target/classes:$(cat target/bench.cp) org.openjdk.jmh.Main VlenBench
 * </pre>
 * On a shared machine, {@link #main} (same class path, {@code dev.zarrow.bench.VlenBench 3}) prints each
 * operation's process CPU time and its ratio to memcpy instead (see src/jmh/README.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
public class VlenBench {
  private static final int COUNT = 4 << 20;
  private static final int CHUNK = 256 << 10;

  @Param({"ascii", "unicode"})
  public String text;

  @Param({"true", "false"})
  public boolean validateUtf8;

  private BufferAllocator allocator;
  private CodecPipeline zep7;
  private CodecPipeline vlenUtf8;
  private CodecPipeline zarrsVlen;
  private final List<ByteBuffer> zep7Chunks = new ArrayList<>();
  private final List<ByteBuffer> vlenChunks = new ArrayList<>();
  private final List<ByteBuffer> zarrsChunks = new ArrayList<>();
  private ByteBuffer copyTarget;
  private final List<FieldVector> decoded = new ArrayList<>();
  private final List<Regions.Piece> pieces = new ArrayList<>();

  private static final String[] UNICODE = {"a", "Z", "7", " ", "é", "ж", "ß", "€", "日", "語", "😀", "𝄞"};

  @Setup(Level.Trial)
  public void setUp() {
    allocator = new RootAllocator();
    CodecOptions options = CodecOptions.DEFAULT.withValidateUtf8(validateUtf8);
    zep7 = pipeline("[]", options);
    vlenUtf8 = pipeline("[{\"name\": \"vlen-utf8\"}]", options);
    zarrsVlen = pipeline("[{\"name\": \"zarrs.vlen\", \"configuration\": {\"index_codecs\": [{\"name\": \"bytes\", "
        + "\"configuration\": {\"endian\": \"little\"}}], \"data_codecs\": [{\"name\": \"bytes\"}], \"index_data_type\": \"uint32\", "
        + "\"index_location\": \"start\"}}]", options);
    Random random = new Random(42);
    long stringBytes = 0;
    long largest = 0;
    for (int c = 0; c < COUNT / CHUNK; c++) {
      byte[][] values = new byte[CHUNK][];
      for (int i = 0; i < CHUNK; i++) {
        values[i] = randomString(random);
        stringBytes += values[i].length;
      }
      try (VarCharVector v = new VarCharVector("v", allocator)) {
        v.allocateNew();
        for (int i = 0; i < CHUNK; i++) {
          v.setSafe(i, values[i]);
        }
        v.setValueCount(CHUNK);
        zep7Chunks.add(copy(zep7.encode(v)));
        vlenChunks.add(copy(vlenUtf8.encode(v)));
        zarrsChunks.add(copy(zarrsVlen.encode(v)));
      }
      largest = Math.max(largest, vlenChunks.get(c).remaining());
    }
    copyTarget = ByteBuffer.allocateDirect((int) largest);
    for (int c = 0; c < zep7Chunks.size(); c++) {
      FieldVector v = zep7.decode(zep7Chunks.get(c).duplicate(), allocator);
      decoded.add(v);
      pieces.add(new Regions.Piece(v, new long[] {CHUNK}, Box.of(new long[] {CHUNK}), new long[] {(long) c * CHUNK}));
    }
    System.out.printf("%n[VlenBench] %s: %d strings, %d string bytes (%.1f MB) in %d chunks%n",
        text, COUNT, stringBytes, stringBytes / 1e6, zep7Chunks.size());
  }

  private byte[] randomString(Random random) {
    int length = random.nextInt(33);
    if (text.equals("ascii")) {
      byte[] out = new byte[length];
      for (int i = 0; i < length; i++) {
        out[i] = (byte) (0x20 + random.nextInt(0x5f));
      }
      return out;
    }
    StringBuilder s = new StringBuilder();
    int bytes = 0;
    while (true) {
      String c = UNICODE[random.nextInt(UNICODE.length)];
      int n = c.getBytes(StandardCharsets.UTF_8).length;
      if (bytes + n > length) {
        return s.toString().getBytes(StandardCharsets.UTF_8);
      }
      s.append(c);
      bytes += n;
    }
  }

  private static CodecPipeline pipeline(String codecsJson, CodecOptions options) {
    var list = Json.parse(codecsJson, "bench");
    List<NamedConfig> configs = new ArrayList<>();
    list.forEach(node -> configs.add(NamedConfig.parse(node, "/codecs")));
    var codecs = Registry.defaults().context(options).codecs(configs);
    return CodecPipeline.of(codecs, new ChunkSpec(new int[] {CHUNK}, VarLenType.STRING, VarLenType.STRING.defaultFill()), Registry.defaults().context(options));
  }

  private static ByteBuffer copy(ByteBuffer bytes) {
    return ByteBuffer.allocateDirect(bytes.remaining()).put(bytes.duplicate()).flip();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    decoded.forEach(FieldVector::close);
    allocator.close();
  }

  private long decodeAll(CodecPipeline pipeline, List<ByteBuffer> chunks) {
    long sum = 0;
    for (ByteBuffer chunk : chunks) {
      try (FieldVector v = pipeline.decode(chunk.duplicate(), allocator)) {
        sum += v.getDataBuffer().memoryAddress();
      }
    }
    return sum;
  }

  /** The baseline: copying the bytes of every vlen-utf8 chunk once. */
  @Benchmark
  public long memcpy() {
    long sum = 0;
    for (ByteBuffer chunk : vlenChunks) {
      copyTarget.clear();
      copyTarget.put(chunk.duplicate());
      sum += copyTarget.position();
    }
    return sum;
  }

  /**
   * The floor of the vlen-utf8 layout: only walking its length prefixes (where item i + 1 starts is
   * known once item i's length is read, one dependent load and add per item), copying nothing. No
   * decoder of the layout can be cheaper; compare vlenUtf8 with it and with memcpy.
   */
  @Benchmark
  public long lengthScan() {
    long sum = 0;
    for (ByteBuffer stored : vlenChunks) {
      ByteBuffer chunk = stored.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
      int n = chunk.getInt(0);
      int pos = 4;
      long out = 0;
      for (int i = 0; i < n; i++) {
        int length = chunk.getInt(pos);
        out += length;
        pos += 4 + length;
      }
      sum += out;
    }
    return sum;
  }

  /** What a read of the whole array does after decoding: the 16 chunks into one vector of 4M strings. */
  @Benchmark
  public long assembleWholeArray() {
    try (FieldVector all = Regions.assemble(VarLenType.STRING.field("all"), new long[] {COUNT}, pieces, allocator)) {
      return all.getDataBuffer().memoryAddress();
    }
  }

  @Benchmark
  public long zep7() {
    return decodeAll(zep7, zep7Chunks);
  }

  @Benchmark
  public long vlenUtf8() {
    return decodeAll(vlenUtf8, vlenChunks);
  }

  @Benchmark
  public long zarrsVlen() {
    return decodeAll(zarrsVlen, zarrsChunks);
  }

  /**
   * The same operations outside JMH, for a shared machine: process CPU time and wall time per
   * operation (best of {@code args[0]} rounds, default 5; {@code args[1]} a comma-separated list of the operations
   * to run besides memcpy, default all) for each text and UTF-8 setting, with each
   * operation's CPU time as a ratio to memcpy's.
   */
  public static void main(String[] args) {
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    java.util.Set<String> only = args.length > 1 ? java.util.Set.of(args[1].split(",")) : null;
    for (String text : new String[] {"ascii", "unicode"}) {
      for (boolean validate : new boolean[] {false, true}) {
        VlenBench b = new VlenBench();
        b.text = text;
        b.validateUtf8 = validate;
        b.setUp();
        try {
          java.util.Map<String, java.util.function.LongSupplier> ops = new java.util.LinkedHashMap<>();
          ops.put("memcpy", b::memcpy);
          ops.put("lengthScan", b::lengthScan);
          ops.put("zep7", b::zep7);
          ops.put("vlenUtf8", b::vlenUtf8);
          ops.put("zarrsVlen", b::zarrsVlen);
          ops.put("assembleWholeArray", b::assembleWholeArray);
          if (only != null) {
            ops.keySet().removeIf(name -> !name.equals("memcpy") && !only.contains(name));
          }
          java.util.Map<String, double[]> best = new java.util.LinkedHashMap<>();
          for (int round = 0; round < rounds; round++) {
            for (var op : ops.entrySet()) {
              for (int i = 0; i < 3; i++) {
                op.getValue().getAsLong();
              }
              int n = 20;
              long sys = threads.getCurrentThreadCpuTime() - threads.getCurrentThreadUserTime();
              long cpu = os.getProcessCpuTime();
              long wall = System.nanoTime();
              for (int i = 0; i < n; i++) {
                op.getValue().getAsLong();
              }
              double c = (os.getProcessCpuTime() - cpu) / 1e6 / n;
              double w = (System.nanoTime() - wall) / 1e6 / n;
              double k = (threads.getCurrentThreadCpuTime() - threads.getCurrentThreadUserTime() - sys) / 1e6 / n;
              best.merge(op.getKey(), new double[] {c, w, k},
                  (a, x) -> new double[] {Math.min(a[0], x[0]), Math.min(a[1], x[1]), Math.min(a[2], x[2])});
            }
          }
          double base = best.get("memcpy")[0];
          System.out.printf("%s, validateUtf8=%s: best of %d rounds of 20 (ms: process CPU, wall, this thread's kernel time; CPU vs memcpy)%n",
              text, validate, rounds);
          best.forEach((name, t) -> System.out.printf("  %-18s cpu %8.3f   wall %8.3f   kernel %8.3f   %5.2fx%n",
              name, t[0], t[1], t[2], t[0] / base));
        } finally {
          b.tearDown();
        }
      }
    }
  }
}
