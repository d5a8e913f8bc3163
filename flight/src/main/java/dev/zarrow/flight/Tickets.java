package dev.zarrow.flight;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.Json;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.flight.Ticket;

/**
 * Tickets: rows of a node, named by the store-relative node path, so that any server over the same
 * store redeems them. Opaque to clients; the bytes are the JSON object {@code
 * {"zarrow_ticket":1,"path":P,"from":A,"to":B}}.
 */
final class Tickets {
  private static final String KIND = "zarrow_ticket";
  private static final int VERSION = 1;

  private Tickets() {}

  /** What a ticket names: rows {@code [from, to)} of the node at {@code path}. */
  record Rows(String path, long from, long to) {
    @Override
    public String toString() {
      return "'" + path + "' rows [" + from + ", " + to + ")";
    }
  }

  static Ticket of(String path, long from, long to) {
    ObjectNode json = Json.MAPPER.createObjectNode();
    json.put(KIND, VERSION);
    json.put("path", path);
    json.put("from", from);
    json.put("to", to);
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
    return new Rows(json.get("path").textValue(), from, to);
  }
}
