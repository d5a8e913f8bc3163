package dev.zarrow.spark;

import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetOptions;
import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.table.TableLayout;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The read options of a gridded dataset ({@link Dataset}): {@code dataset} ({@code true} reads the
 * group as a dataset even when it claims a table, {@code false} never; unset: a group that claims no
 * table and holds arrays with dimension names is one), {@code variables} (comma-separated data
 * variables; default all) and {@code decode} ({@code false}: raw values, no CF decoding).
 *
 * @param force the {@code dataset} option, null when not given
 * @param variables the data variables, null for all
 * @param decode CF decoding
 */
record DatasetRead(Boolean force, List<String> variables, boolean decode) implements Serializable {
  DatasetRead {
    variables = variables == null ? null : List.copyOf(variables);
  }

  /** The options of {@code options} (names case-insensitive); a bad value is an {@link IllegalArgumentException} naming it. */
  static DatasetRead of(Map<String, String> options) {
    String dataset = get(options, "dataset");
    String variables = get(options, "variables");
    String decode = get(options, "decode");
    List<String> names = variables == null ? null : Arrays.stream(variables.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (names != null && names.isEmpty()) {
      throw new IllegalArgumentException("zarr: option variables names no variable: '" + variables + "'");
    }
    DatasetRead read = new DatasetRead(dataset == null ? null : bool("dataset", dataset), names, decode == null || bool("decode", decode));
    if (Boolean.FALSE.equals(read.force) && (variables != null || decode != null)) {
      throw new IllegalArgumentException("zarr: options variables and decode are for datasets, and option dataset is false");
    }
    return read;
  }

  private static String get(Map<String, String> options, String name) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static boolean bool(String name, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("zarr: option " + name + " is true or false, not '" + value + "'");
    };
  }

  /**
   * Whether {@code node}, the root of a location, is read as a dataset. Option {@code dataset=true} on
   * an array, or on a group that is no dataset, is an {@link IllegalArgumentException}; so are {@code
   * variables} or {@code decode} on what is read as a table.
   */
  boolean applies(ZarrNode node, String location) {
    boolean dataset;
    if (!(node instanceof ZarrGroup group)) {
      dataset = false;
      if (Boolean.TRUE.equals(force)) {
        throw new IllegalArgumentException("zarr: option dataset=true, but " + location + " holds an array, not a group");
      }
    } else if (force != null) {
      dataset = force;
      if (dataset && !Dataset.isDataset(group)) {
        throw new IllegalArgumentException("zarr: option dataset=true, but the group at " + location
            + " is no dataset: none of its arrays has dimension names");
      }
    } else {
      dataset = TableLayout.fromAttributes(group.attributes()).isEmpty() && Dataset.isDataset(group);
    }
    if (!dataset && (variables != null || !decode)) {
      throw new IllegalArgumentException("zarr: options variables and decode are for datasets; " + location + " is read as a table"
          + (node instanceof ZarrGroup ? " (option dataset=true reads a group as a dataset)" : ""));
    }
    return dataset;
  }

  /** The table of {@code group}'s dataset with these options, of {@code columns} (null: all). */
  DatasetTable table(ZarrGroup group, List<String> columns) {
    return Dataset.open(group).table(new DatasetOptions(variables, columns, !decode));
  }
}
