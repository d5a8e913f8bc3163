package dev.zarrow.bench;

import dev.zarrow.codec.blosc.BloscDecoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding Blosc chunks on one thread, zarrow's Java decoder against c-blosc 1.21 itself (Debian's
 * libblosc1 through the foreign linker, {@link NativeBlosc}), both into one reused output buffer: 64 MB of
 * float32 temperatures in 16 chunks of 4 MB that c-blosc compressed at level 5, per compressor and shuffle.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms1g", "-Xmx1g",
    "-XX:MaxDirectMemorySize=4g", "--add-modules=jdk.incubator.foreign", "--enable-native-access=ALL-UNNAMED"})
public class BloscBench {
  static final int CHUNK = 1 << 20; // elements
  static final int CHUNKS = 16;

  @State(Scope.Benchmark)
  public static class Data {
    @Param({"lz4", "lz4hc", "blosclz", "zstd", "zlib"})
    String cname;

    @Param({"1", "0", "2"})
    int shuffle;

    final List<ByteBuffer> chunks = new ArrayList<>();
    ByteBuffer out;
    long stored;
    final BloscDecoder decoder = new BloscDecoder();

    @Setup
    public void setup() {
      out = ByteBuffer.allocateDirect(4 * CHUNK * CHUNKS);
      for (int c = 0; c < CHUNKS; c++) {
        ByteBuffer chunk = NativeBlosc.compress(temperatures(c), 4, cname, 5, shuffle);
        stored += chunk.remaining();
        chunks.add(ByteBuffer.allocateDirect(chunk.remaining()).put(chunk).flip());
      }
    }

    ByteBuffer target(int c) {
      return out.slice(4 * CHUNK * c, 4 * CHUNK);
    }
  }

  /**
   * Chunk {@code c} (128 rows of 8192) of a float32 field of temperatures in kelvin, as the README's
   * whole-process array ({@code numcodecs_blosc.py temperatures}, noise 8): smooth in latitude and
   * longitude plus noise, at full float precision, so the low mantissa bytes are noise as in real data
   * (c-blosc lz4 level 5 with shuffle stores about 0.75 of it).
   */
  static ByteBuffer temperatures(int c) {
    Random random = new Random(42 + c);
    int cols = 8192;
    int rows = CHUNK / cols;
    ByteBuffer b = ByteBuffer.allocateDirect(4 * CHUNK).order(ByteOrder.LITTLE_ENDIAN);
    for (int r = 0; r < rows; r++) {
      double lat = -Math.PI / 2 + Math.PI * (c * rows + r) / (rows * CHUNKS - 1);
      for (int x = 0; x < cols; x++) {
        double lon = 2 * Math.PI * x / (cols - 1);
        double sin = Math.sin(lat);
        double t = 288 - 30 * sin * sin + 5 * Math.sin(3 * lon) + 8 * random.nextGaussian();
        b.putFloat(4 * (r * cols + x), (float) t);
      }
    }
    return b;
  }

  @Benchmark
  public void zarrow(Data d, BenchSupport.Throughput mb) {
    for (int c = 0; c < CHUNKS; c++) {
      d.decoder.decodeInto(d.chunks.get(c).duplicate(), d.target(c), Runnable::run);
    }
    mb.add(4L * CHUNK * CHUNKS);
  }

  @Benchmark
  public void cBlosc(Data d, BenchSupport.Throughput mb) {
    for (int c = 0; c < CHUNKS; c++) {
      NativeBlosc.decompress(d.chunks.get(c), d.target(c));
    }
    mb.add(4L * CHUNK * CHUNKS);
  }

  /**
   * The same two decodes outside JMH, for a shared machine: per compressor and shuffle, the best thread
   * CPU time of {@code rounds} (default 15) after warm-up (then optionally the compressors and shuffle codes
   * to run, comma-separated), and the ratio of c-blosc's to zarrow's
   * throughput (above 1: zarrow is faster). Needs the fork's options (see src/jmh/README.md).
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    String[] cnames = args.length > 1 ? args[1].split(",") : new String[] {"lz4", "lz4hc", "blosclz", "zstd", "zlib"};
    int[] shuffles = args.length > 2 ? java.util.Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 0, 2};
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    System.out.println("| cname | shuffle | stored | c-blosc ms | zarrow ms | zarrow / c-blosc throughput |");
    System.out.println("|---|---|---|---|---|---|");
    for (String cname : cnames) {
      for (int shuffle : shuffles) {
        Data d = new Data();
        d.cname = cname;
        d.shuffle = shuffle;
        d.setup();
        long bestNative = Long.MAX_VALUE;
        long bestZarrow = Long.MAX_VALUE;
        for (int r = 0; r < rounds + 5; r++) {
          long t0 = cpu.getCurrentThreadCpuTime();
          for (int c = 0; c < CHUNKS; c++) {
            NativeBlosc.decompress(d.chunks.get(c), d.target(c));
          }
          long t1 = cpu.getCurrentThreadCpuTime();
          for (int c = 0; c < CHUNKS; c++) {
            d.decoder.decodeInto(d.chunks.get(c).duplicate(), d.target(c), Runnable::run);
          }
          long t2 = cpu.getCurrentThreadCpuTime();
          if (r >= 5) {
            bestNative = Math.min(bestNative, t1 - t0);
            bestZarrow = Math.min(bestZarrow, t2 - t1);
          }
        }
        System.out.printf("| %s | %s | %.2f | %.1f | %.1f | %.2f |%n", cname, new String[] {"noshuffle", "shuffle", "bitshuffle"}[shuffle],
            d.stored / (4.0 * CHUNK * CHUNKS), bestNative / 1e6, bestZarrow / 1e6, (double) bestNative / bestZarrow);
      }
    }
  }
}
