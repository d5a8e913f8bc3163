package dev.zarrow.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class RegionsTest {
  static IntVector iota(BufferAllocator allocator, int n) {
    IntVector v = new IntVector("x", allocator);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, i);
    }
    v.setValueCount(n);
    return v;
  }

  static int[] ints(FieldVector v) {
    int[] out = new int[v.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((IntVector) v).get(i);
    }
    return out;
  }

  static String bits(FieldVector v) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < v.getValueCount(); i++) {
      out.append(((BitVector) v).get(i));
    }
    return out.toString();
  }

  @Test
  void runsAlongTheLastDimension() {
    List<String> runs = new ArrayList<>();
    Regions.forEachRun(new long[] {3, 4}, new Box(new long[] {1, 1}, new long[] {2, 2}), new long[] {5, 5},
        new long[] {0, 3}, (from, to, n) -> runs.add(from + "->" + to + "x" + n));
    assertEquals(List.of("5->3x2", "9->8x2"), runs);
    runs.clear();
    Regions.forEachRun(new long[] {}, Box.of(), new long[] {}, new long[] {}, (from, to, n) -> runs.add(from + "->" + to + "x" + n));
    assertEquals(List.of("0->0x1"), runs);
  }

  @Test
  void extractsAndAssembles(BufferAllocator allocator) {
    try (IntVector v = iota(allocator, 24);
        FieldVector part = Regions.extract(v, new long[] {2, 3, 4}, new Box(new long[] {1, 1, 1}, new long[] {1, 2, 2}), allocator)) {
      assertArrayEquals(new int[] {17, 18, 21, 22}, ints(part));
    }
    // Two 2x2 pieces side by side make a 2x4.
    try (IntVector a = iota(allocator, 4); IntVector b = iota(allocator, 4)) {
      b.set(0, 10);
      List<Regions.Piece> pieces = List.of(
          new Regions.Piece(a, new long[] {2, 2}, Box.of(2, 2), new long[] {0, 0}),
          new Regions.Piece(b, new long[] {2, 2}, Box.of(2, 2), new long[] {0, 2}));
      try (FieldVector out = Regions.assemble(a.getField(), new long[] {2, 4}, pieces, allocator)) {
        assertArrayEquals(new int[] {0, 1, 10, 1, 2, 3, 2, 3}, ints(out));
      }
    }
  }

  @Test
  void elementWisePathsForBitsAndVariableWidth(BufferAllocator allocator) {
    try (BitVector b = new BitVector("b", allocator)) {
      b.allocateNew(6);
      for (int i = 0; i < 6; i++) {
        b.set(i, i % 2);
      }
      b.setValueCount(6);
      assertFalse(Regions.isFixedWidth(b));
      try (FieldVector part = Regions.extract(b, new long[] {2, 3}, new Box(new long[] {0, 1}, new long[] {2, 2}), allocator)) {
        assertEquals("1001", bits(part));
      }
      try (BitVector ones = new BitVector("b", allocator)) {
        ones.allocateNew(2);
        ones.set(0, 1);
        ones.set(1, 1);
        ones.setValueCount(2);
        FieldVector out = Regions.overlay(b, new long[] {2, 3}, new Box(new long[] {1, 0}, new long[] {1, 2}), ones, allocator);
        assertTrue(out == b, "bits are overwritten in place");
        assertEquals("010111", bits(out));
      }
    }
    try (VarCharVector s = new VarCharVector("s", allocator)) {
      s.allocateNew();
      for (int i = 0; i < 4; i++) {
        s.setSafe(i, ("v" + i).getBytes());
      }
      s.setValueCount(4);
      try (FieldVector part = Regions.extract(s, new long[] {2, 2}, new Box(new long[] {0, 1}, new long[] {2, 1}), allocator)) {
        assertEquals("[v1, v3]", part.toString());
      }
    }
  }

  @Test
  void contiguity() {
    assertTrue(Regions.isContiguous(new long[] {3}, new long[] {10}));
    assertTrue(Regions.isContiguous(new long[] {3, 4}, new long[] {10, 4}));
    assertFalse(Regions.isContiguous(new long[] {3, 3}, new long[] {10, 4}));
    assertTrue(Regions.isContiguous(new long[] {1, 3}, new long[] {10, 4}));
    assertTrue(Regions.isContiguous(new long[] {1, 1, 2, 5}, new long[] {3, 4, 6, 5}));
    assertFalse(Regions.isContiguous(new long[] {1, 2, 2, 5}, new long[] {3, 4, 6, 5}));
    assertTrue(Regions.isContiguous(new long[] {}, new long[] {}));
  }

  @Test
  void fillsRegionsAndViewsElements(BufferAllocator allocator) {
    try (IntVector v = iota(allocator, 12)) {
      Regions.fill(v, new long[] {3, 4}, new Box(new long[] {1, 1}, new long[] {2, 2}), new byte[] {9, 0, 0, 0});
      assertArrayEquals(new int[] {0, 1, 2, 3, 4, 9, 9, 7, 8, 9, 9, 11}, ints(v));
      ByteBuffer view = Regions.view(v, 4, 2);
      assertEquals(8, view.remaining());
      view.putInt(0, -5);
      assertEquals(-5, v.get(4));
      assertThrows(IllegalArgumentException.class, () -> Regions.fill(v, new long[] {12}, Box.of(12), new byte[2]));
    }
    // Complex numbers: one 8-byte element each.
    try (FieldVector c = Vectors.fromBytes(FixedType.COMPLEX64, new byte[4 * 8], allocator)) {
      assertEquals(8, Regions.flatWidth(c));
      byte[] one = Vectors.unhex("0000803f00000040");
      Regions.fill(c, new long[] {4}, new Box(new long[] {2}, new long[] {2}), one);
      assertEquals("0000000000000000" + "0000000000000000" + "0000803f00000040" + "0000803f00000040",
          Vectors.hex(Vectors.bytes(FixedType.COMPLEX64, c)));
    }
    try (BitVector b = new BitVector("b", allocator)) {
      assertEquals(0, Regions.flatWidth(b));
    }
  }

  @Test
  void setsBitsAcrossByteBoundaries(BufferAllocator allocator) {
    try (ArrowBuf b = allocator.buffer(8)) {
      b.setZero(0, 8);
      Regions.setBits(b, 3, 30);
      for (int i = 0; i < 64; i++) {
        assertEquals(i >= 3 && i < 33 ? 1 : 0, (b.getByte(i / 8) >> (i % 8)) & 1, "bit " + i);
      }
    }
  }
}
