package dev.zarrow.codec;

import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FillValue;
import java.util.Arrays;

/**
 * What a codec chain is bound to: the chunk shape, the data type and the fill value of the chunks it
 * encodes. Array->array codecs map one spec to another (transpose permutes the shape).
 */
public record ChunkSpec(int[] shape, DataType dataType, FillValue fillValue) {

  public ChunkSpec {
    shape = shape.clone();
    size(shape);
  }

  @Override
  public int[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  /** Elements per chunk. */
  public int size() {
    return size(shape);
  }

  public ChunkSpec withShape(int[] newShape) {
    return new ChunkSpec(newShape, dataType, fillValue);
  }

  private static int size(int[] shape) {
    long n = 1;
    for (int s : shape) {
      if (s < 0) {
        throw new IllegalArgumentException("negative chunk shape " + Arrays.toString(shape));
      }
      n *= s;
      if (n > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("chunk shape " + Arrays.toString(shape) + " exceeds 2^31 - 1 elements");
      }
    }
    return (int) n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkSpec c && Arrays.equals(shape, c.shape) && dataType.equals(c.dataType) && fillValue.equals(c.fillValue);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shape) * 31 + dataType.hashCode();
  }

  @Override
  public String toString() {
    return "chunk " + Arrays.toString(shape) + " of " + dataType.name();
  }
}
