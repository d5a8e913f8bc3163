package dev.zarrow.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.testing.AllocatorExtension;
import java.util.SplittableRandom;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Broadcast}: a part of a source keeps exactly the validity of the elements it reads. */
@ExtendWith(AllocatorExtension.class)
class BroadcastTest {
  @Test
  void anyUnsetMatchesABitByBitScan(BufferAllocator allocator) {
    SplittableRandom random = new SplittableRandom(29);
    try (ArrowBuf bits = allocator.buffer(64)) {
      for (int round = 0; round < 200; round++) {
        bits.setOne(0, 64);
        int clear = random.nextInt(-1, 512); // one clear bit, or none
        if (clear >= 0) {
          bits.setByte(clear >>> 3, bits.getByte(clear >>> 3) & ~(1 << (clear & 7)));
        }
        for (int from = 0; from < 512; from += 1 + random.nextInt(37)) {
          for (int n = 0; from + n <= 512; n += 1 + random.nextInt(71)) {
            boolean expected = clear >= from && clear < from + n;
            assertEquals(expected, Broadcast.anyUnset(bits, from, n), "bit " + clear + " in [" + from + ", " + (from + n) + ")");
          }
        }
      }
    }
  }

  /** A source whose nulls are all in its last quarter; parts before it have none, parts across it have them where they are. */
  @Test
  void aPartHasTheNullsOfTheElementsItReads(BufferAllocator allocator) {
    try (Float4Vector source = new Float4Vector("v", allocator)) {
      source.allocateNew(200);
      for (int i = 0; i < 200; i++) {
        if (i < 150 || i % 3 != 0) {
          source.set(i, i);
        }
      }
      source.setValueCount(200);
      check(source, 0, new long[] {1}, new long[] {100}, allocator);
      check(source, 140, new long[] {1}, new long[] {60}, allocator);
      check(source, 100, new long[] {0, 1}, new long[] {3, 50}, allocator); // one row repeated: no null
      check(source, 130, new long[] {0, 1}, new long[] {4, 70}, allocator); // repeated across the nulls
      check(source, 1, new long[] {66, 0}, new long[] {3, 5}, allocator); // each element repeated
    }
  }

  private static void check(Float4Vector source, long first, long[] strides, long[] shape, BufferAllocator allocator) {
    try (FieldVector out = Broadcast.expand(source, first, source.getField(), strides, shape, allocator)) {
      Float4Vector v = (Float4Vector) out;
      int nulls = 0;
      for (int i = 0; i < v.getValueCount(); i++) {
        long src = first;
        long rest = i;
        for (int d = shape.length - 1; d >= 0; d--) {
          src += rest % shape[d] * strides[d];
          rest /= shape[d];
        }
        assertEquals(source.isNull((int) src), v.isNull(i), "element " + i + " (source " + src + ")");
        if (!source.isNull((int) src)) {
          assertEquals(source.get((int) src), v.get(i));
        }
        nulls += v.isNull(i) ? 1 : 0;
      }
      assertEquals(nulls, v.getNullCount());
    }
  }
}
