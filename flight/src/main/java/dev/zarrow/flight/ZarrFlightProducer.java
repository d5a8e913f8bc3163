package dev.zarrow.flight;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableOptions;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.table.TableReader;
import dev.zarrow.table.TableWriter;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Zarr arrays and group tables of one store as Arrow Flight data sets: a {@link
 * org.apache.arrow.flight.FlightProducer} for any Flight server ({@code zarrow serve} runs one).
 *
 * <ul>
 *   <li><b>Descriptors</b> are path descriptors of one element, the slash-separated node path
 *       ({@code tables/people}; {@code ""} or {@code "/"} is the root).
 *   <li><b>GetFlightInfo</b> and <b>GetSchema</b>: the schema {@code zarrow export} writes for the node
 *       (a group table's exact stored schema, or an array's one column, see {@link TableReader} and
 *       {@link ArrayReader}), {@code total_records}, and one endpoint per shard (or chunk, when
 *       unsharded) along dimension 0 (the reader's {@code chunkRows}), in row
 *       order ({@code ordered} is set). Each endpoint has an opaque ticket that any server over the same
 *       store redeems, and the advertised {@link #setLocations locations}. Concatenating {@code DoGet}
 *       of every endpoint in order gives exactly the rows of {@code zarrow export}.
 *   <li><b>Datasets</b>: a group that holds no table but is a gridded dataset ({@link Dataset}, xarray's
 *       arrays with dimension names) is the flight of its table ({@link DatasetTable}, every data
 *       variable, CF-decoded: what {@code zarrow export --dataset} writes), with one endpoint per chunk
 *       of the grid (several chunks each past {@link #MAX_ENDPOINTS}), in the table's chunk order.
 *   <li><b>ListFlights</b>: one FlightInfo per array, per group table (a group that claims one,
 *       {@link TableReader#holdsTable}) and per dataset, at and below the node path
 *       the criteria spell in UTF-8 (empty: the whole store). A table's column arrays are arrays too.
 *   <li><b>DoGet</b> streams the ticket's rows, decoding ahead in parallel, at the pace the client
 *       reads (backpressure: at most the reader's read-ahead is decoded ahead of the network). A
 *       client that goes away stops the decoding and releases everything. With dictionary-encoded
 *       columns an endpoint is one batch: Flight Java sends dictionaries once, at a stream's start.
 *   <li><b>DoPut</b>, once {@link #setWritesAllowed allowed} (a producer is read-only until then:
 *       {@code PERMISSION_DENIED}, before anything is read or written), writes the stream as a group
 *       table at the descriptor's path, as {@code zarrow import} does ({@link TableWriter}, laid out by the producer's {@link TableOptions}); the table
 *       is claimed (its {@code zarrow_table} attribute written) only when the stream ends cleanly, and
 *       a put that fails removes what it wrote. An existing node is {@code ALREADY_EXISTS}. The
 *       answer is one {@code PutResult} whose metadata is {@code {"path":P,"rows":N}}.
 *   <li>Errors answer gRPC status codes ({@code NOT_FOUND}, {@code DATA_LOSS}, {@code
 *       INVALID_ARGUMENT}, ... see {@link FlightErrors}); Arrow Java's client shows {@code DATA_LOSS} as
 *       {@code INTERNAL}, other clients as it is.
 * </ul>
 *
 * <p>Ownership: the store and the allocator are borrowed; the caller closes them after the server
 * and this producer. Each call takes its memory from a child allocator of {@code allocator}, named
 * after the call and closed when the call ends, so that after the calls the allocator holds nothing.
 * DoGet hands each batch's buffers to gRPC without a copy (zero-copy): gRPC holds them until they are
 * written to the socket, and the call's allocator closes once gRPC released the last of them.
 * {@link #close} stops the threads that stream {@code DoGet} calls; close the Flight server (which
 * waits for the calls in flight) first.
 */
public final class ZarrFlightProducer extends NoOpFlightProducer implements AutoCloseable {
  private final Store store;
  private final ZarrOptions options;
  private final TableOptions writeOptions;
  private final BufferAllocator allocator;
  private final ExecutorService streams;
  private final ScheduledExecutorService timers;
  private final Set<String> puts = ConcurrentHashMap.newKeySet();
  private volatile List<Location> locations = List.of();
  private volatile int batchRows;
  private volatile boolean writesAllowed;
  private volatile long maxPutBytes = Long.MAX_VALUE;
  private volatile Duration idleTimeout = Duration.ZERO;

  /**
   * A producer over {@code store} (borrowed), reading and writing with {@code options}, laying out
   * tables put by clients with {@code writeOptions}, its memory from {@code allocator} (borrowed).
   */
  public ZarrFlightProducer(Store store, ZarrOptions options, TableOptions writeOptions, BufferAllocator allocator) {
    this.store = store;
    this.options = options;
    this.writeOptions = writeOptions;
    this.allocator = allocator;
    AtomicInteger count = new AtomicInteger();
    // DoGet runs here, not on gRPC's thread: gRPC tells a call's readiness on that thread.
    this.streams = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "zarrow-flight-doget-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "zarrow-flight-idle");
      t.setDaemon(true);
      return t;
    });
  }

  /** A producer over {@code store} with the default options. */
  public ZarrFlightProducer(Store store, BufferAllocator allocator) {
    this(store, ZarrOptions.defaults(), TableOptions.defaults(), allocator);
  }

  /**
   * The locations every endpoint lists from now on: typically the server's own (known once it is
   * started, when it bound port 0), then those of other servers over the same store. None: clients
   * redeem tickets where they got them (the Flight rule for an endpoint without locations).
   */
  public void setLocations(List<Location> where) {
    this.locations = List.copyOf(where);
  }

  public List<Location> locations() {
    return locations;
  }

  /**
   * The rows of each batch {@code DoGet} sends from now on; 0, the default: an inner chunk's rows
   * along dimension 0 when the node (a table's first column) is sharded, so that the next inner
   * chunks decode while one is sent, else a chunk's rows. Batches are cut at multiples of the rows.
   */
  public void setBatchRows(int rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("batch rows " + rows + " is negative");
    }
    this.batchRows = rows;
  }

  /**
   * Whether {@code DoPut} may write into the store from now on; {@code false}, the default, answers
   * every put {@code PERMISSION_DENIED} before the stream is read or the store touched. Allow writes only
   * where the server authenticates its callers (or every caller may change the store).
   */
  public void setWritesAllowed(boolean allowed) {
    this.writesAllowed = allowed;
  }

  /**
   * The most bytes of Arrow data (the batches' buffers) one {@code DoPut} may bring; past it the put is
   * {@code RESOURCE_EXHAUSTED} and what it wrote is removed. Unlimited by default.
   */
  public void setMaxPutBytes(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("max put bytes " + bytes + " is not positive");
    }
    this.maxPutBytes = bytes;
  }

  /**
   * How long a {@code DoPut} waits for a client that sends nothing before the call ends {@code
   * DEADLINE_EXCEEDED} and what it wrote is removed; {@link Duration#ZERO}, the default, waits for ever.
   * (A {@code DoGet} whose client stops reading waits on gRPC's flow control; a connection that dies is
   * found by the server's keep-alive, which {@code zarrow serve} sets.)
   */
  public void setIdleTimeout(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("idle timeout " + timeout + " is negative");
    }
    this.idleTimeout = timeout;
  }

  @Override
  public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
    return call(() -> info(open(pathOf(descriptor))));
  }

  @Override
  public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
    return call(() -> new SchemaResult(schema(open(pathOf(descriptor)))));
  }

  @Override
  public void listFlights(CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
    try {
      byte[] expression = criteria.getExpression();
      String path = normalize(expression == null ? "" : new String(expression, StandardCharsets.UTF_8));
      Optional<ZarrNode> top = Zarr.tryOpen(store, path, options);
      if (top.isPresent()) {
        list(top.get(), listener);
      }
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toStatus(e, FlightErrors.Side.READ));
    }
  }

  private void list(ZarrNode node, StreamListener<FlightInfo> listener) {
    if (node instanceof ZarrArray) {
      listener.onNext(info(node));
      return;
    }
    ZarrGroup group = (ZarrGroup) node;
    if (isTable(group) || isDataset(group)) {
      listener.onNext(info(group));
    }
    for (ZarrNode child : group.children().all().values()) {
      list(child, listener);
    }
  }

  /** A group that claims a table: a {@code zarrow_table} attribute (written last) or an AnnData dataframe. */
  private static boolean isTable(ZarrGroup group) {
    return TableReader.holdsTable(group);
  }

  /** A group that holds no table and is a gridded dataset. */
  private static boolean isDataset(ZarrGroup group) {
    return !isTable(group) && Dataset.isDataset(group);
  }

  /** The table of every data variable of a dataset group. */
  private static DatasetTable datasetTable(ZarrGroup group) {
    return Dataset.open(group).table();
  }

  /**
   * The node's schema, rows and one endpoint per chunk (shard) row range along dimension 0, in row
   * order; past {@link #MAX_ENDPOINTS} chunks, each endpoint takes several whole chunks, so that a huge
   * grid never makes a huge list. A dataset: one endpoint per chunk range of its grid.
   */
  private FlightInfo info(ZarrNode node) {
    if (node instanceof ZarrGroup g && isDataset(g)) {
      DatasetTable table = datasetTable(g);
      Location[] where = locations.toArray(Location[]::new);
      List<FlightEndpoint> endpoints = new ArrayList<>();
      long chunks = table.chunkCount();
      long step = endpointRows(chunks, 1);
      for (long from = 0; from < chunks; from += Math.min(step, chunks - from)) {
        endpoints.add(new FlightEndpoint(Tickets.of(node.path(), from, from + Math.min(step, chunks - from), true), where));
      }
      return new FlightInfo(table.schema(), FlightDescriptor.path(node.path()), endpoints, -1, table.rows(), true, IpcOption.DEFAULT);
    }
    Shape shape = shape(node);
    Location[] where = locations.toArray(Location[]::new);
    List<FlightEndpoint> endpoints = new ArrayList<>();
    long step = endpointRows(shape.rows(), shape.chunkRows());
    for (long from = 0; from < shape.rows(); ) {
      long to = from + Math.min(step, shape.rows() - from); // never past rows, so never wraps
      endpoints.add(new FlightEndpoint(Tickets.of(node.path(), from, to), where));
      from = to;
    }
    return new FlightInfo(shape.schema(), FlightDescriptor.path(node.path()), endpoints, -1, shape.rows(), true, IpcOption.DEFAULT);
  }

  /** The most endpoints one FlightInfo lists. */
  static final long MAX_ENDPOINTS = 1 << 16;

  /** The rows per endpoint: a chunk's, or a whole number of chunks' when there are more than {@link #MAX_ENDPOINTS}. */
  static long endpointRows(long rows, long chunkRows) {
    if (chunkRows <= 0) {
      return Math.max(1, rows);
    }
    long chunks = rows / chunkRows + (rows % chunkRows == 0 ? 0 : 1);
    long perEndpoint = chunks / MAX_ENDPOINTS + (chunks % MAX_ENDPOINTS == 0 ? 0 : 1);
    return Math.max(1, perEndpoint) * chunkRows; // at most about rows / MAX_ENDPOINTS + chunkRows: fits
  }

  /** What {@code zarrow export} writes for a node (the stored schema, dictionary encodings included), its rows and chunk rows. */
  private record Shape(Schema schema, long rows, long chunkRows) {}

  private Shape shape(ZarrNode node) {
    // A reader decodes nothing until its first batch: it is the one place that knows the columns.
    try (BufferAllocator memory = allocator.newChildAllocator("schema of '" + node.path() + "'", 0, 0)) {
      if (node instanceof ZarrGroup g) {
        try (TableReader reader = TableReader.of(g, memory)) {
          return new Shape(TableWriter.storedSchema(reader.getVectorSchemaRoot().getSchema(), reader), reader.rows(), reader.chunkRows());
        }
      }
      try (ArrayReader reader = ArrayReader.of((ZarrArray) node, memory)) {
        return new Shape(TableWriter.storedSchema(reader.getVectorSchemaRoot().getSchema(), reader), reader.rows(), reader.chunkRows());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Schema schema(ZarrNode node) {
    return node instanceof ZarrGroup g && isDataset(g) ? datasetTable(g).schema() : shape(node).schema();
  }

  /** A reader of rows {@code [from, to)} of {@code node}; the caller closes it. */
  private static ArrowReader reader(ZarrNode node, BufferAllocator memory, int batchRows, long from, long to) {
    return node instanceof ZarrGroup g
        ? TableReader.of(g, memory, null, batchRows, from, to)
        : ArrayReader.of((ZarrArray) node, memory, batchRows, from, to);
  }

  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    BackpressureStrategy.CallbackBackpressureStrategy backpressure = new BackpressureStrategy.CallbackBackpressureStrategy();
    backpressure.register(listener);
    streams.execute(() -> {
      try {
        Tickets.Rows rows = Tickets.parse(ticket);
        stream(open(rows.path()), rows, listener, backpressure);
      } catch (Throwable e) {
        if (!listener.isCancelled()) {
          listener.error(FlightErrors.toStatus(e, FlightErrors.Side.READ));
        }
      }
    });
  }

  private void stream(ZarrNode node, Tickets.Rows rows, ServerStreamListener listener, BackpressureStrategy backpressure)
      throws Exception {
    String name = "DoGet " + rows;
    if (rows.gridChunks()) {
      if (!(node instanceof ZarrGroup g && isDataset(g))) {
        throw FlightErrors.invalid("ticket: '" + rows.path() + "' is no dataset");
      }
      DatasetTable table = datasetTable(g);
      if (rows.to() > table.chunkCount()) {
        throw FlightErrors.invalid("ticket: " + rows + " are not chunks of the grid's " + table.chunkCount());
      }
      try (CallMemory memory = new CallMemory(allocator, name);
          ArrowReader reader = table.reader(memory.allocator, rows.from(), rows.to())) {
        send(reader, listener, backpressure);
      }
      return;
    }
    boolean dictionaries = schema(node).getFields().stream().anyMatch(ZarrFlightProducer::hasDictionary);
    // Dictionaries go out once, with the schema: one batch carries them all (batches are cut at
    // multiples of the step, so a step of the range's end cuts none).
    int step = dictionaries ? (int) Math.min(Math.max(rows.to(), 1), Integer.MAX_VALUE)
        : batchRows > 0 ? batchRows : innerChunkRows(node);
    try (CallMemory memory = new CallMemory(allocator, name);
        ArrowReader reader = reader(node, memory.allocator, step, rows.from(), rows.to())) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      boolean loaded = dictionaries && reader.loadNextBatch();
      listener.setUseZeroCopy(true);
      listener.start(root, reader);
      for (boolean first = true; loaded || reader.loadNextBatch(); loaded = false, first = false) {
        if (dictionaries && !first) {
          throw FlightErrors.status(Status.UNIMPLEMENTED, name + ": dictionary-encoded columns past row "
              + Integer.MAX_VALUE + " (Flight Java sends a stream's dictionaries once, so an endpoint must be one batch)");
        }
        if (backpressure.waitForListener(0) != BackpressureStrategy.WaitResult.READY) {
          return; // cancelled: the client went away
        }
        listener.putNext();
      }
      listener.completed();
    }
  }

  /** Sends every batch of {@code reader} at the client's pace, then completes. */
  private static void send(ArrowReader reader, ServerStreamListener listener, BackpressureStrategy backpressure) throws Exception {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    listener.setUseZeroCopy(true);
    listener.start(root, reader);
    while (reader.loadNextBatch()) {
      if (backpressure.waitForListener(0) != BackpressureStrategy.WaitResult.READY) {
        return; // cancelled: the client went away
      }
      listener.putNext();
    }
    listener.completed();
  }

  /**
   * The memory of one DoGet: a child allocator that outlives the call's reader until gRPC let go of
   * the batches it sent. Batches go out zero-copy: gRPC's frames hold the reader's buffers (each
   * batch's are fresh, never written again: the reader moves new buffers into its root) and release
   * them once written to the socket, or dropped when the call is cancelled. {@link #close} waits for
   * that, then closes the allocator, so that a call still ends holding nothing.
   */
  private static final class CallMemory implements AutoCloseable {
    final BufferAllocator allocator;
    private final Object released = new Object();

    CallMemory(BufferAllocator parent, String name) {
      AllocationListener wake = new AllocationListener() {
        @Override
        public void onRelease(long size) {
          synchronized (released) {
            released.notifyAll();
          }
        }
      };
      allocator = parent.newChildAllocator(name, wake, 0, Long.MAX_VALUE);
    }

    @Override
    public void close() {
      try {
        synchronized (released) {
          while (allocator.getAllocatedMemory() > 0) {
            released.wait(1000);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the producer is closing: close now (the allocator names what is held)
      }
      allocator.close();
    }
  }

  /** The rows of an inner chunk of the node's (first column's) shards; 0 (a chunk's rows) when unsharded. */
  private static int innerChunkRows(ZarrNode node) {
    ZarrArray array = null;
    if (node instanceof ZarrArray a) {
      array = a;
    } else {
      Optional<TableLayout> layout = TableLayout.fromAttributes(node.attributes());
      if (layout.isPresent() && !layout.get().nodes().isEmpty()) {
        array = ((ZarrGroup) node).array(layout.get().nodes().get(0));
      }
    }
    if (array == null || array.rank() == 0 || array.metadata().codecs().isEmpty()) {
      return 0;
    }
    NamedConfig first = array.metadata().codecs().get(0);
    JsonNode inner = first.name().equals("sharding_indexed") && first.configuration() != null
        ? first.configuration().path("chunk_shape").path(0) : null;
    return inner != null && inner.canConvertToInt() && inner.intValue() > 0 ? inner.intValue() : 0;
  }

  private static boolean hasDictionary(Field field) {
    return field.getDictionary() != null || field.getChildren().stream().anyMatch(ZarrFlightProducer::hasDictionary);
  }

  @Override
  public Runnable acceptPut(CallContext context, FlightStream stream, StreamListener<PutResult> ack) {
    return () -> {
      Answer answer = new Answer(ack);
      String path = null;
      try {
        path = pathOf(stream.getDescriptor());
        long rows = put(path, stream, answer);
        ObjectNode result = JsonNodeFactory.instance.objectNode().put("path", path).put("rows", rows);
        byte[] bytes = result.toString().getBytes(StandardCharsets.UTF_8);
        ArrowBuf metadata = allocator.buffer(bytes.length);
        metadata.writeBytes(bytes);
        try (PutResult done = PutResult.metadata(metadata)) { // closing it releases the buffer
          answer.done(done);
        }
      } catch (Throwable e) {
        answer.fail(FlightErrors.toStatus(e, FlightErrors.Side.PUT));
      }
    };
  }

  /** A put's one answer: its result, or the first failure (the idle watchdog's or the put's). */
  private static final class Answer {
    private final StreamListener<PutResult> ack;
    private final AtomicBoolean given = new AtomicBoolean();

    Answer(StreamListener<PutResult> ack) {
      this.ack = ack;
    }

    void done(PutResult result) {
      if (given.compareAndSet(false, true)) {
        ack.onNext(result);
        ack.onCompleted();
      }
    }

    void fail(Throwable status) {
      if (given.compareAndSet(false, true)) {
        ack.onError(status);
      }
    }
  }

  /** Writes the stream as a table at {@code path}; returns its rows. */
  private long put(String path, FlightStream stream, Answer answer) throws Exception {
    if (!writesAllowed) {
      throw FlightErrors.status(Status.PERMISSION_DENIED, "DoPut: this server is read-only (writes are not allowed)");
    }
    if (path.isEmpty()) {
      throw FlightErrors.invalid("DoPut writes a table at a node path below the root, not at the root");
    }
    if (!(store instanceof WritableStore writable)) {
      throw FlightErrors.status(Status.UNIMPLEMENTED, "DoPut: " + store.describe() + " is read-only");
    }
    if (!puts.add(path)) {
      throw FlightErrors.status(Status.ALREADY_EXISTS, "'" + path + "' is being written by another DoPut");
    }
    try {
      checkFree(path);
      try (BufferAllocator memory = allocator.newChildAllocator("DoPut '" + path + "'", 0, Long.MAX_VALUE)) {
        VectorSchemaRoot root = stream.getRoot();
        Schema stored = TableWriter.storedSchema(root.getSchema(), stream.getDictionaryProvider());
        // Closed without finish (the stream failed), the writer removes what it wrote: no table claimed.
        try (TableWriter writer = TableWriter.create(writable, path, options, stored, writeOptions, memory)) {
          long bytes = 0;
          while (next(stream, path, answer)) {
            for (FieldVector column : root.getFieldVectors()) {
              bytes += column.getBufferSize();
            }
            if (bytes > maxPutBytes) {
              throw FlightErrors.status(Status.RESOURCE_EXHAUSTED, "DoPut '" + path + "': more than the "
                  + maxPutBytes + " bytes a put may bring; nothing was kept");
            }
            writer.append(root, stream.getDictionaryProvider());
          }
          writer.finish();
          return writer.rows();
        }
      }
    } finally {
      puts.remove(path);
    }
  }

  /**
   * The stream's next batch; with an idle time-out, a client that sends nothing for that long has its
   * put answered {@code DEADLINE_EXCEEDED}, which closes the call and so ends {@code next} with an error.
   */
  private boolean next(FlightStream stream, String path, Answer answer) {
    long idle = idleTimeout.toMillis();
    if (idle == 0) {
      return stream.next();
    }
    // Closing the call does not wake a FlightStream waiting for its next message: the watchdog
    // answers the client, then interrupts this thread, but only while it waits here.
    Thread waiting = Thread.currentThread();
    AtomicBoolean inNext = new AtomicBoolean(true);
    ScheduledFuture<?> watchdog = timers.schedule(() -> {
      answer.fail(FlightErrors.status(Status.DEADLINE_EXCEEDED, "DoPut '" + path + "': the client sent nothing for " + idle + " ms"));
      synchronized (inNext) {
        if (inNext.get()) {
          waiting.interrupt();
        }
      }
    }, idle, TimeUnit.MILLISECONDS);
    try {
      return stream.next();
    } finally {
      watchdog.cancel(false);
      synchronized (inNext) {
        inNext.set(false);
        Thread.interrupted(); // the pool's thread goes back without our interrupt
      }
    }
  }

  /** Refuses a path where a node is, or below an array. */
  private void checkFree(String path) {
    if (Zarr.tryOpen(store, path, options).isPresent()) {
      throw FlightErrors.status(Status.ALREADY_EXISTS, "'" + path + "' exists in " + store.describe());
    }
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (Zarr.tryOpen(store, path.substring(0, slash), options).orElse(null) instanceof ZarrArray) {
        throw FlightErrors.invalid("'" + path.substring(0, slash) + "' is an array: no table can go below it");
      }
    }
  }

  private ZarrNode open(String path) {
    return Zarr.open(store, path, options);
  }

  /** The node path of a path descriptor of one element; anything else is an {@code INVALID_ARGUMENT}. */
  private static String pathOf(FlightDescriptor descriptor) {
    if (descriptor == null || descriptor.isCommand() || descriptor.getPath().size() != 1) {
      throw FlightErrors.invalid("zarrow takes path descriptors of one element, the node path (e.g. \"tables/people\"), not "
          + descriptor);
    }
    return normalize(descriptor.getPath().get(0));
  }

  private static String normalize(String path) {
    try {
      return ZarrNode.normalize(path);
    } catch (RuntimeException e) {
      throw FlightErrors.invalid("not a node path: '" + path + "': " + e.getMessage());
    }
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  /** Runs a unary call; its failure becomes the status it answers. */
  private static <T> T call(Call<T> body) {
    try {
      return body.run();
    } catch (Exception e) {
      throw FlightErrors.toStatus(e, FlightErrors.Side.READ);
    }
  }

  /** Stops the threads that stream DoGet calls, waiting up to a minute for those running. */
  @Override
  public void close() throws InterruptedException {
    timers.shutdownNow();
    streams.shutdown();
    if (!streams.awaitTermination(1, TimeUnit.MINUTES)) {
      streams.shutdownNow();
    }
  }
}
