package dev.zarrow.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partial writes of one shard never lose an update: threads writing different inner chunks of one
 * shard all land (ZarrArray's per-key lock around the read-modify-write), and a writer killed mid-write
 * leaves the old shard or the new one (FileSystemStore's temp file + atomic rename).
 */
@ExtendWith(AllocatorExtension.class)
class ShardingConcurrencyTest {
  static final int THREADS = 8;
  static final int INNER = 16;
  static final int ROUNDS = 60;

  @TempDir Path dir;

  static ZarrArray create(WritableStore store) {
    return Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, THREADS * INNER).chunks(THREADS * INNER)
        .codecs(List.of(ArraySpec.shardingIndexed(new int[] {INNER}, List.of(ShardingArrayTest.BYTES, ArraySpec.zstd(0))))));
  }

  @Test
  void writersOfDifferentInnerChunksOfOneShardAllLand(BufferAllocator allocator) throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    create(store);
    race(t -> Zarr.openArray(store, "a"), allocator);
  }

  @Test
  void writersThroughSeparateStoresOnOneDirectoryAllLand(BufferAllocator allocator) throws Exception {
    create(FileSystemStore.open(dir));
    // Each thread opens the directory itself: the stores' locks must still be shared.
    race(t -> Zarr.openArray(FileSystemStore.open(dir), "a"), allocator);
  }

  interface Opener {
    ZarrArray open(int thread);
  }

  /**
   * Every round, every thread writes (part of) its own inner chunk at the same moment; between rounds
   * each inner chunk must hold exactly what its thread has written. Writes alternate between whole
   * inner chunks and parts of them.
   */
  private static void race(Opener opener, BufferAllocator allocator) throws Exception {
    ZarrArray reader = opener.open(-1);
    int[] expected = new int[THREADS * INNER];
    AtomicInteger rounds = new AtomicInteger();
    AtomicReference<Throwable> wrong = new AtomicReference<>();
    // Runs when every writer has finished a round, before any starts the next.
    CyclicBarrier barrier = new CyclicBarrier(THREADS, () -> {
      int round = rounds.getAndIncrement();
      if (round == 0) {
        return;
      }
      for (int t = 0; t < THREADS; t++) {
        for (int i = from(round); i < from(round) + length(round); i++) {
          expected[t * INNER + i] = value(round, t, i);
        }
      }
      try (NdVector all = reader.read(allocator)) {
        IntVector v = (IntVector) all.vector();
        for (int i = 0; i < expected.length; i++) {
          assertEquals(expected[i], v.get(i), "round " + round + ", element " + i + " (inner chunk " + i / INNER + ")");
        }
      } catch (Throwable e) {
        wrong.compareAndSet(null, e);
        throw e;
      }
    });
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      ZarrArray array = opener.open(t);
      threads.add(new Thread(() -> {
        try (BufferAllocator mine = allocator.newChildAllocator("writer " + thread, 0, Long.MAX_VALUE)) {
          for (int round = 1; round <= ROUNDS; round++) {
            try (IntVector data = new IntVector("x", mine)) {
              data.allocateNew(length(round));
              for (int i = 0; i < length(round); i++) {
                data.set(i, value(round, thread, from(round) + i));
              }
              data.setValueCount(length(round));
              barrier.await(30, TimeUnit.SECONDS);
              array.write(thread * INNER + from(round), data);
            }
          }
          barrier.await(30, TimeUnit.SECONDS);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          barrier.reset();
        }
      }, "shard writer " + t));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    if (wrong.get() != null) {
      throw new AssertionError("an update was lost", wrong.get());
    }
    if (failure.get() != null) {
      throw new AssertionError("a writer failed", failure.get());
    }
    assertEquals(ROUNDS + 1, rounds.get());
  }

  static int from(int round) {
    return round % 2 == 0 ? 0 : 3;
  }

  static int length(int round) {
    return round % 2 == 0 ? INNER : 7;
  }

  static int value(int round, int thread, int i) {
    return round * 1000 + thread * INNER + i;
  }

  @Test
  void aWriterKilledMidWriteLeavesTheOldShardOrTheNew(BufferAllocator allocator) throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    ZarrArray array = create(store);
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    for (int attempt = 0; attempt < 2; attempt++) {
      Process child = new ProcessBuilder(javaBin.toString(),
          "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED", "-cp", classPath,
          ShardWriterMain.class.getName(), dir.toString())
          .redirectErrorStream(true).start();
      try (var out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        // Wait for its first write, let it write for a while, then SIGKILL it wherever it is.
        StringBuilder said = new StringBuilder();
        for (String line = out.readLine(); !"writing".equals(line); line = out.readLine()) {
          assertTrue(line != null, "the writer stopped before writing: " + said);
          said.append(line).append('\n');
        }
        Thread.sleep(100 + 150L * attempt);
        assertTrue(child.isAlive(), "the writer runs until killed");
      } finally {
        child.destroyForcibly();
        child.waitFor(30, TimeUnit.SECONDS);
      }
      // Every inner chunk is one generation's value throughout: a whole old or new shard.
      try (NdVector all = array.read(allocator)) {
        IntVector v = (IntVector) all.vector();
        for (int c = 0; c < THREADS; c++) {
          for (int i = 1; i < INNER; i++) {
            assertEquals(v.get(c * INNER), v.get(c * INNER + i), "inner chunk " + c + " is one write's");
          }
        }
      }
      try (Stream<Path> files = Files.list(dir.resolve("a/c"))) {
        // The killed write may leave its temporary file behind, never listed as a key.
        assertEquals(List.of("a/c/0"), store.list("a/c/"), "files: " + files.toList());
      }
    }
  }

  /** Writes whole inner chunks of the shard of {@code args[0]}/a forever, each one constant. */
  public static final class ShardWriterMain {
    public static void main(String[] args) throws IOException {
      try (var allocator = new org.apache.arrow.memory.RootAllocator();
          FileSystemStore store = FileSystemStore.open(Path.of(args[0]))) {
        ZarrArray array = Zarr.openArray(store, "a");
        for (int generation = 1; ; generation++) {
          int inner = generation % THREADS;
          try (IntVector data = new IntVector("x", allocator)) {
            data.allocateNew(INNER);
            for (int i = 0; i < INNER; i++) {
              data.set(i, generation);
            }
            data.setValueCount(INNER);
            array.write(new Box(new long[] {(long) inner * INNER}, new long[] {INNER}), data);
          }
          if (generation == 1) {
            System.out.println("writing");
            System.out.flush();
          }
        }
      }
    }
  }
}
