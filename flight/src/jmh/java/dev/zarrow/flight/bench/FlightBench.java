package dev.zarrow.flight.bench;

import dev.zarrow.ZarrGroup;
import dev.zarrow.flight.ZarrFlightProducer;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
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
 * Flight DoGet of a sharded group table ({@link BenchTable}: 8M rows, 8 shards, so 8 endpoints) over
 * loopback, fetching every endpoint, {@code streams} of them at a time:
 *
 * <ul>
 *   <li>{@code zarrow}: {@code ZarrFlightProducer} over the directory store (each endpoint read,
 *       decompressed, checked and decoded from its shard);
 *   <li>{@code memory}, the ceiling: the same batches held in memory as record batches and streamed by
 *       a producer built the way Arrow's own in-memory example does it (Arrow's Flight integration
 *       producer: a {@code VectorLoader} into one root, {@code putNext} per batch), one endpoint per
 *       shard too.
 * </ul>
 *
 * MB/s counts the Arrow data received (every buffer of every batch).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-XX:MaxDirectMemorySize=4g"})
@State(Scope.Benchmark)
public class FlightBench {
  static final int ROWS = 8 << 20;

  @Param({"1", "2"})
  int streams;

  Path dir;
  BufferAllocator allocator;
  FileSystemStore store;
  ZarrFlightProducer zarrow;
  MemoryProducer memory;
  FlightServer zarrowServer;
  FlightServer memoryServer;
  FlightClient zarrowClient;
  FlightClient memoryClient;
  List<FlightEndpoint> zarrowEndpoints;
  List<FlightEndpoint> memoryEndpoints;
  ExecutorService pool;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = FlightBenchSupport.tempDir("flight");
    allocator = new RootAllocator();
    store = FileSystemStore.open(dir);
    ZarrGroup group = BenchTable.write(store, "t", ROWS, allocator);
    zarrow = new ZarrFlightProducer(store, allocator);
    zarrowServer = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), zarrow).build().start();
    memory = new MemoryProducer(group, allocator);
    memoryServer = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), memory).build().start();
    zarrowClient = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", zarrowServer.getPort())).build();
    memoryClient = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", memoryServer.getPort())).build();
    zarrowEndpoints = zarrowClient.getInfo(FlightDescriptor.path("t")).getEndpoints();
    memoryEndpoints = memory.endpoints();
    pool = FlightBenchSupport.pool(streams);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    pool.shutdownNow();
    AutoCloseables.close(zarrowClient, memoryClient, zarrowServer, memoryServer, zarrow, memory, store, allocator);
    FlightBenchSupport.delete(dir);
  }

  @Benchmark
  public void zarrow(FlightBenchSupport.Throughput throughput) throws Exception {
    throughput.add(fetchAll(zarrowClient, zarrowEndpoints));
  }

  @Benchmark
  public void memory(FlightBenchSupport.Throughput throughput) throws Exception {
    throughput.add(fetchAll(memoryClient, memoryEndpoints));
  }

  /** Every endpoint, {@code streams} at a time; the bytes of Arrow data received. */
  private long fetchAll(FlightClient client, List<FlightEndpoint> endpoints) throws Exception {
    List<Future<Long>> parts = new ArrayList<>();
    for (FlightEndpoint endpoint : endpoints) {
      parts.add(pool.submit(() -> fetch(client, endpoint.getTicket())));
    }
    long bytes = 0;
    for (Future<Long> part : parts) {
      bytes += part.get();
    }
    return bytes;
  }

  private static long fetch(FlightClient client, Ticket ticket) throws Exception {
    long bytes = 0;
    try (FlightStream stream = client.getStream(ticket)) {
      VectorSchemaRoot root = stream.getRoot();
      while (stream.next()) {
        for (var v : root.getFieldVectors()) {
          bytes += v.getBufferSize();
        }
      }
    }
    return bytes;
  }

  /**
   * Outside JMH, for a shared machine: {@code rounds} (default 7) interleaved rounds of fetching every
   * endpoint from each server, {@code streams} (default 1) at a time; per side the best wall time and
   * the process CPU time (server, client and gRPC together) and minor page faults of that round, and
   * the ratios ({@code -Drounds=true} prints every round); a third
   * argument, {@code zarrow} or {@code memory}, runs that side alone (for a profiler).
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    for (String streams : args.length > 1 ? args[1].split(",") : new String[] {"1", "2"}) {
      FlightBench b = new FlightBench();
      b.streams = Integer.parseInt(streams);
      b.setUp();
      double[][] best = {{Double.MAX_VALUE, 0, 0}, {Double.MAX_VALUE, 0, 0}};
      long bytes = 0;
      for (int round = 0; round < rounds + 2; round++) {
        for (int side = 0; side < 2; side++) {
          if (args.length > 2 && !args[2].equals(side == 0 ? "zarrow" : "memory")) {
            continue; // one side alone, for a profiler
          }
          long cpu0 = os.getProcessCpuTime();
          long faults0 = FlightBenchSupport.minorFaults();
          long t0 = System.nanoTime();
          bytes = side == 0 ? b.fetchAll(b.zarrowClient, b.zarrowEndpoints) : b.fetchAll(b.memoryClient, b.memoryEndpoints);
          double wall = (System.nanoTime() - t0) / 1e6;
          double cpu = (os.getProcessCpuTime() - cpu0) / 1e6;
          double faults = FlightBenchSupport.minorFaults() - faults0;
          if (Boolean.getBoolean("rounds")) {
            System.out.printf("  round %d %s: %.0f ms, cpu %.0f ms, %.0f page faults%n", round, side == 0 ? "zarrow" : "memory",
                wall, cpu, faults);
          }
          if (round >= 2 && wall < best[side][0]) { // two warm-up rounds
            best[side] = new double[] {wall, cpu, faults};
          }
        }
      }
      System.out.printf("streams %s: zarrow %.0f ms (cpu %.0f ms, %.0f MB/s, %.0f page faults), memory %.0f ms (cpu %.0f ms,"
          + " %.0f MB/s, %.0f page faults): zarrow at %.2fx the ceiling's rate, %.2fx its CPU%n", streams, best[0][0], best[0][1],
          bytes / best[0][0] / 1e3, best[0][2], best[1][0], best[1][1], bytes / best[1][0] / 1e3, best[1][2],
          best[1][0] / best[0][0], best[0][1] / best[1][1]);
      b.tearDown();
    }
  }

  /**
   * The ceiling: the batches zarrow sends (one endpoint per shard, a batch per inner chunk, read once
   * at setup) held as record batches and streamed from memory the way Arrow's in-memory integration
   * producer does, on the gRPC thread.
   */
  static final class MemoryProducer extends NoOpFlightProducer implements AutoCloseable {
    private final BufferAllocator allocator;
    private final Schema schema;
    private final List<List<ArrowRecordBatch>> endpoints = new ArrayList<>();

    MemoryProducer(ZarrGroup group, BufferAllocator allocator) throws Exception {
      this.allocator = allocator;
      try (TableReader reader = TableReader.of(group, allocator)) {
        schema = reader.getVectorSchemaRoot().getSchema();
        for (long from = 0; from < reader.rows(); from += BenchTable.SHARD_ROWS) {
          List<ArrowRecordBatch> batches = new ArrayList<>();
          endpoints.add(batches);
          long to = Math.min(reader.rows(), from + BenchTable.SHARD_ROWS);
          try (TableReader part = TableReader.of(group, allocator, null, BenchTable.CHUNK_ROWS, from, to)) {
            while (part.loadNextBatch()) {
              batches.add(new VectorUnloader(part.getVectorSchemaRoot()).getRecordBatch());
            }
          }
        }
      }
    }

    List<FlightEndpoint> endpoints() {
      List<FlightEndpoint> out = new ArrayList<>();
      for (int i = 0; i < endpoints.size(); i++) {
        out.add(new FlightEndpoint(new Ticket(new byte[] {(byte) i})));
      }
      return out;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        listener.start(root);
        VectorLoader loader = new VectorLoader(root);
        for (ArrowRecordBatch batch : endpoints.get(ticket.getBytes()[0])) {
          loader.load(batch);
          listener.putNext();
        }
        listener.completed();
      }
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
      return new FlightInfo(schema, descriptor, endpoints(), -1, ROWS);
    }

    @Override
    public void close() throws Exception {
      for (List<ArrowRecordBatch> batches : endpoints) {
        AutoCloseables.close(batches);
      }
    }
  }
}
