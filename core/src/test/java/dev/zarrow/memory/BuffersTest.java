package dev.zarrow.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.testing.AllocatorExtension;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.holders.NullableIntHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Buffers#allocateUninitialized}: exact size, accounted to the allocator, refused past its limit. */
@ExtendWith(AllocatorExtension.class)
class BuffersTest {
  @Test
  void uninitializedMemoryIsExactAndAccounted(BufferAllocator allocator) {
    long size = 4_200_001; // the pool would round this to 8 MiB
    ArrowBuf buf = Buffers.allocateUninitialized(allocator, size);
    assertEquals(size, buf.capacity());
    assertEquals(size, allocator.getAllocatedMemory());
    buf.setLong(size - 8, 0x0123456789abcdefL);
    buf.setByte(0, 7);
    assertEquals(0x0123456789abcdefL, buf.getLong(size - 8));
    assertEquals(7, buf.getByte(0));
    // A slice shares the memory and keeps it alive after the first reference is closed.
    ArrowBuf tail = buf.slice(size - 8, 8);
    tail.getReferenceManager().retain();
    buf.close();
    assertEquals(size, allocator.getAllocatedMemory());
    assertEquals(0x0123456789abcdefL, tail.getLong(0));
    tail.close();
    assertEquals(0, allocator.getAllocatedMemory());
    assertEquals(0, Buffers.allocateUninitialized(allocator, 0).capacity());
  }

  @Test
  void refusedPastTheAllocatorsLimit(BufferAllocator allocator) {
    try (BufferAllocator small = allocator.newChildAllocator("small", 0, 1000)) {
      assertThrows(OutOfMemoryException.class, () -> Buffers.allocateUninitialized(small, 1001));
      assertEquals(0, small.getAllocatedMemory());
      try (ArrowBuf ok = Buffers.allocateUninitialized(small, 1000)) {
        assertEquals(1000, small.getAllocatedMemory());
      }
    }
  }

  @Test
  void booleansPackToArrowBitsAndBack(BufferAllocator allocator) {
    java.util.Random random = new java.util.Random(18);
    for (int count = 0; count <= 75; count++) {
      try (ArrowBuf bytes = allocator.buffer(count + 1); ArrowBuf bits = allocator.buffer(count / 8 + 1);
          ArrowBuf back = allocator.buffer(count + 1)) {
        bits.setZero(0, bits.capacity());
        for (int i = 0; i < count; i++) {
          // Any non-zero byte is true (numpy's reading), including the sign bit alone.
          int pick = random.nextInt(4);
          bytes.setByte(i, pick == 0 ? 0 : pick == 1 ? 1 : pick == 2 ? 0x80 : random.nextInt(256));
        }
        Buffers.packBooleans(bytes.memoryAddress(), count, bits.memoryAddress());
        for (int i = 0; i < count; i++) {
          int expected = bytes.getByte(i) != 0 ? 1 : 0;
          assertEquals(expected, bits.getByte(i / 8) >> (i % 8) & 1, "element " + i + " of " + count);
        }
        for (int i = count; i < (count + 7) / 8 * 8; i++) {
          assertEquals(0, bits.getByte(i / 8) >> (i % 8) & 1, "padding bit " + i + " of " + count + " stays 0");
        }
        back.setByte(count, 0x55);
        Buffers.unpackBooleans(bits.memoryAddress(), count, back.memoryAddress());
        for (int i = 0; i < count; i++) {
          assertEquals(bytes.getByte(i) != 0 ? 1 : 0, back.getByte(i), "element " + i + " of " + count);
        }
        assertEquals(0x55, back.getByte(count), "nothing written past the last element");
      }
    }
  }

  @Test
  void hasNullsAgreesWithArrowsCountForEveryPlaceOfANull(BufferAllocator allocator) {
    // Every count around a word's end, a null at each place that matters (first, last, in the tail
    // past the last whole word), and bits set past the count that must not hide a null.
    for (int count : new int[] {1, 7, 8, 63, 64, 65, 127, 128, 129, 1000}) {
      for (int at : new int[] {-1, 0, count / 2, (count / 64) * 64, count - 1}) {
        if (at >= count) {
          continue;
        }
        try (IntVector ints = new IntVector("i", allocator); VarCharVector strings = new VarCharVector("s", allocator);
            ListVector lists = ListVector.empty("l", allocator)) {
          ints.allocateNew(count);
          strings.allocateNew(count);
          lists.allocateNew();
          for (int i = 0; i < count; i++) {
            if (i != at) {
              ints.set(i, i);
              strings.setSafe(i, new byte[] {(byte) i});
              lists.startNewValue(i);
              lists.endValue(i, 0);
            }
          }
          ints.setValueCount(count);
          strings.setValueCount(count);
          lists.setValueCount(count);
          for (ValueVector v : new ValueVector[] {ints, strings, lists}) {
            assertEquals(v.getNullCount() > 0, Buffers.hasNulls(v), v.getName() + " of " + count + ", null at " + at);
            assertEquals(at >= 0, Buffers.hasNulls(v), v.getName() + " of " + count + ", null at " + at);
          }
        }
      }
    }
  }

  @Test
  void hasNullsAsksArrowForVectorsWithoutABitmap(BufferAllocator allocator) {
    try (NullVector nulls = new NullVector("n", 3); UnionVector union = UnionVector.empty("u", allocator)) {
      assertEquals(true, Buffers.hasNulls(nulls));
      union.setValueCount(0);
      assertEquals(false, Buffers.hasNulls(union));
      // Values, so that the answer comes from Arrow's count, not from the empty vector's shortcut.
      NullableIntHolder five = new NullableIntHolder();
      five.isSet = 1;
      five.value = 5;
      union.setSafe(0, five);
      union.setSafe(1, five);
      union.setValueCount(2);
      assertEquals(false, Buffers.hasNulls(union));
      NullableIntHolder none = new NullableIntHolder(); // isSet 0: a null int, held by the union's int child
      union.setSafe(1, none);
      assertEquals(union.getNullCount() > 0, Buffers.hasNulls(union), "Arrow's count of " + union.getNullCount());
    }
  }

  @Test
  void allValidSetsExactlyTheFirstCountBits(BufferAllocator allocator) {
    for (int count : new int[] {0, 1, 7, 8, 9, 63, 64, 65, 1000}) {
      try (ArrowBuf bits = Buffers.allValid(count, allocator)) {
        assertEquals((count + 7) / 8, bits.capacity(), "bytes for " + count);
        for (int i = 0; i < 8 * bits.capacity(); i++) {
          assertEquals(i < count ? 1 : 0, bits.getByte(i / 8) >> (i % 8) & 1, "bit " + i + " of " + count);
        }
      }
    }
  }
}
