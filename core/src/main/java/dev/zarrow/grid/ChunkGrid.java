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
      out[i] = (shape[i] + chunkShape[i] - 1) / chunkShape[i];
    }
    return out;
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

  /** Every chunk of an array of {@code shape}. */
  public List<long[]> allChunks(long[] shape) {
    List<long[]> out = new ArrayList<>();
    chunksOf(Box.of(shape)).forEach(out::add);
    return out;
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
