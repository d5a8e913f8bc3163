package dev.zarrow;

import java.util.Arrays;
import org.apache.arrow.vector.FieldVector;

/**
 * An n-dimensional array in Arrow memory: a flat vector in C order and its shape. Whoever receives one
 * from zarrow owns it and closes it (which closes the vector).
 */
public record NdVector(FieldVector vector, long[] shape) implements AutoCloseable {

  public NdVector {
    shape = shape.clone();
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    if (n != vector.getValueCount()) {
      throw new IllegalArgumentException(
          "shape " + Arrays.toString(shape) + " has " + n + " elements, the vector " + vector.getValueCount());
    }
  }

  /** A one-dimensional array over {@code vector}. */
  public static NdVector of(FieldVector vector) {
    return new NdVector(vector, new long[] {vector.getValueCount()});
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  @Override
  public void close() {
    vector.close();
  }

  @Override
  public String toString() {
    return "NdVector" + Arrays.toString(shape) + " " + vector.getField().getType();
  }
}
