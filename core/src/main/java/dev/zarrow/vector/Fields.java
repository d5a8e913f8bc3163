package dev.zarrow.vector;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Comparisons of Arrow fields by what their vectors hold. */
public final class Fields {
  private Fields() {}

  /**
   * True when vectors of {@code a} and {@code b} hold the same kind of values: equal types and
   * dictionary encodings, the same number of children, recursively. Names, nullability and
   * metadata are ignored, and so are union type ids: Arrow Java reports the members of a sparse
   * union vector by its own type ordinals, whatever ids the union was made with.
   */
  public static boolean sameLayout(Field a, Field b) {
    ArrowType ta = a.getType();
    ArrowType tb = b.getType();
    boolean types = ta instanceof ArrowType.Union ua && tb instanceof ArrowType.Union ub
        ? ua.getMode() == ub.getMode()
        : ta.equals(tb);
    if (!types || a.getChildren().size() != b.getChildren().size()
        || (a.getDictionary() == null) != (b.getDictionary() == null)
        || (a.getDictionary() != null && !a.getDictionary().equals(b.getDictionary()))) {
      return false;
    }
    for (int i = 0; i < a.getChildren().size(); i++) {
      if (!sameLayout(a.getChildren().get(i), b.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }

  /** True when {@code field} or a descendant is a union. */
  public static boolean hasUnion(Field field) {
    if (field.getType() instanceof ArrowType.Union) {
      return true;
    }
    for (Field child : field.getChildren()) {
      if (hasUnion(child)) {
        return true;
      }
    }
    return false;
  }
}
