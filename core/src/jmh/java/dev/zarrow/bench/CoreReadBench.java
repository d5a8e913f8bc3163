package dev.zarrow.bench;

import com.github.luben.zstd.ZstdDecompressCtx;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reading a 1-D float32 array of 64M elements in 1M-element zstd chunks from a directory store, as MB/s
 * of decoded data, next to the baseline of reading the same chunk files and decompressing them with
 * zstd-jni alone into one buffer of the whole array.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-XX:MaxDirectMemorySize=8g"})
public class CoreReadBench {
  static final int ELEMENTS = 64 << 20;
  static final int CHUNK = 1 << 20;
  static final long BYTES = 4L * ELEMENTS;

  /** The array on disk, written once per run. */
  @State(Scope.Benchmark)
  public static class Data {
    Path dir;
    FileSystemStore store;
    List<Path> chunkFiles = new ArrayList<>();
    BufferAllocator allocator;
    int maxCompressed;

    @Setup(Level.Trial)
    public void write() throws IOException {
      dir = BenchSupport.tempDir("core");
      store = FileSystemStore.open(dir);
      allocator = new RootAllocator();
      ZarrArray array = BenchSupport.temperatures(store, ELEMENTS, CHUNK, allocator);
      long stored = 0;
      for (long[] coords : array.chunks()) {
        Path file = dir.resolve(array.chunkKey(coords));
        chunkFiles.add(file);
        stored += Files.size(file);
        maxCompressed = (int) Math.max(maxCompressed, Files.size(file));
      }
      System.out.printf("%n[CoreReadBench] %d chunks, %.1f MB decoded, %.1f MB stored (ratio %.2f)%n",
          chunkFiles.size(), BYTES / 1e6, stored / 1e6, stored / (double) BYTES);
    }

    @TearDown(Level.Trial)
    public void delete() {
      store.close();
      allocator.close();
      BenchSupport.delete(dir);
    }
  }

  /** zarrow's reader with an executor of {@code threads} threads (1: the calling thread alone). */
  @State(Scope.Benchmark)
  public static class Reader {
    @Param({"1", "2"})
    public int threads;

    BenchSupport.ChunkThreads executor;
    ZarrArray array;

    @Setup(Level.Trial)
    public void open(Data data) {
      executor = new BenchSupport.ChunkThreads(threads);
      array = Zarr.openArray(data.store, "a", executor.options());
    }

    @TearDown(Level.Trial)
    public void close() {
      executor.close();
    }
  }

  @Benchmark
  public void zarrow(Data data, Reader reader, BenchSupport.Throughput mb, Blackhole bh) {
    try (NdVector all = reader.array.read(data.allocator)) {
      bh.consume(all.vector().getDataBuffer().getFloat(4L * (ELEMENTS - 1)));
    }
    mb.add(BYTES);
  }

  /**
   * Outside JMH: {@code args[0]} rounds (default 5) of baseline, zarrow on 1 thread and on 2, each
   * op's process CPU time and wall time, best of the rounds. On a machine shared with other work the
   * CPU time of one thread says what the wall time cannot; the 2-thread wall time needs idle cores.
   */
  public static void main(String[] args) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    CoreReadBench bench = new CoreReadBench();
    Data data = new Data();
    data.write();
    Reader one = new Reader();
    one.threads = 1;
    one.open(data);
    Reader two = new Reader();
    two.threads = 2;
    two.open(data);
    BenchSupport.Throughput mb = new BenchSupport.Throughput();
    Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    String[] names = {"baseline", "zarrow threads=1", "zarrow threads=2"};
    long[] cpu = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    long[] wall = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    // Per op, the CPU time of its busiest thread (the calling thread or a pool thread): the length of
    // its critical path if every thread had a core of its own, which neighbours' load does not stretch.
    long[] busiest = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    // Per op, the CPU time of all its threads together: more with 2 threads than with 1 is work that
    // parallelism adds; the busiest thread is also stretched when a neighbour takes one thread's core.
    long[] workers = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    try {
      for (int round = 0; round < rounds; round++) {
        for (int op = 0; op < 3; op++) {
          Reader reader = op == 2 ? two : one;
          long[] poolBefore = reader.executor.cpuTimes();
          long t = threads.getCurrentThreadCpuTime();
          long c = os.getProcessCpuTime();
          long w = System.nanoTime();
          switch (op) {
            case 0 -> bench.baseline(data, mb, bh);
            case 1 -> bench.zarrow(data, one, mb, bh);
            default -> bench.zarrow(data, two, mb, bh);
          }
          cpu[op] = Math.min(cpu[op], os.getProcessCpuTime() - c);
          wall[op] = Math.min(wall[op], System.nanoTime() - w);
          long most = threads.getCurrentThreadCpuTime() - t;
          long sum = most;
          long[] poolAfter = reader.executor.cpuTimes();
          for (int k = 0; k < poolAfter.length; k++) {
            long used = poolAfter[k] - (k < poolBefore.length ? poolBefore[k] : 0);
            most = Math.max(most, used);
            sum += used;
          }
          busiest[op] = Math.min(busiest[op], most);
          workers[op] = Math.min(workers[op], sum);
        }
      }
      for (int op = 0; op < 3; op++) {
        System.out.printf("%-18s cpu %7.1f ms (%6.0f MB/s, %.2fx baseline)   wall %7.1f ms (%6.0f MB/s, %.2fx baseline)"
                + "   busiest thread %7.1f ms, all its threads %7.1f ms%n",
            names[op], cpu[op] / 1e6, BYTES / (cpu[op] / 1e3), cpu[op] / (double) cpu[0],
            wall[op] / 1e6, BYTES / (wall[op] / 1e3), wall[op] / (double) wall[0], busiest[op] / 1e6, workers[op] / 1e6);
      }
      System.out.printf("2 threads vs 1: wall %.2fx faster; busiest thread %.2fx shorter; all threads' CPU %.2fx of 1 thread's"
              + " (2 / that = the speed-up two idle cores allow)%n",
          wall[1] / (double) wall[2], busiest[1] / (double) busiest[2], workers[2] / (double) workers[1]);
    } finally {
      one.close();
      two.close();
      data.delete();
    }
  }

  /** The same files read and decompressed by hand: one reused input buffer, one output buffer for the array. */
  @Benchmark
  public void baseline(Data data, BenchSupport.Throughput mb, Blackhole bh) throws IOException {
    ByteBuffer in = ByteBuffer.allocateDirect(data.maxCompressed);
    try (ArrowBuf out = data.allocator.buffer(BYTES);
        ZstdDecompressCtx zstd = new ZstdDecompressCtx()) {
      ByteBuffer whole = out.nioBuffer(0, (int) BYTES).order(ByteOrder.LITTLE_ENDIAN);
      int at = 0;
      for (Path file : data.chunkFiles) {
        try (FileChannel channel = FileChannel.open(file)) {
          in.clear();
          while (channel.read(in) >= 0 && in.hasRemaining()) {
            // read the whole file
          }
          in.flip();
        }
        at += zstd.decompressDirectByteBuffer(whole, at, 4 * CHUNK, in, 0, in.limit());
      }
      bh.consume(whole.getFloat(at - 4));
    }
    mb.add(BYTES);
  }
}
