package dev.zarrow.cli;

import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrNode;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The keys stored under an array, split into chunk keys of its grid (with their coordinates) and the
 * rest ({@code ignored}: keys a reader never looks at, such as chunks outside a shrunk grid or stray
 * files). The array's own metadata ({@code zarr.json}, or v2's {@code .zarray} and {@code .zattrs}) is in neither list.
 */
record StoredKeys(List<Chunk> chunks, List<String> ignored) {

  /** A stored chunk: its key and grid coordinates. */
  record Chunk(String key, long[] coords) {}

  static StoredKeys of(ZarrArray array) {
    Store store = array.store();
    String prefix = array.path().isEmpty() ? "" : array.path() + "/";
    ChunkKeyEncoding encoding = ChunkKeyEncoding.parse(array.metadata().chunkKeyEncoding());
    long[] grid = array.grid().gridShape(array.shape());
    List<Chunk> chunks = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    for (String key : store.list(prefix)) {
      if (ZarrNode.isMetadataKey(array.path(), key)) {
        continue;
      }
      Optional<long[]> coords = coords(key.substring(prefix.length()), encoding, grid);
      if (coords.isPresent() && array.chunkKey(coords.get()).equals(key)) {
        chunks.add(new Chunk(key, coords.get()));
      } else {
        ignored.add(key);
      }
    }
    return new StoredKeys(List.copyOf(chunks), List.copyOf(ignored));
  }

  /** The total size in bytes of the stored chunks. */
  long chunkBytes(Store store) {
    long total = 0;
    for (Chunk c : chunks) {
      total += store.size(c.key()).orElse(0L);
    }
    return total;
  }

  /** The coordinates {@code relative} (a key relative to the array) names within {@code grid}, or empty. */
  static Optional<long[]> coords(String relative, ChunkKeyEncoding encoding, long[] grid) {
    return encoding.coords(relative, grid);
  }
}
