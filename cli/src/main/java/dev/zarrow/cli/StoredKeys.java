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
 * files). The array's own {@code zarr.json} is in neither list.
 */
record StoredKeys(List<Chunk> chunks, List<String> ignored) {

  /** A stored chunk: its key and grid coordinates. */
  record Chunk(String key, long[] coords) {}

  static StoredKeys of(ZarrArray array) {
    Store store = array.store();
    String prefix = array.path().isEmpty() ? "" : array.path() + "/";
    String metadataKey = ZarrNode.metadataKey(array.path());
    ChunkKeyEncoding encoding = ChunkKeyEncoding.parse(array.metadata().chunkKeyEncoding());
    long[] grid = array.grid().gridShape(array.shape());
    List<Chunk> chunks = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    for (String key : store.list(prefix)) {
      if (key.equals(metadataKey)) {
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
    String sep = String.valueOf(encoding.separator());
    String rest;
    if (encoding.v2()) {
      if (grid.length == 0) {
        return relative.equals("0") ? Optional.of(new long[0]) : Optional.empty();
      }
      rest = relative;
    } else {
      if (grid.length == 0) {
        return relative.equals("c") ? Optional.of(new long[0]) : Optional.empty();
      }
      if (!relative.startsWith("c" + sep)) {
        return Optional.empty();
      }
      rest = relative.substring(2);
    }
    String[] parts = rest.split(java.util.regex.Pattern.quote(sep), -1);
    if (parts.length != grid.length) {
      return Optional.empty();
    }
    long[] out = new long[grid.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 19 || !p.chars().allMatch(ch -> ch >= '0' && ch <= '9')
          || (p.length() > 1 && p.charAt(0) == '0')) {
        return Optional.empty();
      }
      try {
        out[i] = Long.parseLong(p);
      } catch (NumberFormatException e) { // 19 digits beyond 2^63 - 1
        return Optional.empty();
      }
      if (out[i] >= grid[i]) {
        return Optional.empty();
      }
    }
    return Optional.of(out);
  }
}
