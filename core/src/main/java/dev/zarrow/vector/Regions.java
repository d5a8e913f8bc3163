package dev.zarrow.vector;

import dev.zarrow.memory.Buffers;
import dev.zarrow.grid.Box;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Copies of hyper-rectangular regions between flat C-order vectors. Fixed-width vectors (and fixed
 * size lists of them, such as complex numbers) move whole runs along the last dimension with one
 * memory copy each into a preallocated output; every other type (variable width, nested, unions,
 * ...) is built in output order from runs by {@link Gather}, which copies buffers in bulk.
 */
public final class Regions {
  private Regions() {}

  /** A part of an output: {@code region} of {@code vector} (of {@code shape}) goes to {@code target}. */
  public record Piece(FieldVector vector, long[] shape, Box region, long[] target) {}

  /** True when elements of {@code vector} are fixed-size runs of one data buffer (memcpy-able). */
  public static boolean isFixedWidth(FieldVector vector) {
    return flatWidth(vector) > 0;
  }

  /**
   * Bytes per element of a fixed-width vector whose elements are consecutive runs of one data buffer
   * (fixed-width vectors other than bits, and fixed size lists of them), or 0 for other vectors.
   */
  public static int flatWidth(FieldVector vector) {
    if (vector instanceof BaseFixedWidthVector fixed && !(vector instanceof BitVector)) {
      return fixed.getTypeWidth();
    }
    if (vector instanceof FixedSizeListVector list
        && list.getDataVector() instanceof BaseFixedWidthVector child
        && !(child instanceof BitVector)) {
      return child.getTypeWidth() * list.getListSize();
    }
    return 0;
  }

  /** The one data buffer that holds the elements of a fixed-width vector (see {@link #flatWidth}). */
  public static ArrowBuf flatData(FieldVector vector) {
    return vector instanceof FixedSizeListVector list ? list.getDataVector().getDataBuffer() : vector.getDataBuffer();
  }

  /**
   * A little-endian view of the bytes of {@code count} elements from element {@code first} of a
   * fixed-width vector (see {@link #flatWidth}), to write them in place. Valid while the vector is.
   */
  public static ByteBuffer view(FieldVector flat, long first, int count) {
    int width = flatWidth(flat);
    if (width <= 0) {
      throw new IllegalArgumentException("not a fixed-width vector: " + flat.getField().getType());
    }
    return Buffers.view(flatData(flat), first * width, (long) count * width);
  }

  /**
   * True when a region of {@code regionShape} is one run of consecutive flat indexes in an array of
   * {@code arrayShape}, wherever it starts: leading dimensions of extent 1, then at most one partial
   * dimension, then whole ones.
   */
  public static boolean isContiguous(long[] regionShape, long[] arrayShape) {
    int k = 0;
    while (k < regionShape.length && regionShape[k] == 1) {
      k++;
    }
    for (int d = k + 1; d < regionShape.length; d++) {
      if (regionShape[d] != arrayShape[d]) {
        return false;
      }
    }
    return true;
  }

  /** Sets every element of {@code region} of fixed-width {@code out} (of {@code shape}) to {@code pattern}, valid. */
  public static void fill(FieldVector out, long[] shape, Box region, byte[] pattern) {
    int width = flatWidth(out);
    if (width <= 0 || width != pattern.length) {
      throw new IllegalArgumentException("fill needs a fixed-width vector of " + pattern.length + "-byte elements, got "
          + out.getField().getType());
    }
    ArrowBuf data = flatData(out);
    ArrowBuf validity = out.getValidityBuffer();
    forEachRun(shape, region, shape, region.start(), (from, to, n) -> {
      Buffers.fill(data, to * width, n, pattern);
      setBits(validity, to, n);
    });
  }

  /**
   * The elements of {@code region} of {@code src} (of {@code shape}), in a new vector the caller owns,
   * of {@code src.getField()}. Arrow Java's {@code getField()} reports a sparse union's members by its
   * own type ordinals, not the union's type ids: where the field is known, use the overload that takes it.
   */
  public static FieldVector extract(FieldVector src, long[] shape, Box region, BufferAllocator allocator) {
    return extract(src, src.getField(), shape, region, allocator);
  }

  /** The elements of {@code region} of {@code src} (of {@code shape} and {@code field}), in a new vector the caller owns. */
  public static FieldVector extract(FieldVector src, Field field, long[] shape, Box region, BufferAllocator allocator) {
    int count = Math.toIntExact(region.size());
    FieldVector out = Fields.createVector(field, allocator);
    try {
      int width = flatWidth(src);
      if (width > 0 && !Buffers.hasNulls(src) && (!(src instanceof FixedSizeListVector l) || !Buffers.hasNulls(l.getDataVector()))) {
        allocateFlat(out, count);
        copyInto(src, shape, region, out, region.shape(), new long[region.rank()]);
      } else {
        out.close();
        List<Gather.Run> runs = new ArrayList<>();
        forEachRun(shape, region, region.shape(), new long[region.rank()],
            (from, to, n) -> runs.add(new Gather.Run(src, (int) from, n)));
        return Gather.gather(field, runs, allocator);
      }
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** Sizes a new fixed-width vector (see {@link #flatWidth}) for {@code count} elements, all valid. */
  public static void allocateFlat(FieldVector out, int count) {
    out.setInitialCapacity(count);
    out.allocateNew();
    if (out instanceof FixedSizeListVector list) {
      FieldVector child = (FieldVector) list.getDataVector();
      int inner = count * list.getListSize();
      setBits(child.getValidityBuffer(), 0, inner);
      child.setValueCount(inner);
    }
    setBits(out.getValidityBuffer(), 0, count);
    out.setValueCount(count);
  }

  /**
   * Copies {@code region} of fixed-width {@code src} (of {@code srcShape}) into fixed-width {@code dst}
   * (of {@code dstShape}, already sized) at {@code dstStart}, validity included. Both are borrowed.
   */
  public static void copyInto(
      FieldVector src, long[] srcShape, Box region, FieldVector dst, long[] dstShape, long[] dstStart) {
    int width = flatWidth(src);
    if (width <= 0 || width != flatWidth(dst)) {
      throw new IllegalArgumentException("copyInto needs fixed-width vectors of one type, got "
          + src.getField().getType() + " and " + dst.getField().getType());
    }
    ArrowBuf from = flatData(src);
    ArrowBuf to = flatData(dst);
    boolean noNulls = !Buffers.hasNulls(src);
    ArrowBuf srcValidity = src.getValidityBuffer();
    ArrowBuf dstValidity = dst.getValidityBuffer();
    // Fixed-size lists carry a second bitmap: their elements' validity.
    int size = src instanceof FixedSizeListVector l ? l.getListSize() : 0;
    FieldVector srcItems = size > 0 ? ((FixedSizeListVector) src).getDataVector() : null;
    ArrowBuf dstItems = size > 0 ? ((FixedSizeListVector) dst).getDataVector().getValidityBuffer() : null;
    boolean noItemNulls = srcItems == null || !Buffers.hasNulls(srcItems);
    forEachRun(srcShape, region, dstShape, dstStart, (f, t, n) -> {
      to.setBytes(t * width, from, f * width, (long) n * width);
      copyValidity(srcValidity, f, dstValidity, t, n, noNulls);
      if (srcItems != null) {
        copyValidity(srcItems.getValidityBuffer(), f * size, dstItems, t * size, (long) n * size, noItemNulls);
      }
    });
  }

  private static void copyValidity(ArrowBuf src, long from, ArrowBuf dst, long to, long n, boolean allValid) {
    if (allValid) {
      setBits(dst, to, n);
      return;
    }
    for (long i = 0; i < n; i++) {
      BitVectorHelper.setValidityBit(dst, (int) (to + i), BitVectorHelper.get(src, (int) (from + i)));
    }
  }


  /** Sets {@code n} bits of {@code bits} from bit {@code start}: whole bytes at once. */
  public static void setBits(ArrowBuf bits, long start, long n) {
    long i = start;
    long end = start + n;
    for (; i < end && (i & 7) != 0; i++) {
      BitVectorHelper.setBit(bits, i);
    }
    long bytes = (end - i) >>> 3;
    if (bytes > 0) {
      bits.setOne(i >>> 3, bytes);
      i += bytes << 3;
    }
    for (; i < end; i++) {
      BitVectorHelper.setBit(bits, i);
    }
  }

  /**
   * A new vector of {@code shape} (owned by the caller) assembled from {@code pieces} that together cover
   * it exactly. Pieces are borrowed. {@code field} gives the output type.
   */
  public static FieldVector assemble(Field field, long[] shape, List<Piece> pieces, BufferAllocator allocator) {
    int count = Math.toIntExact(Box.of(shape).size());
    FieldVector out = Fields.createVector(field, allocator);
    try {
      boolean flat = !pieces.isEmpty();
      for (Piece p : pieces) {
        flat &= flatWidth(p.vector) > 0 && flatWidth(p.vector) == flatWidth(out);
      }
      if (flat) {
        allocateFlat(out, count);
        for (Piece p : pieces) {
          copyInto(p.vector, p.shape, p.region, out, shape, p.target);
        }
        return out;
      }
      // Variable-width vectors are written in index order: cut every piece into runs along the last
      // dimension, sort the runs by their place in the output, and copy them in that order.
      record Run(long to, FieldVector from, long fromIndex, int n) {}
      List<Run> runs = new ArrayList<>();
      for (Piece p : pieces) {
        forEachRun(p.shape, p.region, shape, p.target, (f, t, n) -> runs.add(new Run(t, p.vector, f, n)));
      }
      runs.sort(Comparator.comparingLong(Run::to));
      long expected = 0;
      for (Run r : runs) {
        if (r.to != expected) {
          throw new IllegalStateException("pieces do not tile the output at element " + expected);
        }
        expected += r.n;
      }
      if (expected != count) {
        throw new IllegalStateException("pieces cover " + expected + " of " + count + " elements");
      }
      out.close();
      return Gather.gather(field, runs.stream().map(r -> new Gather.Run(r.from, (int) r.fromIndex, r.n)).toList(), allocator);
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /**
   * {@code base} (of {@code shape}) with {@code region} replaced by {@code data} (C order, region size).
   * Fixed-width bases (bits included) are changed in place and returned; otherwise a new vector is returned and
   * {@code base} is left as it was. Either way the caller owns what comes back and still owns base.
   */
  public static FieldVector overlay(FieldVector base, long[] shape, Box region, FieldVector data, BufferAllocator allocator) {
    return overlay(base, base.getField(), shape, region, data, allocator);
  }

  /** {@link #overlay(FieldVector, long[], Box, FieldVector, BufferAllocator)} of vectors of {@code field}. */
  public static FieldVector overlay(
      FieldVector base, Field field, long[] shape, Box region, FieldVector data, BufferAllocator allocator) {
    if (isFixedWidth(base) && flatWidth(base) == flatWidth(data)) {
      copyInto(data, region.shape(), Box.of(region.shape()), base, shape, region.start());
      return base;
    }
    if (base instanceof BitVector bits && data instanceof BitVector) {
      // Bits are fixed-width too: overwrite the region in place, run by run.
      forEachRun(region.shape(), Box.of(region.shape()), shape, region.start(), (from, to, n) -> {
        for (int i = 0; i < n; i++) {
          bits.copyFrom((int) from + i, (int) to + i, data);
        }
      });
      return base;
    }
    int count = Math.toIntExact(Box.of(shape).size());
    // In output order: the region's runs from data, the stretches between them from base.
    List<Gather.Run> runs = new ArrayList<>();
    long[] done = {0};
    forEachRun(region.shape(), Box.of(region.shape()), shape, region.start(), (from, to, n) -> {
      if (to > done[0]) {
        runs.add(new Gather.Run(base, (int) done[0], (int) (to - done[0])));
      }
      runs.add(new Gather.Run(data, (int) from, n));
      done[0] = to + n;
    });
    if (done[0] < count) {
      runs.add(new Gather.Run(base, (int) done[0], (int) (count - done[0])));
    }
    return Gather.gather(field, runs, allocator);
  }

  /** Receives one run: {@code n} consecutive elements from flat index {@code from} to flat index {@code to}. */
  @FunctionalInterface
  public interface RunVisitor {
    void run(long from, long to, int n);
  }

  /**
   * Visits the runs (along the last dimension) of {@code region} of an array of {@code srcShape}, with
   * their flat positions there and in an array of {@code dstShape} where the region starts at
   * {@code dstStart}. Runs come in C order.
   */
  public static void forEachRun(long[] srcShape, Box region, long[] dstShape, long[] dstStart, RunVisitor visitor) {
    int rank = srcShape.length;
    if (region.size() == 0) {
      return;
    }
    if (rank == 0) {
      visitor.run(0, 0, 1);
      return;
    }
    long[] srcStrides = strides(srcShape);
    long[] dstStrides = strides(dstShape);
    int n = Math.toIntExact(region.shape(rank - 1));
    long[] index = new long[rank - 1];
    while (true) {
      long from = region.start(rank - 1) * srcStrides[rank - 1];
      long to = dstStart[rank - 1] * dstStrides[rank - 1];
      for (int d = 0; d < rank - 1; d++) {
        from += (region.start(d) + index[d]) * srcStrides[d];
        to += (dstStart[d] + index[d]) * dstStrides[d];
      }
      visitor.run(from, to, n);
      int d = rank - 2;
      while (d >= 0 && ++index[d] == region.shape(d)) {
        index[d] = 0;
        d--;
      }
      if (d < 0) {
        return;
      }
    }
  }

  /** C-order strides (in elements) of {@code shape}. */
  public static long[] strides(long[] shape) {
    long[] out = new long[shape.length];
    long s = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      out[d] = s;
      s *= shape[d];
    }
    return out;
  }

  /** {@code shape} as longs. */
  public static long[] toLong(int[] shape) {
    long[] out = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = shape[i];
    }
    return out;
  }
}
