package dev.zarrow.flight;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.Json;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.flight.Ticket;

/**
 * Tickets: rows of a node, or chunks of a dataset's grid, named by the store-relative node path, so
 * that any server over the same store redeems them. Opaque to clients; the bytes are the JSON object
 * {@code {"zarrow_ticket":1,"path":P,"from":A,"to":B}}, with {@code "unit":"grid_chunks"} when A and B
 * are linear (C order) chunk indices of a dataset's grid ({@link dev.zarrow.dataset.DatasetTable}).
 */
final class Tickets {
  private static final String KIND = "zarrow_ticket";
  private static final int VERSION = 1;

  private Tickets() {}

  private static final String GRID_CHUNKS = "grid_chunks";

  /** What a ticket names: rows {@code [from, to)} of the node at {@code path}, or grid chunks of a dataset. */
  record Rows(String path, long from, long to, boolean gridChunks) {
    @Override
    public String toString() {
      return "'" + path + "' " + (gridChunks ? "grid chunks" : "rows") + " [" + from + ", " + to + ")";
    }
  }

  static Ticket of(String path, long from, long to) {
    return of(path, from, to, false);
  }

  static Ticket of(String path, long from, long to, boolean gridChunks) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put(KIND, VERSION);
    json.put("path", path);
    json.put("from", from);
    json.put("to", to);
    if (gridChunks) {
      json.put("unit", GRID_CHUNKS);
    }
    return new Ticket(json.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The rows a ticket names; a ticket that is not one of ours is an {@code INVALID_ARGUMENT}. */
  static Rows parse(Ticket ticket) {
    JsonNode json;
    try {
      json = Json.parse(ticket.getBytes(), "ticket"); // strict UTF-8, as every document zarrow reads
    } catch (MetadataException e) {
      json = null;
    }
    if (json == null || !json.isObject() || json.path(KIND).asInt() != VERSION || !json.path("path").isTextual()
        || !json.path("from").canConvertToLong() || !json.path("to").canConvertToLong()) {
      throw FlightErrors.invalid("not a zarrow ticket (tickets come from GetFlightInfo or ListFlights)");
    }
    long from = json.get("from").longValue();
    long to = json.get("to").longValue();
    if (from < 0 || to < from) {
      throw FlightErrors.invalid("ticket: rows [" + from + ", " + to + ") are not a range of rows");
    }
    JsonNode unit = json.get("unit");
    if (unit != null && !GRID_CHUNKS.equals(unit.asText())) {
      throw FlightErrors.invalid("ticket: unknown unit " + unit);
    }
    return new Rows(json.get("path").textValue(), from, to, unit != null);
  }
}
