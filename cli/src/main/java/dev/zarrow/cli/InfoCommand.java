package dev.zarrow.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.store.Store;
import java.math.BigInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow info STORE [PATH]}: the node's {@code zarr.json} as zarrow reads it (a Zarr v2
 * node's {@code .zarray}/{@code .zgroup} converted to it; {@code summary.zarr_format} says which), and a summary of
 * what is stored. For an array: {@code {"path", "node_type", "metadata", "summary": {"data_type",
 * "zarr_format", "grid_chunks", "stored_chunks", "stored_bytes", "ignored_keys"}}} (for a sharded array
 * {@code grid_shards}, {@code stored_shards} and {@code grid_chunks}: {@link #putCounts}; bytes of chunks only; ignored
 * keys are keys under the array that are not chunks of its grid). For a group: {@code {"path",
 * "node_type", "metadata", "summary": {"zarr_format", "children", "stored_keys", "stored_bytes"}}} (every key below it),
 * and {@code summary.dataset} when the group is a gridded dataset ({@link DatasetSummary}).
 */
@Command(name = "info", description = "Print a node's metadata and a summary of what is stored, as JSON.")
final class InfoCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String store;

  @Parameters(index = "1", arity = "0..1", paramLabel = "PATH", defaultValue = "", description = "The node's path (default: the root).")
  String path;

  @Override
  public Integer call() {
    String p = nodePath(path);
    try (Store s = openExisting(store)) {
      printJson(describe(Zarr.open(s, p, options())));
    }
    return Main.OK;
  }

  static ObjectNode describe(ZarrNode node) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("path", node.path());
    ObjectNode summary = JsonNodeFactory.instance.objectNode();
    if (node instanceof ZarrArray array) {
      out.put("node_type", "array");
      out.set("metadata", array.metadata().toJson());
      StoredKeys keys = StoredKeys.of(array);
      summary.put("data_type", array.dataType().name());
      summary.put("zarr_format", array.metadata().zarrFormat());
      putCounts(summary, array, keys);
      summary.put("stored_bytes", keys.chunkBytes(array.store()));
      summary.put("ignored_keys", keys.ignored().size());
    } else {
      ZarrGroup group = (ZarrGroup) node;
      out.put("node_type", "group");
      out.set("metadata", group.metadata().toJson());
      summary.put("zarr_format", group.metadata().zarrFormat());
      ArrayNode children = summary.putArray("children");
      group.childNames().forEach(children::add);
      String prefix = group.path().isEmpty() ? "" : group.path() + "/";
      long count = 0;
      long bytes = 0;
      for (String key : group.store().list(prefix)) {
        count++;
        bytes += group.store().size(key).orElse(0L);
      }
      summary.put("stored_keys", count);
      summary.put("stored_bytes", bytes);
      DatasetSummary.of(group).ifPresent(d -> summary.set("dataset", d));
    }
    out.set("summary", summary);
    return out;
  }

  /** The number of chunks of the grid (exact, however many). */
  /**
   * What the grid holds and what is stored, into {@code out}: {@code grid_chunks} and
   * {@code stored_chunks}; for a sharded array (a stored key is then a shard) {@code grid_shards},
   * {@code stored_shards} and {@code grid_chunks}, its inner chunks. Which inner chunks a shard holds
   * is in its index, not read here.
   */
  static void putCounts(ObjectNode out, ZarrArray array, StoredKeys keys) {
    Layout layout = Layout.of(array.metadata());
    if (layout.shards() == null) {
      out.put("grid_chunks", gridChunks(array));
      out.put("stored_chunks", keys.chunks().size());
      return;
    }
    out.put("grid_shards", gridChunks(array));
    out.put("stored_shards", keys.chunks().size());
    BigInteger inner = BigInteger.ONE;
    // gridShape, not (shape + chunk - 1) / chunk, which wraps for sizes near 2^63 - 1.
    for (long n : dev.zarrow.grid.ChunkGrid.regular(layout.chunks()).gridShape(array.shape())) {
      inner = inner.multiply(BigInteger.valueOf(n));
    }
    out.put("grid_chunks", inner);
  }

  static BigInteger gridChunks(ZarrArray array) {
    BigInteger n = BigInteger.ONE;
    for (long g : array.grid().gridShape(array.shape())) {
      n = n.multiply(BigInteger.valueOf(g));
    }
    return n;
  }
}
