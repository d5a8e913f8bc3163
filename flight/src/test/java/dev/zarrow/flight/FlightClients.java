package dev.zarrow.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.table.TableWriter;
import dev.zarrow.testing.StreamSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** What the tests do as Flight clients: put a reader's batches, fetch endpoints as comparable snapshots. */
public final class FlightClients {
  private FlightClients() {}

  /**
   * Puts every batch of {@code source} (read here to its end, not closed) as the table at {@code
   * path}; returns the server's answer. The first batch is loaded before the put starts: the client
   * sends the dictionaries with the schema.
   */
  public static String put(FlightClient client, String path, ArrowReader source) throws Exception {
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
        return new String(bytes, StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * Every endpoint of {@code info} fetched in order, as one stream; each stream's schema must be the
   * info's (compared as Arrow Java compares schemas: it reads schema metadata into a hash map, in no
   * order).
   */
  public static StreamSnapshot fetchAll(FlightClient client, FlightInfo info) throws Exception {
    List<StreamSnapshot> parts = new ArrayList<>();
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      parts.add(fetch(client, endpoint, info.getSchema()));
    }
    return parts.isEmpty() ? new StreamSnapshot.Collector(info.getSchema()).finish() : StreamSnapshot.concat(parts);
  }

  /** One endpoint's stream, whose schema must be {@code schema}. */
  public static StreamSnapshot fetch(FlightClient client, FlightEndpoint endpoint, Schema schema) throws Exception {
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

}
