package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.ZarrOptions;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

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
    producer.setWritesAllowed(true);
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
