package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole read from files reads every chunk's stored bytes into buffers lent from chunk to chunk
 * (chunks of different compressed sizes share them): the values come back right on one thread and on
 * a pool, a corrupt chunk fails naming it, and every lent buffer is released (the allocator extension
 * fails the test on any outstanding byte).
 */
@ExtendWith(AllocatorExtension.class)
class WholeReadScratchTest {
  static final int CHUNK = 1000;
  static final int CHUNKS = 24;

  @TempDir Path dir;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  private ZarrArray write(FileSystemStore store, BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.FLOAT32, (long) CHUNKS * CHUNK).chunks(CHUNK)
        .codecs(List.of(ArraySpec.bytes("little"), ArraySpec.zstd(3), ArraySpec.crc32c())));
    try (Float4Vector v = new Float4Vector("x", allocator)) {
      v.allocateNew(CHUNKS * CHUNK);
      for (int i = 0; i < CHUNKS * CHUNK; i++) {
        // Chunks compress to different sizes: the later ones are noisier.
        v.set(i, (i / CHUNK) % 3 == 0 ? i / CHUNK : (float) Math.sin(i * 0.37) * (i % 97));
      }
      v.setValueCount(CHUNKS * CHUNK);
      array.write(0, v);
    }
    return array;
  }

  @Test
  void wholeReadsOnOneThreadAndOnAPoolGiveTheValuesWritten(BufferAllocator allocator) throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    write(store, allocator);
    for (ZarrOptions options : List.of(ZarrOptions.defaults().withExecutor(Runnable::run), ZarrOptions.defaults().withExecutor(pool))) {
      ZarrArray array = Zarr.openArray(store, "a", options);
      for (int round = 0; round < 2; round++) {
        try (NdVector all = array.read(allocator)) {
          Float4Vector v = (Float4Vector) all.vector();
          for (int i = 0; i < CHUNKS * CHUNK; i++) {
            float expected = (i / CHUNK) % 3 == 0 ? i / CHUNK : (float) Math.sin(i * 0.37) * (i % 97);
            assertEquals(expected, v.get(i), "element " + i);
          }
        }
      }
    }
  }

  @Test
  void aCorruptChunkFailsNamingItAndReleasesEveryBuffer(BufferAllocator allocator) throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    write(store, allocator);
    Path chunk = dir.resolve("a/c/17");
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(chunk, bytes);
    ZarrArray array = Zarr.openArray(store, "a", ZarrOptions.defaults().withExecutor(pool));
    ZarrException e = assertThrows(ZarrException.class, () -> array.read(allocator).close());
    assertTrue(e.getMessage().contains("[17]"), e.getMessage());
  }
}
