package dev.zarrow.codec;

import dev.zarrow.grid.Box;
import dev.zarrow.vector.Regions;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * A decoded region as separate pieces that tile it (a shard's inner chunks), each placed by its
 * {@link Regions.Piece#target} relative to the region's start. The holder owns the pieces' vectors and
 * closes them with {@link #close}. Letting a read of many chunks assemble every piece once, instead of
 * each shard assembling its inner chunks first, saves a copy of everything read.
 */
public record DecodedPieces(List<Regions.Piece> pieces) implements AutoCloseable {
  public DecodedPieces {
    pieces = List.copyOf(pieces);
  }

  /** One piece: all of {@code vector}, a region of {@code shape}. */
  public static DecodedPieces whole(FieldVector vector, long[] shape) {
    return new DecodedPieces(List.of(new Regions.Piece(vector, shape.clone(), Box.of(shape), new long[shape.length])));
  }

  /** The elements the pieces hold together. */
  public long size() {
    long n = 0;
    for (Regions.Piece p : pieces) {
      n += p.region().size();
    }
    return n;
  }

  /** The same pieces placed {@code by} further (the region's start within a larger region); shares the vectors. */
  public List<Regions.Piece> shiftedBy(long[] by) {
    List<Regions.Piece> out = new ArrayList<>(pieces.size());
    for (Regions.Piece p : pieces) {
      long[] target = p.target().clone();
      for (int d = 0; d < target.length; d++) {
        target[d] += by[d];
      }
      out.add(new Regions.Piece(p.vector(), p.shape(), p.region(), target));
    }
    return out;
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (Regions.Piece p : pieces) {
      try {
        p.vector().close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
