package dev.zarrow.grid;

import java.util.Arrays;

/** A hyper-rectangular region: a start and a shape per dimension (a 0-d box has one element). */
public record Box(long[] start, long[] shape) {

  public Box {
    if (start.length != shape.length) {
      throw new IllegalArgumentException("start " + Arrays.toString(start) + " and shape " + Arrays.toString(shape) + " differ in rank");
    }
    for (int i = 0; i < start.length; i++) {
      if (start[i] < 0 || shape[i] < 0) {
        throw new IllegalArgumentException("negative start or shape in box " + Arrays.toString(start) + " + " + Arrays.toString(shape));
      }
    }
    start = start.clone();
    shape = shape.clone();
  }

  /** The box from the origin covering {@code shape}. */
  public static Box of(long... shape) {
    return new Box(new long[shape.length], shape);
  }

  /** The box from the origin covering {@code shape}. */
  public static Box of(int[] shape) {
    return of(Arrays.stream(shape).asLongStream().toArray());
  }

  @Override
  public long[] start() {
    return start.clone();
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  public long start(int dim) {
    return start[dim];
  }

  public long shape(int dim) {
    return shape[dim];
  }

  public long end(int dim) {
    return start[dim] + shape[dim];
  }

  public int rank() {
    return shape.length;
  }

  /**
   * The number of elements: 0 when any size is 0. Exact for any box inside an array (whose element
   * count fits a long); an {@link ArithmeticException} only for a box larger than any array.
   */
  public long size() {
    for (long s : shape) {
      if (s == 0) {
        return 0;
      }
    }
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    return n;
  }

  /** True when this box lies inside an array of {@code arrayShape}. */
  public boolean within(long[] arrayShape) {
    if (arrayShape.length != rank()) {
      return false;
    }
    for (int i = 0; i < rank(); i++) {
      // Compared without start + shape, which could wrap past Long.MAX_VALUE.
      if (start[i] > arrayShape[i] || shape[i] > arrayShape[i] - start[i]) {
        return false;
      }
    }
    return true;
  }

  /** The intersection with {@code other}, or a box of zero size when they do not meet. */
  public Box intersect(Box other) {
    long[] s = new long[rank()];
    long[] n = new long[rank()];
    for (int i = 0; i < rank(); i++) {
      s[i] = Math.max(start[i], other.start[i]);
      n[i] = Math.max(0, Math.min(end(i), other.end(i)) - s[i]);
    }
    return new Box(s, n);
  }

  /** This box moved by {@code -origin}. */
  public Box relativeTo(long[] origin) {
    long[] s = new long[rank()];
    for (int i = 0; i < rank(); i++) {
      s[i] = start[i] - origin[i];
    }
    return new Box(s, shape);
  }

  /** True when this box starts at the origin and has exactly {@code fullShape}. */
  public boolean covers(int[] fullShape) {
    for (int i = 0; i < rank(); i++) {
      if (start[i] != 0 || shape[i] != fullShape[i]) {
        return false;
      }
    }
    return true;
  }

  /** Parses {@code 0:10,:,5} (numpy-like: start:stop per dimension, {@code :} for all, an index). */
  public static Box parse(String text, long[] arrayShape) {
    String[] parts = text.isBlank() ? new String[0] : text.split(",", -1);
    if (parts.length > arrayShape.length) {
      throw new IllegalArgumentException("region '" + text + "' has " + parts.length + " dimensions, the array " + arrayShape.length);
    }
    long[] s = new long[arrayShape.length];
    long[] n = arrayShape.clone();
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].trim();
      long lo;
      long hi;
      try {
        int colon = p.indexOf(':');
        if (colon < 0) {
          lo = Long.parseLong(p);
          hi = lo + 1;
        } else {
          String a = p.substring(0, colon).trim();
          String b = p.substring(colon + 1).trim();
          lo = a.isEmpty() ? 0 : Long.parseLong(a);
          hi = b.isEmpty() ? arrayShape[i] : Long.parseLong(b);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("region '" + text + "': '" + p + "' is not start:stop");
      }
      if (lo < 0 || hi < lo || hi > arrayShape[i]) {
        throw new IllegalArgumentException("region '" + text + "': " + p + " is outside dimension " + i + " of size " + arrayShape[i]);
      }
      s[i] = lo;
      n[i] = hi - lo;
    }
    return new Box(s, n);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Box b && Arrays.equals(start, b.start) && Arrays.equals(shape, b.shape);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(start) + Arrays.hashCode(shape);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < rank(); i++) {
      out.append(i == 0 ? "" : ", ").append(start[i]).append(':').append(end(i));
    }
    return out.append(']').toString();
  }
}
