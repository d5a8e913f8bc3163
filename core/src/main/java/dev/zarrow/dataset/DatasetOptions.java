package dev.zarrow.dataset;

import java.util.List;

/**
 * What a {@link DatasetTable} holds.
 *
 * @param variables the data variables to read, in this order (null: all, in the order of {@link
 *     Dataset#dataVariables()}); their dimensions make the table's grid
 * @param columns the columns to produce (dimension, coordinate and variable names), in the table's
 *     order whatever the order here (null: all). Projection only: the rows stay those of the grid of
 *     {@code variables}. For engines that prune columns.
 * @param raw true: values as stored, no CF decoding (no masking, scaling, times or booleans); strings
 *     still utf8
 */
public record DatasetOptions(List<String> variables, List<String> columns, boolean raw) {
  public DatasetOptions {
    variables = variables == null ? null : List.copyOf(variables);
    columns = columns == null ? null : List.copyOf(columns);
  }

  /** All data variables, all columns, CF-decoded. */
  public static DatasetOptions defaults() {
    return new DatasetOptions(null, null, false);
  }

  public DatasetOptions withVariables(List<String> newVariables) {
    return new DatasetOptions(newVariables, columns, raw);
  }

  public DatasetOptions withColumns(List<String> newColumns) {
    return new DatasetOptions(variables, newColumns, raw);
  }

  public DatasetOptions withRaw(boolean newRaw) {
    return new DatasetOptions(variables, columns, newRaw);
  }
}
