package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.grid.Box;
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
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads increment their own elements of one array by read-modify-write while readers scan it.
 * Threads own rows that share chunks, so every chunk is rewritten concurrently by several threads
 * (the per-key lock must keep each update), or own whole chunks; and the same with the whole array
 * one shard, so the writers share or own its inner chunks. Afterwards every element holds
 * exactly the number of rounds: no update lost, no exception, no Arrow memory left.
 */
@ExtendWith(AllocatorExtension.class)
class ConcurrencyTest {
  private static final int SIZE = 64;
  private static final int CHUNK = 16;
  private static final int WRITERS = 8;
  private static final int READERS = 2;
  private static final int ROUNDS = 8;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory/rows", "file/rows", "memory/chunks", "file/chunks", "memory/shard/rows", "memory/shard/chunks", "file/shard/rows", "file/shard/chunks"})
  void concurrentReadModifyWriteLosesNothing(String mode, BufferAllocator allocator) throws Exception {
    WritableStore store = mode.startsWith("file") ? FileSystemStore.open(dir) : new MemoryStore();
    ArraySpec spec = mode.contains("shard")
        // one shard holds the whole array; its 16x16 inner chunks are what the writers share or own
        ? ArraySpec.of(FixedType.INT64, SIZE, SIZE).chunks(SIZE, SIZE).codecs(List.of(ArraySpec.shardingIndexed(new int[] {CHUNK, CHUNK}, List.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little")),
                ArraySpec.zstd(1), ArraySpec.crc32c()))))
        : ArraySpec.of(FixedType.INT64, SIZE, SIZE).chunks(CHUNK, CHUNK)
            .compressors(List.of(ArraySpec.zstd(1), ArraySpec.crc32c()));
    ZarrArray array = Zarr.createArray(store, "counts", spec);
    List<List<Box>> owned = mode.endsWith("rows") ? rows() : chunks();

    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger scans = new AtomicInteger();
    // The writers start once every reader runs, so reads overlap writes even when the pool's threads
    // start late on a busy machine (a reader that started after the last write proved nothing).
    CountDownLatch readersRunning = new CountDownLatch(READERS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (List<Box> boxes : owned) {
        writers.add(pool.submit(() -> {
          readersRunning.await();
          for (int round = 0; round < ROUNDS; round++) {
            for (Box box : boxes) {
              increment(array, box, round, allocator);
            }
          }
          return null;
        }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        readers.add(pool.submit(() -> {
          readersRunning.countDown();
          do {
            scan(array, allocator);
            scans.incrementAndGet();
            Thread.sleep(2); // leave the (few) cores mostly to the writers
          } while (writing.get());
          return null;
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
      writing.set(false);
      for (Future<?> f : readers) {
        f.get();
      }
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }
    try (NdVector all = array.read(allocator)) {
      BigIntVector v = (BigIntVector) all.vector();
      for (int i = 0; i < SIZE * SIZE; i++) {
        assertEquals(ROUNDS, v.get(i), "element " + i + ": updates lost");
      }
    }
    assertTrue(scans.get() > 0, "the readers never ran");
    System.out.println("concurrency " + mode + ": " + WRITERS + " writers x " + ROUNDS + " rounds, " + scans.get() + " concurrent scans");
  }

  /** Reads {@code box}, checks every element equals {@code round}, writes it back plus one. */
  private static void increment(ZarrArray array, Box box, int round, BufferAllocator allocator) {
    try (NdVector values = array.read(box, allocator)) {
      BigIntVector v = (BigIntVector) values.vector();
      for (int i = 0; i < v.getValueCount(); i++) {
        assertEquals(round, v.get(i), "an update to " + box + " was lost");
        v.set(i, round + 1);
      }
      array.write(box, v);
    }
  }

  /** Each chunk's part of each row was written at once: it must be uniform, and within the rounds. */
  private static void scan(ZarrArray array, BufferAllocator allocator) {
    try (NdVector all = array.read(allocator)) {
      BigIntVector v = (BigIntVector) all.vector();
      for (int row = 0; row < SIZE; row++) {
        for (int c = 0; c < SIZE; c += CHUNK) {
          long first = v.get(row * SIZE + c);
          assertTrue(first >= 0 && first <= ROUNDS, "value " + first + " out of range");
          for (int i = 1; i < CHUNK; i++) {
            assertEquals(first, v.get(row * SIZE + c + i), "row " + row + " torn inside the chunk at column " + c);
          }
        }
      }
    }
  }

  /** Writer t owns rows t, t + 8, ...: each 16-row chunk is shared by all eight writers. */
  private static List<List<Box>> rows() {
    List<List<Box>> out = new ArrayList<>();
    for (int t = 0; t < WRITERS; t++) {
      List<Box> boxes = new ArrayList<>();
      for (int row = t; row < SIZE; row += WRITERS) {
        boxes.add(new Box(new long[] {row, 0}, new long[] {1, SIZE}));
      }
      out.add(boxes);
    }
    return out;
  }

  /** Writer t owns chunks t and t + 8 whole. */
  private static List<List<Box>> chunks() {
    List<List<Box>> out = new ArrayList<>();
    int perSide = SIZE / CHUNK;
    for (int t = 0; t < WRITERS; t++) {
      List<Box> boxes = new ArrayList<>();
      for (int c = t; c < perSide * perSide; c += WRITERS) {
        boxes.add(new Box(new long[] {(long) c / perSide * CHUNK, (long) c % perSide * CHUNK}, new long[] {CHUNK, CHUNK}));
      }
      out.add(boxes);
    }
    return out;
  }
}
