package dev.zarrow.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.AllocatorExtension;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ScratchBuffers}: buffers of different sizes lent together each find their own kind again. */
@ExtendWith(AllocatorExtension.class)
class ScratchBuffersTest {
  @Test
  void lendsTheSmallestFreeBufferThatFits(BufferAllocator allocator) {
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "test")) {
      ArrowBuf stored = scratch.take(3_000_000);
      ArrowBuf decoded = scratch.take(4_000_000);
      assertTrue(stored.capacity() >= 3_000_000 && decoded.capacity() >= 4_000_000);
      long lent = allocator.getAllocatedMemory();
      scratch.give(decoded);
      scratch.give(stored);
      for (int i = 0; i < 5; i++) { // a chunk compressed a little larger, then its decoded bytes
        ArrowBuf s = scratch.take(3_100_000 + i);
        ArrowBuf d = scratch.take(4_000_000);
        assertSame(stored, s);
        assertSame(decoded, d);
        scratch.give(s);
        scratch.give(d);
      }
      assertEquals(lent, allocator.getAllocatedMemory(), "nothing new allocated");
      ArrowBuf larger = scratch.take(10_000_000); // nothing fits: one too small is freed for it
      assertTrue(larger.capacity() >= 10_000_000);
      scratch.give(larger);
    }
    assertEquals(0, allocator.getAllocatedMemory());
  }
}
