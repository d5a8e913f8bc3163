package dev.zarrow.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.testing.AllocatorExtension;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.compare.RangeEqualsVisitor;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Struct children that repeat a name (Arrow allows them; Arrow's gold file {@code duplicate_fieldnames}
 * has them), with no JVM-wide property set, as users run zarrow: vectors keep every child at any
 * depth, comparisons see every child, and dictionaries and fill checks do not merge values that differ
 * in the second child of a name.
 */
@ExtendWith(AllocatorExtension.class)
class RepeatedNamesTest {
  private static final Field INT_A = Field.nullable("a", new ArrowType.Int(32, true));

  /** {@code struct<a: int32, a: int32>}, nullable or not. */
  private static Field pair(String name, boolean nullable) {
    return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), List.of(INT_A, INT_A));
  }

  @Test
  void vectorsKeepEveryChildAtAnyDepth(BufferAllocator allocator) {
    assertNull(System.getProperty("arrow.struct.conflict.policy"));
    Field inner = pair("inner", true);
    Field outer = new Field("outer", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
        Field.nullable("x", new ArrowType.Int(8, true)),
        new Field("x", FieldType.nullable(ArrowType.List.INSTANCE), List.of(inner))));
    try (FieldVector arrows = outer.createVector(allocator); FieldVector ours = Fields.createVector(outer, allocator)) {
      assertEquals(1, arrows.getChildrenFromFields().size(), "Arrow Java keeps one child of a name");
      assertEquals(2, ours.getChildrenFromFields().size());
      ListVector list = (ListVector) ours.getChildrenFromFields().get(1);
      assertEquals(2, list.getDataVector().getChildrenFromFields().size(), "the struct inside the list too");
      assertTrue(Fields.sameLayout(outer, ours.getField()), ours.getField().toString());
    }
  }

  @Test
  void theSecondChildOfANameCounts(BufferAllocator allocator) {
    Field field = pair("p", false);
    try (StructVector v = (StructVector) Fields.createVector(field, allocator)) {
      fill(v, new Integer[][] {{1, 2}, {1, 3}, {null, 9}});
      Range first = new Range(0, 1, 1);
      assertTrue(new RangeEqualsVisitor(v, v).rangeEquals(first), "Arrow Java compares the first 'a' twice");
      assertFalse(new ValueEquals(v, v, (a, b) -> true).rangeEquals(first));
      assertTrue(new ValueEquals(v, v, (a, b) -> true).rangeEquals(new Range(2, 2, 1)));

      // Not all the null fill: only the first 'a' is null in the last element.
      ArrowDataType type = ArrowDataType.of(field);
      try (FieldVector last = Gather.gather(field, List.of(new Gather.Run(v, 2, 1)), allocator)) {
        assertFalse(type.isAllFill(last, FillValue.NULL));
      }

      // A dictionary keeps {1, 2} and {1, 3} apart.
      Field encoded = new Field("p", new FieldType(false, ArrowType.Struct.INSTANCE,
          new DictionaryEncoding(7, false, new ArrowType.Int(8, true))), List.of(INT_A, INT_A));
      try (Dictionaries.Encoded e = Dictionaries.encode(v, encoded, allocator)) {
        assertEquals(3, e.dictionaries().get(7L).getValueCount());
        try (FieldVector back = Dictionaries.decode(e.vector(), encoded, e.dictionaries(), allocator)) {
          assertTrue(new ValueEquals(v, back, (a, b) -> true).rangeEquals(new Range(0, 0, 3)));
        }
      }
    }
  }

  private static void fill(StructVector v, Integer[][] rows) {
    for (int c = 0; c < 2; c++) {
      IntVector child = (IntVector) v.getChildrenFromFields().get(c);
      for (int i = 0; i < rows.length; i++) {
        if (rows[i][c] == null) {
          child.setNull(i);
        } else {
          child.setSafe(i, rows[i][c]);
        }
      }
      child.setValueCount(rows.length);
    }
    for (int i = 0; i < rows.length; i++) {
      v.setIndexDefined(i);
    }
    v.setValueCount(rows.length);
  }
}
