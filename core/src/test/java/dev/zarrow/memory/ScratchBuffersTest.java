package dev.zarrow.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Buffers come back for reuse, and a lent buffer only once nobody holds it. */
@ExtendWith(AllocatorExtension.class)
class ScratchBuffersTest {
  @Test
  void aLentBufferIsLentAgainOnlyOnceEveryHolderReleasedIt(BufferAllocator allocator) {
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "test")) {
      IntVector held = new IntVector("held", scratch.allocator());
      long address;
      try (ArrowBuf lent = scratch.lend(400)) {
        address = lent.memoryAddress();
        held.loadFieldBuffers(new ArrowFieldNode(100, 0), List.of(scratch.allocator().getEmpty(), lent));
      }
      IntVector other = new IntVector("other", scratch.allocator());
      other.loadFieldBuffers(new ArrowFieldNode(100, 0), List.of(scratch.allocator().getEmpty(), held.getDataBuffer()));
      held.close();
      try (ArrowBuf next = scratch.lend(400)) {
        assertNotEquals(address, next.memoryAddress(), "lent again while a vector still holds it");
      }
      other.close();
      ArrowBuf taken = scratch.take(400); // the smallest free buffer that fits: one of the two
      assertTrue(taken.capacity() >= 400);
      scratch.give(taken);
      try (ArrowBuf again = scratch.lend(400)) {
        ArrowBuf second = scratch.take(400);
        assertNotEquals(again.memoryAddress(), second.memoryAddress());
        scratch.give(second);
      }
    }
  }

  @Test
  void aLoanLendsOneBufferOfTheSizeAskedAndGivesItBackOnClose(BufferAllocator allocator) {
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "loans")) {
      long address;
      try (ScratchBuffers.Loan loan = scratch.loan()) {
        ByteBuffer bytes = loan.apply(1000);
        assertEquals(1000, bytes.remaining());
        assertEquals(ByteOrder.LITTLE_ENDIAN, bytes.order());
        address = MemoryUtil.getByteBufferAddress(bytes);
        assertThrows(IllegalStateException.class, () -> loan.apply(10));
      }
      ArrowBuf again = scratch.take(1000); // the loan's buffer, given back
      assertEquals(address, again.memoryAddress());
      scratch.give(again);
      scratch.loan().close(); // a loan never asked takes nothing
    }
  }

  @Test
  void takeChoosesTheSmallestBufferThatFits(BufferAllocator allocator) {
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "test")) {
      ArrowBuf large = scratch.take(1 << 20);
      ArrowBuf small = scratch.take(1 << 10);
      long largeAddress = large.memoryAddress();
      long smallAddress = small.memoryAddress();
      scratch.give(large);
      scratch.give(small);
      ArrowBuf a = scratch.take(1000);
      assertEquals(smallAddress, a.memoryAddress());
      ArrowBuf b = scratch.take(1000); // the small one is out: the large one serves
      assertEquals(largeAddress, b.memoryAddress());
      scratch.give(a);
      scratch.give(b);
      ArrowBuf c = scratch.take(1 << 20); // both free, only the large one fits
      assertEquals(largeAddress, c.memoryAddress());
      scratch.give(c);
    }
  }

  @Test
  void buffersGivenBackBeyondTheCapAreFreed(BufferAllocator allocator) {
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "test", 1500)) {
      ArrowBuf a = scratch.take(800); // 1,000 bytes with the headroom
      ArrowBuf b = scratch.take(800);
      long one = a.capacity();
      scratch.give(a);
      scratch.give(b); // 2,000 bytes free would exceed 1,500: freed
      assertEquals(one, scratch.allocator().getAllocatedMemory());
      ArrowBuf again = scratch.take(800);
      assertEquals(one, scratch.allocator().getAllocatedMemory(), "the kept buffer serves");
      try (ArrowBuf lent = scratch.lend(800)) {
        assertEquals(2 * one, scratch.allocator().getAllocatedMemory());
      }
      scratch.give(again);
      scratch.take(1).close(); // reclaims the lent buffer nobody holds: over the cap, freed
      assertEquals(0, scratch.allocator().getAllocatedMemory());
    }
  }

  @Test
  void threadsLendingAndTakingAtOnceNeverShareABuffer(BufferAllocator allocator) throws Exception {
    // Each holder writes its own mark over the whole buffer, yields, and finds it unchanged: a buffer
    // lent or taken twice at once (a reclaim racing a lend) would show another holder's mark.
    int threads = 4;
    java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
    try (ScratchBuffers scratch = new ScratchBuffers(allocator, "test")) {
      java.util.List<Thread> workers = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long mark = t + 1;
        workers.add(new Thread(() -> {
          for (int i = 0; i < 20_000 && failure.get() == null; i++) {
            boolean lend = (i + mark) % 2 == 0;
            ArrowBuf buf = lend ? scratch.lend(64 + (i % 3) * 64) : scratch.take(64 + (i % 3) * 64);
            for (long at = 0; at + 8 <= 64; at += 8) {
              buf.setLong(at, mark * 1_000_003 + i);
            }
            Thread.yield();
            for (long at = 0; at + 8 <= 64; at += 8) {
              if (buf.getLong(at) != mark * 1_000_003 + i) {
                failure.compareAndSet(null, "holder " + mark + " round " + i + " found " + buf.getLong(at));
              }
            }
            if (lend) {
              buf.close();
            } else {
              scratch.give(buf);
            }
          }
        }));
      }
      workers.forEach(Thread::start);
      for (Thread w : workers) {
        w.join();
      }
    }
    assertNull(failure.get());
  }
}
