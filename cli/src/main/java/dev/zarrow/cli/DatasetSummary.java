package dev.zarrow.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.error.ZarrException;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code ls} and {@code info} say of a group that is a gridded dataset ({@link Dataset}): {@code
 * {"dimensions": {NAME: LENGTH}, "data_variables": [...], "coordinates": [...]}}, or {@code {"error":
 * reason}} for a dataset whose arrays disagree (it is still listed).
 */
final class DatasetSummary {
  private DatasetSummary() {}

  /** The summary of {@code group}, or empty when it is no dataset. */
  static Optional<ObjectNode> of(ZarrGroup group) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    try {
      if (!Dataset.isDataset(group)) {
        return Optional.empty();
      }
      Dataset dataset = Dataset.open(group);
      ObjectNode dims = out.putObject("dimensions");
      dataset.dimensions().forEach(dims::put);
      dataset.dataVariables().forEach(out.putArray("data_variables")::add);
      dataset.coordinates().forEach(out.putArray("coordinates")::add);
    } catch (ZarrException e) {
      out.removeAll();
      out.put("error", Main.oneLine(e.getMessage()));
    }
    return Optional.of(out);
  }

  /** One line: {@code time=30 latitude=9; variables: sp, t2m; coordinates: latitude, time}. */
  static String line(ObjectNode summary) {
    if (summary.has("error")) {
      return "dataset that cannot be read: " + summary.get("error").asText();
    }
    StringBuilder out = new StringBuilder();
    summary.get("dimensions").fields().forEachRemaining((Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e) ->
        out.append(out.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(e.getValue().asText()));
    out.append("; variables: ").append(join(summary.get("data_variables")));
    out.append("; coordinates: ").append(join(summary.get("coordinates")));
    return out.toString();
  }

  private static String join(com.fasterxml.jackson.databind.JsonNode names) {
    java.util.List<String> list = new java.util.ArrayList<>();
    names.forEach(n -> list.add(n.asText()));
    return list.isEmpty() ? "-" : list.stream().collect(Collectors.joining(", "));
  }
}
