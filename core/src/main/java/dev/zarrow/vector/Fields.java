package dev.zarrow.vector;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Arrow fields: comparisons by what their vectors hold, and vectors made for them. */
public final class Fields {
  private Fields() {}

  /**
   * A new, empty vector of {@code field}, owned by the caller; like {@link Field#createVector}, except
   * that a struct at any depth keeps every child of a name that repeats. (Arrow allows repeated names;
   * Arrow Java's structs replace a child by the next one of its name unless the JVM-wide property
   * {@code arrow.struct.conflict.policy} says otherwise, which a library cannot ask of its users.)
   */
  public static FieldVector createVector(Field field, BufferAllocator allocator) {
    if (!hasRepeatedNames(field)) {
      return field.createVector(allocator);
    }
    FieldVector vector = withoutRepeatedChildren(field).createVector(allocator);
    try {
      addRepeatedChildren(vector, field);
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** True when {@code field} or a descendant is a struct with two children of one name. */
  private static boolean hasRepeatedNames(Field field) {
    if (repeatsNames(field)) {
      return true;
    }
    for (Field child : field.getChildren()) {
      if (hasRepeatedNames(child)) {
        return true;
      }
    }
    return false;
  }

  private static boolean repeatsNames(Field field) {
    if (!(field.getType() instanceof ArrowType.Struct)) {
      return false;
    }
    Set<String> names = new HashSet<>();
    for (Field child : field.getChildren()) {
      if (!names.add(child.getName())) {
        return true;
      }
    }
    return false;
  }

  /** {@code field} with the children of every struct that repeats names left out, for Arrow to create. */
  private static Field withoutRepeatedChildren(Field field) {
    if (repeatsNames(field)) {
      return new Field(field.getName(), field.getFieldType(), List.of());
    }
    List<Field> children = new ArrayList<>();
    for (Field child : field.getChildren()) {
      children.add(withoutRepeatedChildren(child));
    }
    return new Field(field.getName(), field.getFieldType(), children);
  }

  /** Adds, in order, the children {@link #withoutRepeatedChildren} left out of {@code vector}'s structs. */
  private static void addRepeatedChildren(FieldVector vector, Field field) {
    if (repeatsNames(field)) {
      ((AbstractStructVector) vector).setConflictPolicy(AbstractStructVector.ConflictPolicy.CONFLICT_APPEND);
      vector.initializeChildrenFromFields(field.getChildren().stream().map(Fields::withoutRepeatedChildren).toList());
    }
    List<FieldVector> children = vector.getChildrenFromFields();
    for (int i = 0; i < field.getChildren().size(); i++) {
      addRepeatedChildren(children.get(i), field.getChildren().get(i));
    }
  }

  /**
   * The nulls of {@code vector} that its field {@code field} cannot hold: its null count when the
   * field is not nullable, else 0. Unions and the null type have no validity of their own, so none:
   * a union's nulls are its members' (checked there), and every value of the null type is null
   * whatever its field says (apache-arrow writes such fields not nullable).
   */
  public static int refusedNulls(Field field, ValueVector vector) {
    ArrowType type = field.getType();
    return field.isNullable() || type instanceof ArrowType.Union || type instanceof ArrowType.Null ? 0 : vector.getNullCount();
  }

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
