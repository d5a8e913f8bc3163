package dev.zarrow.bench;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.NdVector;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.ArrayReader;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
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
 * Streaming an array with {@link ArrayReader}: a 1-D float32 array of 16M elements in 1M-element zstd
 * chunks in a directory store, read batch by batch (a batch per chunk) by a consumer that sums every
 * batch. {@code readAhead}: the reader on a pool of 2 threads, so the next chunks decode while the
 * consumer sums; baseline {@code chunkLoop}: the same chunks read one after the other with {@code
 * ZarrArray.readChunk} on the calling thread and summed (what one would write by hand); {@code
 * sequentialReader}: the reader with a direct executor (no overlap), to show what the reader itself costs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED",
    "-Xms1g", "-Xmx1g", "-XX:MaxDirectMemorySize=4g"})
public class ArrayReaderBench {
  static final int ELEMENTS = 16 << 20;
  static final int CHUNK = 1 << 20;
  static final long BYTES = 4L * ELEMENTS;

  @State(Scope.Benchmark)
  public static class Data {
    Path dir;
    FileSystemStore store;
    BufferAllocator allocator;
    ExecutorService pool;
    ZarrArray pooled;
    ZarrArray direct;

    @Setup(Level.Trial)
    public void write() {
      dir = BenchSupport.tempDir("array-reader");
      store = FileSystemStore.open(dir);
      allocator = new RootAllocator();
      BenchSupport.temperatures(store, ELEMENTS, CHUNK, allocator);
      pool = BenchSupport.pool(2);
      pooled = Zarr.openArray(store, "a", ZarrOptions.defaults().withExecutor(pool));
      direct = Zarr.openArray(store, "a", ZarrOptions.defaults().withExecutor(Runnable::run));
    }

    @TearDown(Level.Trial)
    public void delete() {
      pool.shutdownNow();
      store.close();
      allocator.close();
      BenchSupport.delete(dir);
    }
  }

  /** The consumer's work on a batch: a plain sum over the data buffer. */
  static double sum(Float4Vector v) {
    double s = 0;
    var data = v.getDataBuffer();
    for (int i = 0; i < v.getValueCount(); i++) {
      s += data.getFloat(4L * i);
    }
    return s;
  }

  static double stream(ZarrArray array, BufferAllocator allocator) throws Exception {
    double s = 0;
    try (ArrayReader reader = ArrayReader.of(array, allocator)) {
      Float4Vector v = (Float4Vector) reader.getVectorSchemaRoot().getVector(0);
      while (reader.loadNextBatch()) {
        s += sum(v);
      }
    }
    return s;
  }

  @Benchmark
  public double readAhead(Data data, BenchSupport.Throughput mb) throws Exception {
    mb.add(BYTES);
    return stream(data.pooled, data.allocator);
  }

  @Benchmark
  public double sequentialReader(Data data, BenchSupport.Throughput mb) throws Exception {
    mb.add(BYTES);
    return stream(data.direct, data.allocator);
  }

  @Benchmark
  public double chunkLoop(Data data, BenchSupport.Throughput mb) {
    mb.add(BYTES);
    double s = 0;
    for (long c = 0; c < ELEMENTS / CHUNK; c++) {
      try (NdVector chunk = data.direct.readChunk(new long[] {c}, data.allocator)) {
        s += sum((Float4Vector) chunk.vector());
      }
    }
    return s;
  }
}
