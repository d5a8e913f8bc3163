package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.grid.ChunkKeyEncoding;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Keys relative to an array back to chunk coordinates, in both encodings. */
class StoredKeysTest {
  private static final ChunkKeyEncoding V2 = new ChunkKeyEncoding(true, '.');
  private static final ChunkKeyEncoding DOTS = new ChunkKeyEncoding(false, '.');

  @Test
  void validKeys() {
    assertArrayEquals(new long[] {1, 20}, StoredKeys.coords("c/1/20", ChunkKeyEncoding.DEFAULT, new long[] {2, 21}).orElseThrow());
    assertArrayEquals(new long[] {0, 3}, StoredKeys.coords("c.0.3", DOTS, new long[] {1, 4}).orElseThrow());
    assertArrayEquals(new long[] {4}, StoredKeys.coords("4", V2, new long[] {5}).orElseThrow());
    assertArrayEquals(new long[] {}, StoredKeys.coords("c", ChunkKeyEncoding.DEFAULT, new long[] {}).orElseThrow());
    assertArrayEquals(new long[] {}, StoredKeys.coords("0", V2, new long[] {}).orElseThrow());
  }

  @Test
  void otherKeys() {
    long[] grid = {3, 3};
    for (String key : new String[] {"c/1", "c/1/2/0", "c/3/0", "c/01/0", "c/-1/0", "c/+1/0", "c/1/", "c//1", "d/1/1", "c.1.1",
        "c/99999999999999999999/0", "c/9223372036854775807/0", "zarr.json", ""}) {
      Optional<long[]> coords = StoredKeys.coords(key, ChunkKeyEncoding.DEFAULT, grid);
      assertTrue(coords.isEmpty(), key);
    }
    assertTrue(StoredKeys.coords("1/1", V2, grid).isEmpty());
    assertTrue(StoredKeys.coords("c", V2, new long[] {}).isEmpty());
  }
}
