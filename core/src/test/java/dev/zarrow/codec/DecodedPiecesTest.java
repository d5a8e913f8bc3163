package dev.zarrow.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.grid.Box;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import dev.zarrow.vector.Regions;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link DecodedPieces#takeWhole}: the one whole piece moves out without a copy; anything else stays put. */
@ExtendWith(AllocatorExtension.class)
class DecodedPiecesTest {
  private static final Field WORDS = new Field("words", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);

  @Test
  void theOneWholePieceMovesOutUncopied(BufferAllocator allocator) {
    VarCharVector piece = Vectors.utf8(allocator, "", "a", null, "ccc");
    long data = piece.getDataBufferAddress();
    try (DecodedPieces pieces = DecodedPieces.whole(piece, new long[] {3})) {
      try (FieldVector taken = pieces.takeWhole(WORDS, new long[] {3}, allocator).orElseThrow()) {
        assertEquals("words", taken.getField().getName());
        assertEquals(data, taken.getDataBufferAddress(), "the same memory, not a copy");
        assertEquals(3, taken.getValueCount());
        assertEquals("ccc", taken.getObject(2).toString());
        assertTrue(taken.isNull(1));
        assertEquals(0, piece.getValueCount(), "the piece is left empty");
      }
    }
  }

  @Test
  void otherPiecesStayPut(BufferAllocator allocator) {
    // Two pieces, a piece that is part of a larger output, and a piece of another type.
    try (DecodedPieces two = new DecodedPieces(List.of(
        new Regions.Piece(Vectors.utf8(allocator, "", "a"), new long[] {1}, Box.of(new long[] {1}), new long[] {0}),
        new Regions.Piece(Vectors.utf8(allocator, "", "b"), new long[] {1}, Box.of(new long[] {1}), new long[] {1})))) {
      assertTrue(two.takeWhole(WORDS, new long[] {2}, allocator).isEmpty());
      assertEquals(1, two.pieces().get(0).vector().getValueCount());
    }
    try (DecodedPieces part = DecodedPieces.whole(Vectors.utf8(allocator, "", "a", "b"), new long[] {2})) {
      assertTrue(part.takeWhole(WORDS, new long[] {3}, allocator).isEmpty());
      assertEquals(2, part.pieces().get(0).vector().getValueCount());
    }
    IntVector ints = new IntVector("", allocator);
    ints.allocateNew(1);
    ints.set(0, 7);
    ints.setValueCount(1);
    try (DecodedPieces other = DecodedPieces.whole(ints, new long[] {1})) {
      assertTrue(other.takeWhole(WORDS, new long[] {1}, allocator).isEmpty());
      assertEquals(7, ints.get(0));
    }
  }
}
