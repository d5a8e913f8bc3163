package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.ZarrOptions;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.StreamSnapshot;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A Flight server on loopback over a directory store, with its own allocator, and clients that see
 * the gRPC status code of each call (Arrow Java's client maps {@code DATA_LOSS} to {@code INTERNAL}).
 */
final class FlightFixture implements AutoCloseable {
  final Path dir;
  final FileSystemStore store;
  final BufferAllocator serverMemory = new RootAllocator(Long.MAX_VALUE);
  final ZarrFlightProducer producer;
  final FlightServer server;
  final Location location;
  /** The gRPC status of the last call a client of {@link #client} finished. */
  final AtomicReference<Status> lastStatus = new AtomicReference<>();

  FlightFixture(Path dir, TableOptions writeOptions) throws Exception {
    this.dir = dir;
    this.store = FileSystemStore.open(dir);
    this.producer = new ZarrFlightProducer(store, ZarrOptions.defaults(), writeOptions, serverMemory);
    this.server = FlightServer.builder(serverMemory, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
    this.location = Location.forGrpcInsecure("127.0.0.1", server.getPort());
    producer.setLocations(List.of(location));
  }

  /** A client over loopback; the caller closes it. */
  FlightClient client(BufferAllocator allocator) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext()
        .maxInboundMessageSize(Integer.MAX_VALUE).intercept(new StatusRecorder()).build();
    return FlightGrpcUtils.createFlightClient(allocator, channel);
  }

  /** The gRPC code a call answered: runs it, expecting a failure. */
  Status.Code failureOf(Runnable call) {
    lastStatus.set(null);
    try {
      call.run();
    } catch (FlightRuntimeException expected) {
      Status status = lastStatus.get();
      if (status == null) {
        fail("no status recorded for " + expected);
      }
      return status.getCode();
    }
    return fail("the call succeeded");
  }

  /** Waits until the server's calls released their memory (a stream's thread ends just after the client sees its end). */
  void assertServerMemoryFreed() throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline
        && (serverMemory.getAllocatedMemory() != 0 || !serverMemory.getChildAllocators().isEmpty())) {
      Thread.sleep(20);
    }
    assertEquals(0, serverMemory.getAllocatedMemory(), () -> "server memory: " + serverMemory.toVerboseString());
    assertEquals(List.of(), List.copyOf(serverMemory.getChildAllocators()), () -> serverMemory.toVerboseString());
  }

  @Override
  public void close() throws Exception {
    server.shutdown();
    server.awaitTermination();
    producer.close();
    store.close();
    serverMemory.close();
  }

  /**
   * Puts every batch of {@code source} (read here to its end, not closed) as the table at {@code
   * path}; returns the server's answer. The first batch is loaded before the put starts: the client
   * sends the dictionaries with the schema.
   */
  static String put(FlightClient client, String path, ArrowReader source) throws Exception {
    VectorSchemaRoot root = source.getVectorSchemaRoot();
    boolean more = source.loadNextBatch();
    try (SyncPutListener answer = new SyncPutListener()) {
      FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path(path), root, source, answer);
      while (more) {
        put.putNext();
        more = source.loadNextBatch();
      }
      put.completed();
      put.getResult();
      try (PutResult result = answer.read()) {
        if (result == null) {
          return null;
        }
        byte[] bytes = new byte[(int) result.getApplicationMetadata().readableBytes()];
        result.getApplicationMetadata().getBytes(0, bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * Every endpoint of {@code info} fetched in order, as one stream; each stream's schema must be the
   * info's (compared as Arrow Java compares schemas: it reads schema metadata into a hash map, in no
   * order).
   */
  static StreamSnapshot fetchAll(FlightClient client, FlightInfo info) throws Exception {
    List<StreamSnapshot> parts = new ArrayList<>();
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      parts.add(fetch(client, endpoint, info.getSchema()));
    }
    return parts.isEmpty() ? new StreamSnapshot.Collector(info.getSchema()).finish() : StreamSnapshot.concat(parts);
  }

  /** One endpoint's stream, whose schema must be {@code schema}. */
  static StreamSnapshot fetch(FlightClient client, FlightEndpoint endpoint, Schema schema) throws Exception {
    try (FlightStream stream = client.getStream(endpoint.getTicket())) {
      VectorSchemaRoot root = stream.getRoot();
      Schema stored = TableWriter.storedSchema(root.getSchema(), stream.getDictionaryProvider());
      assertEquals(schema, stored, "the schema of the stream of " + endpoint);
      StreamSnapshot.Collector collector = new StreamSnapshot.Collector(stored);
      while (stream.next()) {
        collector.add(root, stream.getDictionaryProvider());
      }
      return collector.finish();
    }
  }

  /** Records the status every call of the channel closes with. */
  private final class StatusRecorder implements ClientInterceptor {
    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
      return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<A> listener, Metadata headers) {
          super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
            @Override
            public void onClose(Status status, Metadata trailers) {
              lastStatus.set(status);
              super.onClose(status, trailers);
            }
          }, headers);
        }
      };
    }
  }
}
