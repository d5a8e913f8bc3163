package dev.zarrow.grid;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.NamedConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The {@code regular} chunk grid: every chunk has {@link #chunkShape()}; chunks at the upper edges
 * reach past the array and are stored full-size. Chunk elements must fit an Arrow vector (2^31 - 1).
 */
public record ChunkGrid(int[] chunkShape) {

  public ChunkGrid {
    chunkShape = chunkShape.clone();
    long n = 1;
    for (int c : chunkShape) {
      if (c <= 0) {
        throw new MetadataException("/chunk_grid/configuration/chunk_shape: chunk sizes must be positive, got " + Arrays.toString(chunkShape));
      }
      n *= c;
      if (n > Integer.MAX_VALUE) {
        throw new UnsupportedExtensionException("/chunk_grid: a chunk of " + Arrays.toString(chunkShape) + " elements exceeds 2^31 - 1 elements");
      }
    }
  }

  public static ChunkGrid regular(int... chunkShape) {
    return new ChunkGrid(chunkShape);
  }

  /** Reads {@code chunk_grid} metadata for an array of {@code rank} dimensions. */
  public static ChunkGrid parse(NamedConfig config, int rank) {
    if (!config.name().equals("regular")) {
      throw new UnsupportedExtensionException("/chunk_grid: unsupported chunk grid '" + config.name() + "' (supported: regular)");
    }
    long[] shape = ArrayMetadata.parseShape(config.config().path("chunk_shape"), "/chunk_grid/configuration/chunk_shape");
    if (shape.length != rank) {
      throw new MetadataException("/chunk_grid/configuration/chunk_shape: " + shape.length + " dimensions for an array of " + rank);
    }
    int[] out = new int[rank];
    for (int i = 0; i < rank; i++) {
      if (shape[i] > Integer.MAX_VALUE || shape[i] == 0) {
        throw new MetadataException("/chunk_grid/configuration/chunk_shape/" + i + ": must be in 1..2^31-1, got " + shape[i]);
      }
      out[i] = (int) shape[i];
    }
    return new ChunkGrid(out);
  }

  public NamedConfig toMetadata() {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    ArrayNode shape = config.putArray("chunk_shape");
    for (int c : chunkShape) {
      shape.add(c);
    }
    return NamedConfig.of("regular", config);
  }

  @Override
  public int[] chunkShape() {
    return chunkShape.clone();
  }

  public int rank() {
    return chunkShape.length;
  }

  /** Elements per chunk. */
  public int chunkSize() {
    int n = 1;
    for (int c : chunkShape) {
      n *= c;
    }
    return n;
  }

  /** The number of chunks along each dimension for an array of {@code shape}. */
  public long[] gridShape(long[] shape) {
    long[] out = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      // Not (shape + chunk - 1) / chunk, which wraps for sizes near 2^63 - 1.
      out[i] = shape[i] / chunkShape[i] + (shape[i] % chunkShape[i] == 0 ? 0 : 1);
    }
    return out;
  }

  /**
   * The number of chunks of an array of {@code shape}: never more than its elements (a chunk holds at
   * least one), so it counts whenever the shape does.
   */
  public long chunkCount(long[] shape) {
    return ArrayMetadata.elementCount(gridShape(shape));
  }

  /**
   * Refuses a grid whose chunks reach past 2^63 - 1 along a dimension of {@code shape} (the last chunk's
   * end would wrap), as a {@link MetadataException} naming both shapes.
   */
  public void checkFits(long[] shape) {
    long[] grid = gridShape(shape);
    for (int i = 0; i < shape.length; i++) {
      if (grid[i] > Long.MAX_VALUE / chunkShape[i]) {
        throw new MetadataException("/chunk_grid: chunks of " + Arrays.toString(chunkShape) + " over the shape "
            + Arrays.toString(shape) + " end past 2^63 - 1 in dimension " + i);
      }
    }
  }

  /** The cells of an array of {@code shape} that chunk {@code coords} holds: its region clipped at the array's end. */
  public Box chunkBox(long[] coords, long[] shape) {
    return chunkBox(coords).intersect(Box.of(shape));
  }

  /** The region of the array chunk {@code coords} covers (full chunk size, may pass the array's end). */
  public Box chunkBox(long[] coords) {
    long[] start = new long[coords.length];
    long[] shape = new long[coords.length];
    for (int i = 0; i < coords.length; i++) {
      start[i] = coords[i] * chunkShape[i];
      shape[i] = chunkShape[i];
    }
    return new Box(start, shape);
  }

  /** The chunks that {@code region} touches, in C order of their coordinates. */
  public Iterable<long[]> chunksOf(Box region) {
    int rank = region.rank();
    long[] lo = new long[rank];
    long[] hi = new long[rank];
    for (int i = 0; i < rank; i++) {
      if (region.shape(i) == 0) {
        return List.of();
      }
      lo[i] = region.start(i) / chunkShape[i];
      hi[i] = (region.end(i) - 1) / chunkShape[i];
    }
    return () -> new Iterator<>() {
      long[] next = lo.clone();

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public long[] next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        long[] current = next.clone();
        int d = rank - 1;
        while (d >= 0 && next[d] == hi[d]) {
          next[d] = lo[d];
          d--;
        }
        if (d < 0) {
          next = null;
        } else {
          next[d]++;
        }
        return current;
      }
    };
  }

  /**
   * Every chunk of an array of {@code shape}, in C order, made one by one as it is iterated (a grid
   * may have more chunks than memory holds).
   */
  public Iterable<long[]> allChunks(long[] shape) {
    return chunksOf(Box.of(shape));
  }

  /**
   * The chunks of the grid of {@code oldShape} that lie wholly outside the grid of {@code newShape}
   * (what a resize from one to the other drops), in C order per slab, one by one as iterated.
   */
  public Iterable<long[]> chunksOutside(long[] oldShape, long[] newShape) {
    long[] before = gridShape(oldShape);
    long[] after = gridShape(newShape);
    int rank = before.length;
    int[] ones = new int[rank];
    Arrays.fill(ones, 1);
    ChunkGrid positions = new ChunkGrid(ones);
    List<Iterable<long[]>> slabs = new ArrayList<>();
    // Slab d: chunks inside the new grid along dimensions < d, past it along d, anywhere after d.
    for (int d = 0; d < rank; d++) {
      if (before[d] <= after[d]) {
        continue;
      }
      long[] start = new long[rank];
      long[] extent = before.clone();
      for (int j = 0; j < d; j++) {
        extent[j] = Math.min(before[j], after[j]);
      }
      start[d] = after[d];
      extent[d] = before[d] - after[d];
      slabs.add(positions.chunksOf(new Box(start, extent)));
    }
    return () -> concat(slabs.iterator());
  }

  /** The elements of each iterable one after the other, taken one at a time (unlike Stream.flatMap's iterator, which buffers a whole inner stream). */
  private static Iterator<long[]> concat(Iterator<Iterable<long[]>> parts) {
    return new Iterator<>() {
      Iterator<long[]> current = java.util.Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext() && parts.hasNext()) {
          current = parts.next().iterator();
        }
        return current.hasNext();
      }

      @Override
      public long[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkGrid g && Arrays.equals(chunkShape, g.chunkShape);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(chunkShape);
  }

  @Override
  public String toString() {
    return "regular" + Arrays.toString(chunkShape);
  }
}
