package dev.zarrow.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.grid.Box;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.ExtendWith;

/** Region copies of strings and binary, with and without nulls (whole runs, or element by element). */
@ExtendWith(AllocatorExtension.class)
class RegionsVarWidthTest {
  private static final long[] SHAPE = {6, 7, 5};

  private static ArrowType type(String name) {
    return switch (name) {
      case "utf8" -> ArrowType.Utf8.INSTANCE;
      case "binary" -> ArrowType.Binary.INSTANCE;
      case "large_utf8" -> ArrowType.LargeUtf8.INSTANCE;
      default -> ArrowType.LargeBinary.INSTANCE;
    };
  }

  /** A vector of n random values (null where the reference is null). */
  private static FieldVector vector(Field field, byte[][] values, BufferAllocator allocator) {
    FieldVector v = field.createVector(allocator);
    v.allocateNew();
    VariableWidthFieldVector w = (VariableWidthFieldVector) v;
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        w.setNull(i);
      } else {
        w.setSafe(i, values[i]);
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  private static byte[][] random(Random random, int n, boolean nulls) {
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      if (!(nulls && random.nextInt(5) == 0)) {
        out[i] = new byte[random.nextInt(9)];
        random.nextBytes(out[i]);
      }
    }
    return out;
  }

  private static byte[][] contents(FieldVector v) {
    byte[][] out = new byte[v.getValueCount()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.isNull(i) ? null : ((VariableWidthFieldVector) v).get(i);
    }
    return out;
  }

  /** Flat indices (in shape) of the elements of box, in C order. */
  private static List<Integer> flats(Box box, long[] shape) {
    List<Integer> out = new ArrayList<>();
    long[] index = new long[shape.length];
    for (long k = 0; k < box.size(); k++) {
      long flat = 0;
      for (int d = 0; d < shape.length; d++) {
        flat = flat * shape[d] + box.start(d) + index[d];
      }
      out.add((int) flat);
      for (int d = shape.length - 1; d >= 0 && ++index[d] == box.shape(d); d--) {
        index[d] = 0;
      }
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource({"utf8,false", "utf8,true", "binary,false", "large_utf8,false", "large_utf8,true", "large_binary,false"})
  void extractOverlayAssemble(String typeName, boolean nulls, BufferAllocator allocator) {
    Field field = new Field("x", new FieldType(true, type(typeName), null), null);
    Random random = Seeds.random("regions var-width " + typeName + " " + nulls);
    int n = 6 * 7 * 5;
    byte[][] base = random(random, n, nulls);
    try (FieldVector src = vector(field, base, allocator)) {
      for (int round = 0; round < 30; round++) {
        Box box = Boxes.random(random, SHAPE);
        List<Integer> flats = flats(box, SHAPE);
        // extract
        try (FieldVector part = Regions.extract(src, SHAPE, box, allocator)) {
          byte[][] got = contents(part);
          for (int i = 0; i < flats.size(); i++) {
            assertArrayEquals(base[flats.get(i)], got[i], "extract element " + i);
          }
        }
        // overlay
        byte[][] patch = random(random, (int) box.size(), nulls);
        try (FieldVector data = vector(field, patch, allocator);
            FieldVector updated = Regions.overlay(src, SHAPE, box, data, allocator)) {
          byte[][] expected = base.clone();
          for (int i = 0; i < flats.size(); i++) {
            expected[flats.get(i)] = patch[i];
          }
          byte[][] got = contents(updated);
          for (int i = 0; i < n; i++) {
            assertArrayEquals(expected[i], got[i], "overlay element " + i);
          }
        }
      }
      // assemble the whole from two slabs along the first dimension
      Box top = new Box(new long[] {0, 0, 0}, new long[] {2, 7, 5});
      Box bottom = new Box(new long[] {2, 0, 0}, new long[] {4, 7, 5});
      try (FieldVector a = Regions.extract(src, SHAPE, top, allocator);
          FieldVector b = Regions.extract(src, SHAPE, bottom, allocator);
          FieldVector whole = Regions.assemble(field, SHAPE, List.of(
              new Regions.Piece(b, bottom.shape(), Box.of(bottom.shape()), bottom.start()),
              new Regions.Piece(a, top.shape(), Box.of(top.shape()), top.start())), allocator)) {
        assertEquals(n, whole.getValueCount());
        byte[][] got = contents(whole);
        for (int i = 0; i < n; i++) {
          assertArrayEquals(base[i], got[i], "assemble element " + i);
        }
      }
    }
  }
}
