package dev.zarrow.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.metadata.ConsolidatedStore;
import dev.zarrow.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow ls STORE [PATH] [--json]}: the hierarchy below PATH as a tree, one node per line with
 * its data type, shape, chunk (and shard) shape, codecs in {@code --codec} grammar, and what is stored
 * (chunks, or for a sharded array shards: {@code grid_shards}, {@code stored_shards}, and the inner
 * chunks of its grid, {@code grid_chunks}).
 * A group that is a gridded dataset (xarray's arrays with dimension names) is listed as {@code dataset}
 * with its dimensions, data variables and coordinates ({@code "dataset"} in the JSON, see {@link
 * DatasetSummary}).
 * With {@code --json}, an array of objects instead. Nodes that cannot be read are left out of the
 * tree (kept with their {@code error} in the JSON) and named on stderr as {@code zarrow: PATH: reason},
 * and make the exit code 3 once everything else is listed.
 * Consolidated metadata, when the hierarchy has some, answers every metadata read (one read in all);
 * over a store that cannot list (HTTP) it is what lists the hierarchy, what is stored is then left
 * out, and its absence is a data error saying so.
 */
@Command(name = "ls", description = "List the arrays and groups of a store as a tree (or JSON with --json).")
final class LsCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String store;

  @Parameters(index = "1", arity = "0..1", paramLabel = "PATH", defaultValue = "", description = "Where to start (default: the root).")
  String path;

  @Option(names = "--json", description = "Print a JSON array of nodes instead of the tree.")
  boolean json;

  private record Row(int depth, String name, ObjectNode node) {}

  @Override
  public Integer call() {
    String p = nodePath(path);
    List<Row> rows = new ArrayList<>();
    try (Store s = openExisting(store)) {
      // Consolidated metadata, when there is some, answers every metadata read and the listing of groups.
      Store view = ConsolidatedStore.over(s, p);
      if (!view.canList() && !(view instanceof ConsolidatedStore)) {
        throw new ZarrException(s.describe() + " cannot list keys, and ls needs a listing or consolidated metadata: there is"
            + " none at " + (p.isEmpty() ? "the root" : "the root or '" + p + "'") + " (no consolidated_metadata in zarr.json, no .zmetadata);"
            + " write it with `zarrow consolidate` where the data can be listed, or open arrays by path");
      }
      walk(view, p, p.isEmpty() ? "/" : p, 0, rows);
    }
    if (json) {
      ArrayNode list = JsonNodeFactory.instance.arrayNode();
      rows.forEach(r -> list.add(r.node()));
      printJson(list);
    } else {
      printTree(rows);
    }
    List<ObjectNode> failed = rows.stream().map(Row::node).filter(n -> n.has("error")).toList();
    for (ObjectNode n : failed) {
      String nodePath = n.get("path").asText();
      err().println("zarrow: " + (nodePath.isEmpty() ? "/" : nodePath) + ": " + n.get("error").asText());
    }
    if (!failed.isEmpty()) {
      throw new ZarrException(failed.size() + (failed.size() == 1 ? " node" : " nodes") + " could not be read (each named above)");
    }
    return Main.OK;
  }

  private void walk(Store store, String path, String name, int depth, List<Row> rows) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("path", path);
    ZarrNode opened;
    try {
      opened = Zarr.open(store, path, options());
    } catch (ZarrException e) {
      node.put("error", Main.oneLine(e.getMessage()));
      rows.add(new Row(depth, name, node));
      return;
    }
    if (opened instanceof ZarrArray array) {
      try {
        describe(array, node);
      } catch (ZarrException e) {
        node.put("error", Main.oneLine(e.getMessage()));
      }
      rows.add(new Row(depth, name, node));
      return;
    }
    node.put("node_type", "group");
    DatasetSummary.of((ZarrGroup) opened).ifPresent(d -> node.set("dataset", d));
    rows.add(new Row(depth, name, node));
    List<String> children;
    try {
      children = ((ZarrGroup) opened).childNames();
    } catch (ZarrException e) {
      node.put("error", Main.oneLine(e.getMessage()));
      return;
    }
    for (String child : children) {
      walk(store, ZarrNode.join(path, child), child, depth + 1, rows);
    }
  }

  private static void describe(ZarrArray array, ObjectNode node) {
    node.put("node_type", "array");
    node.set("data_type", array.metadata().dataType().toJson());
    ArrayNode shape = node.putArray("shape");
    Arrays.stream(array.shape()).forEach(shape::add);
    Layout layout = Layout.of(array.metadata());
    ArrayNode chunks = node.putArray("chunk_shape");
    Arrays.stream(layout.chunks()).forEach(chunks::add);
    if (layout.shards() != null) {
      ArrayNode shards = node.putArray("shard_shape");
      Arrays.stream(layout.shards()).forEach(shards::add);
    }
    ArrayNode codecs = node.putArray("codecs");
    layout.codecs().forEach(c -> codecs.add(c.toJson()));
    if (array.store().canList()) {
      StoredKeys keys = StoredKeys.of(array);
      InfoCommand.putCounts(node, array, keys);
      node.put("stored_bytes", keys.chunkBytes(array.store()));
    } else { // what is stored needs a listing: consolidated metadata knows no chunks, only the grid
      InfoCommand.putCounts(node, array, new StoredKeys(List.of(), List.of()));
      node.remove(List.of("stored_chunks", "stored_shards"));
    }
  }

  private void printTree(List<Row> rows) {
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"NAME", "TYPE", "SHAPE", "CHUNKS", "CODECS", "STORED"});
    for (Row r : rows) {
      ObjectNode n = r.node();
      String indent = "  ".repeat(r.depth());
      boolean group = "group".equals(n.path("node_type").asText());
      String name = indent + r.name() + (group && !r.name().equals("/") ? "/" : "");
      if (n.has("error")) {
        continue; // on stderr
      } else if (group && n.has("dataset")) {
        cells.add(new String[] {name, "dataset", DatasetSummary.line((ObjectNode) n.get("dataset"))});
      } else if (group) {
        cells.add(new String[] {name, "group"});
      } else {
        String chunks = dims(n.get("chunk_shape")) + (n.has("shard_shape") ? " in shards " + dims(n.get("shard_shape")) : "");
        String type = n.get("data_type").isTextual() ? n.get("data_type").asText() : n.get("data_type").path("name").asText();
        List<dev.zarrow.metadata.NamedConfig> codecs = new ArrayList<>();
        n.get("codecs").forEach(c -> codecs.add(dev.zarrow.metadata.NamedConfig.parse(c, "codecs")));
        cells.add(new String[] {
          name, type, dims(n.get("shape")), chunks, CodecSpecs.format(codecs),
          !n.has("stored_bytes")
              ? (n.has("grid_shards") ? n.get("grid_shards").asText() + " shards" : n.get("grid_chunks").asText() + " chunks")
                  + " in the grid (stored: not listed)"
              : (n.has("stored_shards")
                  ? n.get("stored_shards").asText() + " of " + n.get("grid_shards").asText() + " shards"
                  : n.get("stored_chunks").asText() + " of " + n.get("grid_chunks").asText() + " chunks")
                  + ", " + bytes(n.get("stored_bytes").asLong())
        });
      }
    }
    // Every row's cells but its last are padded: groups and errors (two cells) count in the name's width.
    int[] width = new int[6];
    for (String[] row : cells) {
      for (int i = 0; i < row.length - 1; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == 0 ? "" : "  ").append(i == row.length - 1 ? row[i] : pad(row[i], width[i]));
      }
      out().println(line.toString().stripTrailing());
    }
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(Math.max(0, width - s.length()));
  }

  private static String dims(com.fasterxml.jackson.databind.JsonNode array) {
    List<String> parts = new ArrayList<>();
    array.forEach(d -> parts.add(d.asText()));
    return parts.stream().collect(Collectors.joining(",", "[", "]"));
  }

  /** {@code 512 B}, {@code 4.1 KiB}, {@code 3.0 MiB}, ... */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
