package dev.zarrow.vector;

import java.util.List;
import java.util.function.BiFunction;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.compare.RangeEqualsVisitor;
import org.apache.arrow.vector.complex.NonNullableStructVector;

/**
 * Arrow Java's {@link RangeEqualsVisitor} with struct children paired by position, not by name: Arrow
 * Java looks children up by name, so of two children of one name it compares the first twice and
 * never the second.
 */
public final class ValueEquals extends RangeEqualsVisitor {
  /** Compares ranges of {@code left} and {@code right}, whose types {@code typeComparator} checks first. */
  public ValueEquals(ValueVector left, ValueVector right, BiFunction<ValueVector, ValueVector, Boolean> typeComparator) {
    super(left, right, typeComparator);
  }

  @Override
  protected RangeEqualsVisitor createInnerVisitor(
      ValueVector leftInner, ValueVector rightInner, BiFunction<ValueVector, ValueVector, Boolean> typeComparator) {
    return new ValueEquals(leftInner, rightInner, typeComparator);
  }

  @Override
  protected boolean compareStructVectors(Range range) {
    NonNullableStructVector left = (NonNullableStructVector) getLeft();
    NonNullableStructVector right = (NonNullableStructVector) getRight();
    List<FieldVector> leftChildren = left.getChildrenFromFields();
    List<FieldVector> rightChildren = right.getChildrenFromFields();
    if (leftChildren.size() != rightChildren.size()) {
      return false;
    }
    Range one = new Range(0, 0, 1);
    for (int i = 0; i < range.getLength(); i++) {
      int l = range.getLeftStart() + i;
      int r = range.getRightStart() + i;
      boolean leftNull = left.isNull(l);
      if (leftNull != right.isNull(r)) {
        return false;
      }
      if (leftNull) {
        continue;
      }
      one.setLeftStart(l).setRightStart(r);
      for (int c = 0; c < leftChildren.size(); c++) {
        if (!createInnerVisitor(leftChildren.get(c), rightChildren.get(c), null).rangeEquals(one)) {
          return false;
        }
      }
    }
    return true;
  }
}
