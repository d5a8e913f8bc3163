package dev.zarrow.dtype;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The caller checks every fixed-width type makes of what it is handed, with one message each. */
final class FixedChecks {
  private FixedChecks() {}

  /** {@code data} holds {@code count} elements of {@code width} bytes, or an IllegalArgumentException. */
  static void holds(String type, ArrowBuf data, int count, int width) {
    if (data.capacity() < (long) count * width) {
      throw new IllegalArgumentException(type + ": " + data.capacity() + " bytes cannot hold " + count + " elements");
    }
  }

  /** {@code vector} is of the Arrow type {@code want}, or an IllegalArgumentException. */
  static void arrowType(Object type, ArrowType want, FieldVector vector) {
    if (!vector.getField().getType().equals(want)) {
      throw new IllegalArgumentException(
          "data type " + type + " needs an Arrow " + want + " vector, got " + vector.getField().getType());
    }
  }
}
