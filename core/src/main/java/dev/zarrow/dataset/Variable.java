package dev.zarrow.dataset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ZarrArray;
import java.util.List;

/**
 * One array of a {@link Dataset}: its name (the array's name in the group), the array, its dimension
 * names (v3 {@code dimension_names}, or the v2 attribute {@code _ARRAY_DIMENSIONS}), what it is to the
 * dataset, and its attributes without {@code _ARRAY_DIMENSIONS} (CF attributes as stored).
 */
public record Variable(String name, ZarrArray array, List<String> dimensions, Role role, ObjectNode attributes) {
  /** What an array is to its dataset. */
  public enum Role {
    /** Named like a dimension and 1-D along it: that dimension's values. */
    INDEX,
    /** Named in a variable's (or the group's) {@code coordinates} attribute: a coordinate of any rank. */
    COORDINATE,
    /** Every other array with dimension names. */
    DATA
  }

  public Variable {
    dimensions = List.copyOf(dimensions);
  }

  public int rank() {
    return dimensions.size();
  }

  @Override
  public ObjectNode attributes() {
    return attributes.deepCopy();
  }
}
