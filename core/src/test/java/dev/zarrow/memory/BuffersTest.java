package dev.zarrow.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.testing.AllocatorExtension;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
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
}
