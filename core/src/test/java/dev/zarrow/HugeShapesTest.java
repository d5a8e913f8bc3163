package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Shapes at the edge of what a long counts (issue 14): metadata whose element count, chunk grid or
 * chunk extents overflow a long is refused when opened, as a {@link MetadataException} naming the
 * shape; a valid array of 2^62 elements answers {@code size()}, iterates its chunks lazily and refuses
 * a whole read with a clear exception, never an {@link ArithmeticException} or an out-of-memory error.
 */
class HugeShapesTest {
  private static final long TWO_62 = 1L << 62;

  private static MemoryStore storeWith(String path, String shape, String chunks) {
    MemoryStore store = new MemoryStore();
    String json = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape + ", \"data_type\": \"int8\","
        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " + chunks + "}},"
        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
        + " \"codecs\": [{\"name\": \"bytes\"}]}";
    store.set(ZarrNode.metadataKey(path), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
    return store;
  }

  @Test
  void shapeOfMoreElementsThanALongCountsIsAMetadataError() {
    MemoryStore store = storeWith("big", "[" + TWO_62 + ", " + TWO_62 + "]", "[1, 1]");
    MetadataException e = assertThrows(MetadataException.class, () -> Zarr.open(store, "big"));
    assertTrue(e.getMessage().contains("[" + TWO_62 + ", " + TWO_62 + "]"), e.getMessage());
    assertTrue(e.getMessage().contains("/shape"), e.getMessage());
  }

  @Test
  void chunksReachingPastALongAreAMetadataError() {
    // One dimension of 2^63 - 1 elements in chunks of 2^30: the last chunk would end past 2^63 - 1.
    MemoryStore store = storeWith("edge", "[" + Long.MAX_VALUE + "]", "[1073741824]");
    MetadataException e = assertThrows(MetadataException.class, () -> Zarr.open(store, "edge"));
    assertTrue(e.getMessage().contains("chunk"), e.getMessage());
  }

  @Test
  void aZeroSizeDimensionMakesAnyOtherSizesValid() {
    MemoryStore store = storeWith("empty", "[" + TWO_62 + ", " + TWO_62 + ", 0]", "[1, 1, 1]");
    ZarrArray array = Zarr.openArray(store, "empty");
    assertEquals(0, array.size());
    assertEquals(0, array.chunkCount());
    assertFalse(array.chunks().iterator().hasNext());
    try (BufferAllocator allocator = new RootAllocator(); NdVector all = array.read(allocator)) {
      assertEquals(0, all.vector().getValueCount());
    }
  }

  @Test
  void arrayOf2To62ElementsCountsAndIteratesLazily() {
    MemoryStore store = storeWith("huge", "[" + (1L << 31) + ", " + (1L << 31) + "]", "[1, 1]");
    ZarrArray array = Zarr.openArray(store, "huge");
    assertEquals(TWO_62, array.size());
    assertEquals(TWO_62, array.chunkCount());
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      Iterator<long[]> chunks = array.chunks().iterator();
      assertArrayEquals(new long[] {0, 0}, chunks.next());
      assertArrayEquals(new long[] {0, 1}, chunks.next());
    });
  }

  @Test
  void wholeReadOfAHugeArrayIsAClearErrorNotArithmetic() {
    MemoryStore store = storeWith("huge", "[" + (1L << 31) + ", " + (1L << 31) + "]", "[1, 1]");
    ZarrArray array = Zarr.openArray(store, "huge");
    try (BufferAllocator allocator = new RootAllocator()) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> array.read(allocator).close());
      assertInstanceOf(IllegalArgumentException.class, e, e.toString());
      assertTrue(e.getMessage().contains(String.valueOf(TWO_62)) && e.getMessage().contains("region"), e.getMessage());
      // A small region of it reads (the fill value).
      try (NdVector part = array.read(new Box(new long[] {TWO_62 >> 32, 5}, new long[] {2, 3}), allocator)) {
        assertEquals(6, part.vector().getValueCount());
      }
    }
  }

  @Test
  void specOfTooManyElementsIsRefusedWhenBuilt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArraySpec.of(FixedType.INT8, TWO_62, 4));
    assertTrue(e.getMessage().contains("[" + TWO_62 + ", 4]"), e.getMessage());
  }

  @Test
  void resizeToTooManyElementsIsRefused() {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT8, 4, 4).chunks(2, 2));
    assertThrows(IllegalArgumentException.class, () -> array.resize(TWO_62, 4));
    assertArrayEquals(new long[] {4, 4}, Zarr.openArray(store, "a").shape());
  }

  @Test
  void resizeOfAHugeSparseArrayDeletesOnlyWhatLiesOutside() {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT8, 1L << 40, 1L << 20).chunks(1, 1));
    try (BufferAllocator allocator = new RootAllocator();
        var one = org.apache.arrow.vector.TinyIntVector.class.cast(
            dev.zarrow.vector.Fields.createVector(FixedType.INT8.field("v"), allocator))) {
      one.allocateNew(1);
      one.set(0, 7);
      one.setValueCount(1);
      array.write(new Box(new long[] {3, 3}, new long[] {1, 1}), one, allocator);
      array.write(new Box(new long[] {10, 3}, new long[] {1, 1}), one, allocator);
    }
    ZarrArray smaller = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> array.resize(5, 1L << 20));
    assertEquals(5L << 20, smaller.size());
    assertTrue(store.get(array.chunkKey(new long[] {3, 3})).isPresent());
    assertFalse(store.get(array.chunkKey(new long[] {10, 3})).isPresent());
  }

  @Test
  void sizeNeverThrowsArithmetic() {
    // Every shape the parser accepts has a size: the largest counts, the others are ZarrExceptions.
    String[][] cases = {
      {"[" + Long.MAX_VALUE + "]", "[1]"},
      {"[3037000499, 3037000499]", "[46340, 46340]"},
      {"[3037000500, 3037000500]", "[1, 1]"},
      {"[" + Long.MAX_VALUE + ", 2]", "[1, 1]"},
    };
    for (String[] c : cases) {
      MemoryStore store = storeWith("a", c[0], c[1]);
      try {
        ZarrArray array = Zarr.openArray(store, "a");
        assertTrue(array.size() > 0 && array.chunkCount() > 0, c[0]);
      } catch (ZarrException e) {
        // refused as bad metadata: fine
      }
    }
  }
}
