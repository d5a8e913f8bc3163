package dev.zarrow.cli;

import dev.zarrow.NodeWriter;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.Store;
import dev.zarrow.table.TableLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What {@code copy} and {@code import} would replace at their destination, which they refuse to
 * replace without {@code --overwrite} (a usage error, exit 2, that says what is there): an array, a
 * group (a table too), the root, keys that are no node; as {@code zarr.copy}'s default
 * {@code if_exists="raise"}. Nothing is ever written inside an array.
 */
final class Destination {
  private Destination() {}

  /**
   * Refuses the write of a node at {@code path} of {@code store} (named {@code storeName} in messages)
   * when something is there, unless {@code overwrite}; and always below an array.
   */
  static void check(ZarrowCommand command, Store store, String storeName, String path, boolean overwrite, ZarrOptions options) {
    for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      String above = path.substring(0, slash);
      if (open(store, above, options).orElse(null) instanceof ZarrArray) {
        throw command.usage("cannot write '" + path + "' in " + storeName + ": '" + above
            + "' is an array, and nodes do not nest in arrays");
      }
    }
    if (overwrite) {
      return;
    }
    String what = describe(store, path, options);
    if (what == null) {
      return;
    }
    String where = path.isEmpty() ? "the root of " + storeName : "'" + path + "' in " + storeName;
    throw command.usage(where + " is " + what + ": " + command.spec.name() + " replaces it only with --overwrite"
        + (path.isEmpty() ? " (which replaces the whole store)" : ""));
  }

  private static Optional<ZarrNode> open(Store store, String path, ZarrOptions options) {
    try {
      return Zarr.tryOpen(store, path, options);
    } catch (ZarrException e) {
      return Optional.empty();
    }
  }

  /** What is at {@code path}, as "a group of 3 nodes (a, b, c)", or null for nothing (or an unfinished write's leftovers). */
  private static String describe(Store store, String path, ZarrOptions options) {
    ZarrNode node;
    try {
      node = Zarr.tryOpen(store, path, options).orElse(null);
    } catch (ZarrException e) {
      return "a node whose zarr.json does not open (" + Main.oneLine(e.getMessage()) + ")";
    }
    if (node instanceof ZarrArray a) {
      return "an array (" + a.dataType().name() + " " + Arrays.toString(a.shape()) + ")";
    }
    if (node instanceof ZarrGroup g) {
      Optional<TableLayout> table;
      try {
        table = TableLayout.fromAttributes(g.attributes());
      } catch (ZarrException e) {
        table = Optional.empty();
      }
      if (table.isPresent()) {
        return "a table of " + table.get().nodes().size() + " columns";
      }
      List<String> children = g.childNames();
      return "a group of " + children.size() + (children.size() == 1 ? " node" : " nodes")
          + (children.isEmpty() ? "" : " (" + String.join(", ", children.subList(0, Math.min(5, children.size())))
              + (children.size() > 5 ? ", ..." : "") + ")");
    }
    String prefix = path.isEmpty() ? "" : path + "/";
    List<String> keys = store.list(prefix);
    if (keys.isEmpty() || keys.contains(prefix + NodeWriter.INCOMPLETE)) {
      return null; // what an interrupted write left: the write removes it
    }
    return "no node but holds " + keys.size() + (keys.size() == 1 ? " key" : " keys");
  }
}
