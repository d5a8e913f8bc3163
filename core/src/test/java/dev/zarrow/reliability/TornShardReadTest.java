package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.NdVector;
import dev.zarrow.codec.sharding.IndexLocation;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer replaces a shard, version after version, while readers read single inner chunks of it (a
 * partial read: the shard index through one range, then the inner chunk through another). Each read
 * must see one version of the shard: an old index with the new file's bytes would read another inner
 * chunk's bytes, or bytes past its end.
 *
 * <p>Element {@code i} of inner chunk {@code c} in version {@code v} is {@code v * 1000 + c * 10 + i};
 * version {@code v} leaves every other inner chunk empty (even ones when {@code v} is even, odd ones
 * otherwise), so consecutive versions place their inner chunks at different offsets. The inner codecs
 * carry no checksum, so a torn read would come back as wrong values rather than as an exception.
 */
@ExtendWith(AllocatorExtension.class)
class TornShardReadTest {
  private static final int INNER = 8;
  private static final int INNER_CHUNKS = 8;
  private static final int SIZE = INNER * INNER_CHUNKS;
  private static final int VERSIONS = Integer.getInteger("zarrow.torn.versions", 1500);
  private static final int READERS = 3;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"file/end", "file/start", "memory/end"})
  void everyPartialReadSeesOneVersion(String mode, BufferAllocator allocator) throws Exception {
    WritableStore store = mode.startsWith("file") ? FileSystemStore.open(dir) : new MemoryStore();
    IndexLocation location = mode.endsWith("start") ? IndexLocation.START : IndexLocation.END;
    ArraySpec spec = ArraySpec.of(FixedType.INT32, SIZE).chunks(SIZE).codecs(List.of(ArraySpec.shardingIndexed(new int[] {INNER}, List.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little"))), ArraySpec.defaultIndexCodecs(), location.json())));
    ZarrArray array = Zarr.createArray(store, "a", spec);
    writeVersion(array, 1, allocator);

    ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    CountDownLatch readersRunning = new CountDownLatch(READERS); // so reads overlap the writes
    try {
      Future<?> writer = pool.submit(() -> {
        try {
          readersRunning.await();
          for (int v = 2; v <= VERSIONS; v++) {
            writeVersion(array, v, allocator);
          }
        } finally {
          writing.set(false);
        }
        return null;
      });
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        int first = r;
        readers.add(pool.submit(() -> {
          readersRunning.countDown();
          for (int c = first; writing.get(); c = (c + 1) % INNER_CHUNKS) {
            try {
              checkInnerChunk(array, c, allocator);
            } catch (ZarrException e) {
              refused.incrementAndGet(); // a clean refusal is allowed, mixed data is not
            }
            reads.incrementAndGet();
          }
          return null;
        }));
      }
      writer.get();
      for (Future<?> f : readers) {
        f.get();
      }
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }
    assertTrue(reads.get() > 0, "the readers never ran");
    System.out.println("torn shard reads " + mode + ": " + VERSIONS + " versions, " + reads.get()
        + " inner chunk reads, " + refused.get() + " refused with a ZarrException");
  }

  private static void writeVersion(ZarrArray array, int v, BufferAllocator allocator) {
    try (IntVector values = new IntVector("v", allocator)) {
      values.allocateNew(SIZE);
      for (int c = 0; c < INNER_CHUNKS; c++) {
        for (int i = 0; i < INNER; i++) {
          values.set(c * INNER + i, present(v, c) ? stamp(v, c, i) : 0);
        }
      }
      values.setValueCount(SIZE);
      array.writeChunk(new long[] {0}, values);
    }
  }

  private static boolean present(int v, int c) {
    return (v + c) % 2 == 1;
  }

  private static int stamp(int v, int c, int i) {
    return v * 1000 + c * 10 + i;
  }

  /** Inner chunk {@code c} must be empty (fill) or hold one version's values for chunk {@code c}. */
  private static void checkInnerChunk(ZarrArray array, int c, BufferAllocator allocator) {
    try (NdVector part = array.read(new Box(new long[] {(long) c * INNER}, new long[] {INNER}), allocator)) {
      IntVector v = (IntVector) part.vector();
      int first = v.get(0);
      if (first == 0) {
        for (int i = 0; i < INNER; i++) {
          assertEquals(0, v.get(i), "inner chunk " + c + ": empty and written at once");
        }
        return;
      }
      int version = first / 1000;
      assertTrue(present(version, c), "inner chunk " + c + " holds " + first + ": not a value of this chunk");
      for (int i = 0; i < INNER; i++) {
        assertEquals(stamp(version, c, i), v.get(i), "inner chunk " + c + " mixes versions");
      }
    }
  }
}
