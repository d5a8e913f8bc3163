package dev.zarrow.testing;

import dev.zarrow.grid.Box;
import java.util.Random;
import java.util.function.LongConsumer;

/** Regions for tests: random boxes and the flat indices of their elements. */
public final class Boxes {
  private Boxes() {}

  /** A random non-empty box inside {@code shape} (the whole, empty shape when a dimension is 0). */
  public static Box random(Random random, long[] shape) {
    long[] start = new long[shape.length];
    long[] size = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] == 0) {
        return Box.of(shape);
      }
      start[d] = random.nextInt((int) shape[d]);
      size[d] = 1 + random.nextInt((int) (shape[d] - start[d]));
    }
    return new Box(start, size);
  }

  /** Visits the flat C-order index (in an array of {@code shape}) of every element of {@code box}, in C order. */
  public static void forEachFlat(Box box, long[] shape, LongConsumer visit) {
    long n = box.size();
    long[] idx = new long[box.rank()];
    for (long k = 0; k < n; k++) {
      long flat = 0;
      for (int d = 0; d < box.rank(); d++) {
        flat = flat * shape[d] + box.start(d) + idx[d];
      }
      visit.accept(flat);
      for (int d = box.rank() - 1; d >= 0; d--) {
        if (++idx[d] < box.shape(d)) {
          break;
        }
        idx[d] = 0;
      }
    }
  }
}
