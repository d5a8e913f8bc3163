package dev.zarrow.bench;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.codec.vlen.VlenInterleavedCodec;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Issue 14's sharded strings: 4M random ASCII strings of 0..32 bytes (about 67 MB stored) in vlen-utf8,
 * once as 16 chunks of 256K ({@code plain}, the baseline) and once as 4 shards of 4 such inner chunks
 * with a crc32c index ({@code sharded}), in one directory store. Per layout:
 *
 * <ul>
 *   <li>{@code *Read}: {@code ZarrArray.read} of the whole array (one vector of 4M strings);
 *   <li>{@code *Check}: what {@code zarrow check} does per stored chunk: a task on the executor reads
 *       it and decodes it ({@code CodecPipeline.verify}), nothing kept.
 * </ul>
 *
 * {@code threads}: 1 (the calling thread alone) or 2 (a pool of two). Compare sharded with plain in the
 * same run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 4)
@Measurement(iterations = 3, time = 6)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-XX:MaxDirectMemorySize=4g"})
public class ShardedStringsBench {
  static final int COUNT = 4 << 20;
  static final int INNER = 256 << 10;
  static final int SHARD = 4 * INNER;

  /** Both arrays on disk, written once per run. */
  @State(Scope.Benchmark)
  public static class Data {
    Path dir;
    FileSystemStore store;
    BufferAllocator allocator;
    long stringBytes;

    @Setup(Level.Trial)
    public void write() {
      dir = BenchSupport.tempDir("sharded-strings");
      store = FileSystemStore.open(dir);
      allocator = new RootAllocator();
      NamedConfig vlen = VlenInterleavedCodec.metadata("vlen-utf8");
      ZarrArray plain = Zarr.createArray(store, "plain",
          ArraySpec.of(VarLenType.STRING, COUNT).chunks(INNER).codecs(List.of(vlen)));
      ZarrArray sharded = Zarr.createArray(store, "sharded", ArraySpec.of(VarLenType.STRING, COUNT).chunks(SHARD)
          .codecs(List.of(ArraySpec.shardingIndexed(new int[] {INNER}, List.of(vlen)))));
      Random random = new Random(42);
      try (VarCharVector v = new VarCharVector("s", allocator)) {
        for (int s = 0; s < COUNT / SHARD; s++) {
          v.allocateNew();
          for (int i = 0; i < SHARD; i++) {
            byte[] string = new byte[random.nextInt(33)];
            for (int b = 0; b < string.length; b++) {
              string[b] = (byte) (0x20 + random.nextInt(0x5f));
            }
            v.setSafe(i, string);
            stringBytes += string.length;
          }
          v.setValueCount(SHARD);
          sharded.write((long) s * SHARD, v);
          plain.write((long) s * SHARD, v);
        }
      }
      System.out.printf("%n[ShardedStringsBench] %d strings, %.1f MB of string bytes%n", COUNT, stringBytes / 1e6);
    }

    @TearDown(Level.Trial)
    public void delete() {
      store.close();
      allocator.close();
      BenchSupport.delete(dir);
    }
  }

  /** The two arrays opened with an executor of {@code threads} threads (1: the calling thread alone). */
  @State(Scope.Benchmark)
  public static class Arrays {
    @Param({"1", "2"})
    public int threads;

    BenchSupport.ChunkThreads executor;
    ZarrArray plain;
    ZarrArray sharded;

    @Setup(Level.Trial)
    public void open(Data data) {
      executor = new BenchSupport.ChunkThreads(threads);
      plain = Zarr.openArray(data.store, "plain", executor.options());
      sharded = Zarr.openArray(data.store, "sharded", executor.options());
    }

    @TearDown(Level.Trial)
    public void close() {
      executor.close();
    }
  }

  @Benchmark
  public void plainRead(Data data, Arrays arrays, BenchSupport.Throughput mb, Blackhole bh) {
    read(arrays.plain, data, mb, bh);
  }

  @Benchmark
  public void shardedRead(Data data, Arrays arrays, BenchSupport.Throughput mb, Blackhole bh) {
    read(arrays.sharded, data, mb, bh);
  }

  @Benchmark
  public void plainCheck(Data data, Arrays arrays, BenchSupport.Throughput mb) {
    check(arrays.plain, data, mb);
  }

  @Benchmark
  public void shardedCheck(Data data, Arrays arrays, BenchSupport.Throughput mb) {
    check(arrays.sharded, data, mb);
  }

  static void read(ZarrArray array, Data data, BenchSupport.Throughput mb, Blackhole bh) {
    try (NdVector all = array.read(data.allocator)) {
      bh.consume(((VarCharVector) all.vector()).getEndOffset(COUNT - 1));
    }
    mb.add(data.stringBytes);
  }

  /** As {@code CheckCommand} verifies an array: one task per stored chunk on the array's executor. */
  static void check(ZarrArray array, Data data, BenchSupport.Throughput mb) {
    Executor executor = array.options().executor();
    List<CompletableFuture<Void>> tasks = new ArrayList<>();
    for (long[] coords : array.chunks()) {
      tasks.add(CompletableFuture.runAsync(() -> {
        ByteBuffer stored = data.store.get(array.chunkKey(coords)).orElseThrow();
        array.pipeline().verify(stored, data.allocator);
      }, executor));
    }
    CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).join();
    mb.add(data.stringBytes);
  }

  /**
   * Outside JMH: {@code args[0]} rounds (default 5) of every operation on 1 and 2 threads, interleaved,
   * printing each one's best process CPU time and wall time and the sharded/plain ratios.
   */
  public static void main(String[] args) {
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Data data = new Data();
    data.write();
    Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    BenchSupport.Throughput mb = new BenchSupport.Throughput();
    String[] ops = {"plainRead", "shardedRead", "plainCheck", "shardedCheck"};
    try {
      for (int threads : new int[] {1, 2}) {
        Arrays arrays = new Arrays();
        arrays.threads = threads;
        arrays.open(data);
        long[] cpu = new long[ops.length];
        long[] wall = new long[ops.length];
        java.util.Arrays.fill(cpu, Long.MAX_VALUE);
        java.util.Arrays.fill(wall, Long.MAX_VALUE);
        try {
          for (int round = 0; round < rounds; round++) {
            for (int op = 0; op < ops.length; op++) {
              long c = os.getProcessCpuTime();
              long w = System.nanoTime();
              switch (op) {
                case 0 -> read(arrays.plain, data, mb, bh);
                case 1 -> read(arrays.sharded, data, mb, bh);
                case 2 -> check(arrays.plain, data, mb);
                default -> check(arrays.sharded, data, mb);
              }
              cpu[op] = Math.min(cpu[op], os.getProcessCpuTime() - c);
              wall[op] = Math.min(wall[op], System.nanoTime() - w);
            }
          }
        } finally {
          arrays.close();
        }
        for (int op = 0; op < ops.length; op++) {
          int base = op & ~1;
          System.out.printf("threads=%d %-13s cpu %7.1f ms (%.2fx plain)   wall %7.1f ms (%.2fx plain)%n", threads, ops[op],
              cpu[op] / 1e6, cpu[op] / (double) cpu[base], wall[op] / 1e6, wall[op] / (double) wall[base]);
        }
      }
    } finally {
      data.delete();
    }
  }
}
