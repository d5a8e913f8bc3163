package dev.zarrow.vector;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Broadcasting, as numpy does it: a vector laid out as an N-D array of {@code outShape} in C order
 * whose element {@code (i0, ..., in-1)} is the source element {@code sum(i_d * strides[d])}. A stride
 * of 0 repeats the source along that dimension (a variable without it, a dimension's coordinate
 * outside its own dimension); strides also permute (a variable stored as {@code (lon, lat)} read on a
 * {@code (lat, lon)} grid).
 *
 * <p>Done by runs, never by element where the type allows: fixed-width values are copied as whole
 * contiguous blocks, a repeated value is written once and doubled by copies of what is already written,
 * and a block that repeats along a stride-0 dimension is made once and copied. Other types (booleans,
 * strings, nested) go through {@link Gather} with runs of the same shape.
 */
public final class Broadcast {
  private Broadcast() {}

  /**
   * A new vector (the caller owns it) of {@code prod(outShape)} elements of {@code source}'s field
   * (named {@code name}), the broadcast of the borrowed {@code source} with {@code strides} (one per
   * dimension of {@code outShape}, in elements of {@code source}). Every reachable source index must
   * be inside {@code source}.
   */
  public static FieldVector expand(FieldVector source, Field field, long[] strides, long[] outShape, BufferAllocator allocator) {
    return expand(source, 0, field, strides, outShape, allocator);
  }

  /**
   * As {@link #expand(FieldVector, Field, long[], long[], BufferAllocator)}, element {@code (i0, ...,
   * in-1)} being source element {@code first + sum(i_d * strides[d])}: a part of a larger broadcast
   * (one batch of a chunk).
   */
  public static FieldVector expand(
      FieldVector source, long first, Field field, long[] strides, long[] outShape, BufferAllocator allocator) {
    if (strides.length != outShape.length) {
      throw new IllegalArgumentException(strides.length + " strides for " + outShape.length + " dimensions");
    }
    Plan plan = new Plan(strides, outShape);
    long count = plan.block[0];
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a broadcast of " + count + " elements does not fit one vector");
    }
    int width = source instanceof BitVector ? -1 : Regions.isFixedWidth(source) && !(source instanceof FixedSizeListVector)
        ? Regions.flatWidth(source) : -1;
    if (width <= 0) {
      List<Gather.Run> runs = new ArrayList<>();
      plan.walk(0, first, 0, new Runs() {
        @Override
        public void fill(long dst, long src, long n) {
          for (long i = 0; i < n; i++) {
            runs.add(new Gather.Run(source, (int) src, 1));
          }
        }

        @Override
        public void copy(long dst, long src, long n) {
          runs.add(new Gather.Run(source, (int) src, (int) n));
        }

        @Override
        public void repeat(long dst, long n, long times) {
          int end = runs.size();
          int start = startOf(runs, n); // the block just made is the last runs
          for (long t = 1; t < times; t++) {
            for (int r = start; r < end; r++) {
              runs.add(runs.get(r));
            }
          }
        }
      });
      return Gather.gather(field, runs, allocator);
    }
    // Unzeroed memory (every byte is written below), as ZarrArray's whole reads: no zeroing pass and
    // fewer page faults than the pool's fresh buffers of this size.
    try (ArrowBuf to = dev.zarrow.memory.Buffers.allocateUninitialized(allocator, count * width);
        ArrowBuf toBits = dev.zarrow.memory.Buffers.allocateUninitialized(allocator, (count + 7) / 8)) {
      toBits.setOne(0, toBits.capacity());
      ArrowBuf from = Regions.flatData(source);
      boolean nulls = anyUnset(source.getValidityBuffer(), first, plan.reach(first) - first);
      ArrowBuf fromBits = source.getValidityBuffer();
      plan.walk(0, first, 0, new Runs() {
        @Override
        public void fill(long dst, long src, long n) {
          to.setBytes(dst * width, from, src * width, width);
          grow(dst, 1, n);
          if (nulls && !isSet(fromBits, src)) {
            for (long i = 0; i < n; i++) {
              clear(toBits, dst + i);
            }
          }
        }

        @Override
        public void copy(long dst, long src, long n) {
          to.setBytes(dst * width, from, src * width, n * width);
          if (nulls) {
            copyBits(fromBits, src, toBits, dst, n);
          }
        }

        @Override
        public void repeat(long dst, long n, long times) {
          grow(dst, n, n * times);
          if (nulls) {
            for (long i = n; i < n * times; i++) {
              if (!isSet(toBits, dst + i % n)) {
                clear(toBits, dst + i);
              }
            }
          }
        }

        /** Grows the {@code have} elements written at {@code dst} to {@code total} by copying them. */
        private void grow(long dst, long have, long total) {
          while (have < total) {
            long n = Math.min(have, total - have);
            to.setBytes((dst + have) * width, to, dst * width, n * width);
            have += n;
          }
        }
      });
      int nullCount = nulls ? org.apache.arrow.vector.BitVectorHelper.getNullCount(toBits, (int) count) : 0;
      FieldVector out = field.createVector(allocator);
      try {
        out.loadFieldBuffers(new org.apache.arrow.vector.ipc.message.ArrowFieldNode(count, nullCount), List.of(toBits, to));
        return out;
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
    }
  }

  /** Bits {@code [src, src + n)} of {@code from} to {@code [dst, dst + n)} of {@code to}: whole bytes where both align. */
  private static void copyBits(ArrowBuf from, long src, ArrowBuf to, long dst, long n) {
    long i = 0;
    if (((src - dst) & 7) == 0) {
      for (; i < n && ((dst + i) & 7) != 0; i++) {
        copyBit(from, src + i, to, dst + i);
      }
      long bytes = (n - i) >>> 3;
      to.setBytes((dst + i) >>> 3, from, (src + i) >>> 3, bytes);
      i += bytes << 3;
    }
    for (; i < n; i++) {
      copyBit(from, src + i, to, dst + i);
    }
  }

  private static void copyBit(ArrowBuf from, long src, ArrowBuf to, long dst) {
    if (isSet(from, src)) {
      to.setByte(dst >>> 3, to.getByte(dst >>> 3) | (1 << (dst & 7)));
    } else {
      clear(to, dst);
    }
  }

  /**
   * Whether a bit of {@code [from, from + n)} is clear: a null among the source elements a part reads,
   * which costs that part's bits, where the vector's null count (a scan of every bit) would cost the
   * whole source for each batch of a large chunk.
   */
  static boolean anyUnset(ArrowBuf bits, long from, long n) {
    long i = from;
    long end = from + n;
    for (; i < end && (i & 63) != 0; i++) {
      if (!isSet(bits, i)) {
        return true;
      }
    }
    for (; i + 64 <= end; i += 64) {
      if (bits.getLong(i >>> 3) != -1L) {
        return true;
      }
    }
    for (; i < end; i++) {
      if (!isSet(bits, i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSet(ArrowBuf bits, long i) {
    return (bits.getByte(i >>> 3) & (1 << (i & 7))) != 0;
  }

  private static void clear(ArrowBuf bits, long i) {
    bits.setByte(i >>> 3, bits.getByte(i >>> 3) & ~(1 << (i & 7)));
  }

  /** The first of the last runs that together hold {@code n} elements. */
  private static int startOf(List<Gather.Run> runs, long n) {
    long seen = 0;
    int r = runs.size();
    while (seen < n) {
      seen += runs.get(--r).length();
    }
    return r;
  }

  /** What the walk asks for, in output order. */
  private interface Runs {
    /** {@code n} copies of source element {@code src} at {@code dst}. */
    void fill(long dst, long src, long n);

    /** Source elements {@code [src, src + n)} at {@code dst}. */
    void copy(long dst, long src, long n);

    /** The {@code n} elements just written at {@code dst}, {@code times - 1} more times after them. */
    void repeat(long dst, long n, long times);
  }

  private static final class Plan {
    final long[] strides;
    final long[] shape;
    /** Output elements per index of dimension d and below: {@code prod(shape[d:])}. */
    final long[] block;
    /** Whether every stride from d on is 0. */
    final boolean[] constant;
    /** Whether the strides from d on are the C-order strides of {@code shape[d:]}: one contiguous run. */
    final boolean[] contiguous;

    Plan(long[] strides, long[] shape) {
      int n = shape.length;
      this.strides = strides.clone();
      this.shape = shape.clone();
      block = new long[n + 1];
      constant = new boolean[n + 1];
      contiguous = new boolean[n + 1];
      block[n] = 1;
      constant[n] = true;
      contiguous[n] = true;
      for (int d = n - 1; d >= 0; d--) {
        block[d] = Math.multiplyExact(block[d + 1], shape[d]);
        constant[d] = constant[d + 1] && (strides[d] == 0 || shape[d] == 1);
        contiguous[d] = contiguous[d + 1] && (strides[d] == block[d + 1] || shape[d] == 1);
      }
    }

    /** One past the last source element the walk from {@code first} reads ({@code first} when it reads none). */
    long reach(long first) {
      long last = first;
      for (int d = 0; d < shape.length; d++) {
        if (shape[d] == 0) {
          return first;
        }
        last += (shape[d] - 1) * strides[d];
      }
      return last + 1;
    }

    void walk(int d, long src, long dst, Runs runs) {
      long n = block[d];
      if (n == 0) {
        return;
      }
      if (constant[d]) {
        runs.fill(dst, src, n);
      } else if (contiguous[d]) {
        runs.copy(dst, src, n);
      } else if (strides[d] == 0) {
        walk(d + 1, src, dst, runs);
        runs.repeat(dst, block[d + 1], shape[d]);
      } else {
        for (long i = 0; i < shape[d]; i++) {
          walk(d + 1, src + i * strides[d], dst + i * block[d + 1], runs);
        }
      }
    }
  }
}
