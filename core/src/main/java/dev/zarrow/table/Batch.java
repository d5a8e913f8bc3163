package dev.zarrow.table;

import java.util.List;
import org.apache.arrow.vector.FieldVector;

/** The decoded columns of one batch of {@code rows} rows; closing it closes them. */
record Batch(List<FieldVector> columns, int rows) implements AutoCloseable {
  @Override
  public void close() {
    columns.forEach(FieldVector::close);
  }
}
