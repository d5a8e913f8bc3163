package dev.zarrow.metadata;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Field and schema metadata that keep their key order.
 *
 * <p>Arrow Java 18 copies the metadata given to {@code FieldType} and {@code Schema} into a {@code
 * HashMap} ({@code Collections2.immutableMapCopy}), so a {@code LinkedHashMap} loses its order and
 * an exact round trip of the JSON becomes impossible. No public constructor keeps the order, so
 * these subclasses answer the metadata getters from an ordered copy. Equality and hash codes stay
 * Arrow Java's (they compare map contents, and the inherited copy holds the same entries), so such
 * a field equals the one Arrow Java builds itself.
 *
 * <p>Where the order survives: {@code Field.getMetadata()} and everything built on it, including
 * Arrow Java's IPC writer for field metadata ({@code Field.getField}). Where it does not: Arrow
 * Java's IPC writer for schema metadata reads the private {@code HashMap}, and any Arrow code that
 * rebuilds a {@code FieldType} from {@code getMetadata()} makes a new {@code HashMap}.
 */
public final class OrderedMetadata {
  private OrderedMetadata() {}

  /** A field type whose {@code getMetadata()} iterates in the order of {@code metadata}. */
  public static FieldType fieldType(
      boolean nullable,
      ArrowType type,
      DictionaryEncoding dictionary,
      Map<String, String> metadata) {
    if (metadata.isEmpty()) {
      return new FieldType(nullable, type, dictionary, null);
    }
    return new OrderedFieldType(nullable, type, dictionary, metadata);
  }

  /** A schema whose {@code getCustomMetadata()} iterates in the order of {@code metadata}. */
  public static Schema schema(List<Field> fields, Map<String, String> metadata) {
    if (metadata.isEmpty()) {
      return new Schema(fields);
    }
    return new OrderedSchema(fields, metadata);
  }

  private static final class OrderedFieldType extends FieldType {
    private final Map<String, String> ordered;

    OrderedFieldType(
        boolean nullable,
        ArrowType type,
        DictionaryEncoding dictionary,
        Map<String, String> metadata) {
      super(nullable, type, dictionary, metadata);
      this.ordered = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    @Override
    public Map<String, String> getMetadata() {
      return ordered;
    }
  }

  private static final class OrderedSchema extends Schema {
    private final Map<String, String> ordered;

    OrderedSchema(List<Field> fields, Map<String, String> metadata) {
      super(fields, metadata);
      this.ordered = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    @Override
    public Map<String, String> getCustomMetadata() {
      return ordered;
    }
  }
}
