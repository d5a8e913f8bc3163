package dev.zarrow.codec;

import dev.zarrow.grid.Box;
import dev.zarrow.vector.Regions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;

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

  /**
   * The one piece moved out as a vector of {@code field} (no copy; the caller owns it), when it alone is
   * the whole region of {@code shape} and of {@code field}'s flat type, with memory under
   * {@code allocator}'s root (a transfer needs one root); else empty, and nothing changes. A moved piece
   * is left empty, still closed by {@link #close}. A whole string or boolean chunk read on its own comes
   * back without being copied into a result.
   */
  public Optional<FieldVector> takeWhole(Field field, long[] shape, BufferAllocator allocator) {
    if (pieces.size() != 1) {
      return Optional.empty();
    }
    Regions.Piece p = pieces.get(0);
    FieldVector v = p.vector();
    boolean whole = Arrays.equals(p.shape(), shape) && p.region().equals(Box.of(shape))
        && Arrays.stream(p.target()).allMatch(t -> t == 0) && v.getValueCount() == Box.of(shape).size();
    boolean sameFlatType = field.getChildren().isEmpty() && field.getDictionary() == null
        && v.getField().getChildren().isEmpty() && v.getField().getType().equals(field.getType());
    if (!whole || !sameFlatType || v.getAllocator().getRoot() != allocator.getRoot()) {
      return Optional.empty();
    }
    TransferPair move = v.getTransferPair(field, allocator);
    move.transfer();
    return Optional.of((FieldVector) move.getTo());
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
