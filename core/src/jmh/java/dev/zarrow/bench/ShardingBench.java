package dev.zarrow.bench;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sharding on a directory store (reads come from the page cache after the first): a 64M-element
 * float32 array read whole as 16 shards of 4M elements in 64K-element inner chunks (zstd), against the
 * same data unsharded in 64K-element chunks (1024 files) and in 4M-element chunks (16 files); and one
 * inner chunk against one whole shard against one unsharded 64K chunk.
 *
 * <p>The arrays are written once into {@code -Dzarrow.bench.dir} (default
 * {@code target/sharding-bench}) and reused by later forks and runs; delete it to rewrite them.
 *
 * <p>{@link #main} runs the same operations outside JMH and reports the process CPU time per operation
 * next to the wall time: on a machine shared with other work the wall time says more about the
 * neighbours than about zarrow, the CPU time does not.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xmx1g", "-XX:MaxDirectMemorySize=3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ShardingBench {
  static final int SIZE = 64 << 20;
  static final int SHARD = 4 << 20;
  static final int INNER = 64 << 10;

  private FileSystemStore store;
  private BufferAllocator allocator;
  private ZarrArray sharded;
  private ZarrArray chunks64k;
  private ZarrArray chunks4m;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Path dir = Path.of(System.getProperty("zarrow.bench.dir", "target/sharding-bench"));
    store = FileSystemStore.open(dir);
    allocator = new RootAllocator();
    NamedConfig bytes = ArraySpec.defaultIndexCodecs().get(0);
    List<NamedConfig> zstd = List.of(bytes, ArraySpec.zstd(0));
    if (!Files.exists(dir.resolve("complete"))) {
      write(Zarr.createArray(store, "sharded", ArraySpec.of(FixedType.FLOAT32, SIZE).chunks(SHARD).codecs(List.of(
          ArraySpec.shardingIndexed(new int[] {INNER}, zstd)))));
      write(Zarr.createArray(store, "chunks64k", ArraySpec.of(FixedType.FLOAT32, SIZE).chunks(INNER).codecs(zstd)));
      write(Zarr.createArray(store, "chunks4m", ArraySpec.of(FixedType.FLOAT32, SIZE).chunks(SHARD).codecs(zstd)));
      Files.writeString(dir.resolve("complete"), "");
    }
    sharded = Zarr.openArray(store, "sharded");
    chunks64k = Zarr.openArray(store, "chunks64k");
    chunks4m = Zarr.openArray(store, "chunks4m");
  }

  /** A smooth signal with noise, rounded: compresses about as well as measured data does. */
  private void write(ZarrArray array) {
    Random random = new Random(42);
    try (Float4Vector slab = new Float4Vector("x", allocator)) {
      slab.allocateNew(SHARD);
      for (int offset = 0; offset < SIZE; offset += SHARD) {
        for (int i = 0; i < SHARD; i++) {
          double x = offset + i;
          slab.set(i, (float) (Math.round(Math.sin(x / 20000.0) * 1000 + random.nextGaussian() * 4) / 10.0));
        }
        slab.setValueCount(SHARD);
        array.write(offset, slab);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    allocator.close();
    store.close();
  }

  private static float read(ZarrArray array, long start, long length, BufferAllocator allocator) {
    try (NdVector v = array.read(new Box(new long[] {start}, new long[] {length}), allocator)) {
      return ((Float4Vector) v.vector()).get((int) length - 1);
    }
  }

  @Benchmark
  @Warmup(iterations = 1, time = 1)
  @Measurement(iterations = 5, time = 1)
  public float fullReadSharded() {
    return read(sharded, 0, SIZE, allocator);
  }

  @Benchmark
  @Warmup(iterations = 1, time = 1)
  @Measurement(iterations = 5, time = 1)
  public float fullReadChunks64k() {
    return read(chunks64k, 0, SIZE, allocator);
  }

  @Benchmark
  @Warmup(iterations = 1, time = 1)
  @Measurement(iterations = 5, time = 1)
  public float fullReadChunks4m() {
    return read(chunks4m, 0, SIZE, allocator);
  }

  /** Inner chunks in turn, so that no one stays in a CPU cache. */
  @Benchmark
  public float innerChunkOfShard() {
    next = (next + 37) % (SIZE / INNER);
    return read(sharded, (long) next * INNER, INNER, allocator);
  }

  @Benchmark
  public float wholeShard() {
    next = (next + 5) % (SIZE / SHARD);
    return read(sharded, (long) next * SHARD, SHARD, allocator);
  }

  @Benchmark
  public float oneChunk64k() {
    next = (next + 37) % (SIZE / INNER);
    return read(chunks64k, (long) next * INNER, INNER, allocator);
  }

  /** Process CPU time and wall time per operation, {@code args[0]} rounds (default 2). */
  public static void main(String[] args) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    ShardingBench b = new ShardingBench();
    b.setUp();
    try {
      java.util.Map<String, java.util.function.Supplier<Float>> ops = new java.util.LinkedHashMap<>();
      ops.put("fullReadSharded", b::fullReadSharded);
      ops.put("fullReadChunks64k", b::fullReadChunks64k);
      ops.put("fullReadChunks4m", b::fullReadChunks4m);
      ops.put("wholeShard", b::wholeShard);
      ops.put("innerChunkOfShard", b::innerChunkOfShard);
      ops.put("oneChunk64k", b::oneChunk64k);
      int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
      for (int round = 1; round <= rounds; round++) {
        System.out.println("round " + round + " (process CPU time and wall time per operation)");
        for (var op : ops.entrySet()) {
          int n = op.getKey().startsWith("full") ? 4 : op.getKey().equals("wholeShard") ? 32 : 1000;
          for (int i = 0; i < Math.max(1, n / 4); i++) {
            op.getValue().get();
          }
          System.gc();
          long cpu = os.getProcessCpuTime();
          long wall = System.nanoTime();
          for (int i = 0; i < n; i++) {
            op.getValue().get();
          }
          System.out.printf("  %-18s cpu %9.3f ms   wall %9.3f ms%n", op.getKey(),
              (os.getProcessCpuTime() - cpu) / 1e6 / n, (System.nanoTime() - wall) / 1e6 / n);
        }
      }
    } finally {
      b.tearDown();
    }
  }
}
