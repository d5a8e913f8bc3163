package dev.zarrow.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.testing.RecordingStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several ranges of one stored value cost as few requests as they can. */
class CoalescingTest {
  @TempDir Path dir;

  RecordingStore store(int size) {
    FileSystemStore fs = FileSystemStore.open(dir);
    ByteBuffer value = ByteBuffer.allocate(size);
    for (int i = 0; i < size; i++) {
      value.put(i, (byte) (i * 7));
    }
    fs.set("k", value);
    return new RecordingStore(fs);
  }

  static void assertBytes(ByteBuffer got, long start, long length) {
    assertEquals(length, got.remaining());
    for (int i = 0; i < length; i++) {
      assertEquals((byte) ((start + i) * 7), got.get(got.position() + i), "byte " + (start + i));
    }
  }

  @Test
  void adjacentOverlappingAndNearbyRangesAreOneRequestInTheCallersOrder() {
    RecordingStore store = store(1 << 20);
    ByteSource source = store.source("k").orElseThrow();
    store.reset();
    List<ByteRange> ranges = List.of(ByteRange.of(300, 50), ByteRange.of(100, 200), ByteRange.of(120, 10),
        ByteRange.of(350 + Coalescing.MAX_GAP, 5), ByteRange.suffix(10));
    List<ByteBuffer> got = source.readAll(ranges);
    assertBytes(got.get(0), 300, 50);
    assertBytes(got.get(1), 100, 200);
    assertBytes(got.get(2), 120, 10);
    assertBytes(got.get(3), 350 + Coalescing.MAX_GAP, 5);
    assertBytes(got.get(4), (1 << 20) - 10, 10);
    assertEquals(2, store.gets(), "[100, 350 + gap + 5) and the suffix: " + store.requests());
    assertFalse(got.get(1).isReadOnly(), "slices of the caller's buffer stay writable (zero-copy)");
  }

  @Test
  void slicesPassRangesToTheirParentWhole() {
    RecordingStore store = store(4096);
    ByteSource slice = store.source("k").orElseThrow().slice(1000, 2000);
    store.reset();
    List<ByteBuffer> got = slice.readAll(List.of(ByteRange.of(0, 10), ByteRange.of(10, 10), ByteRange.suffix(4)));
    assertBytes(got.get(0), 1000, 10);
    assertBytes(got.get(1), 1010, 10);
    assertBytes(got.get(2), 2996, 4);
    assertEquals(1, store.gets(), store.requests().toString());
    assertThrows(CorruptChunkException.class, () -> slice.readAll(List.of(ByteRange.of(1990, 20))));
  }
}
