package dev.zarrow.ipc;

import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Fields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} whose root and dictionary vectors zarrow makes from the stored schema
 * ({@link #readSchema}, dictionary-encoded fields with their value types), with {@link
 * Fields#createVector}: structs keep children that repeat a name, which the vectors Arrow Java's
 * {@code ArrowReader} makes for itself do not. Subclasses load each batch into {@link #root()} and
 * the dictionaries' vectors.
 *
 * <p>It takes over what {@code ArrowReader} does with its own (private) root: {@link #initialize},
 * {@link #getVectorSchemaRoot}, {@link #prepareLoadNextBatch} and {@link #close(boolean)}; {@link
 * #lookup} and {@link #getDictionaryIds} are {@code ArrowReader}'s, over {@link #dictionaries}.
 */
public abstract class SchemaRootReader extends ArrowReader {
  private VectorSchemaRoot root;
  private Map<Long, Field> dictionaryFields;
  private Schema stored;

  protected SchemaRootReader(BufferAllocator allocator) {
    super(allocator);
  }

  /**
   * Makes the root (indexed form: a dictionary-encoded level as its index vector) and an empty
   * dictionary vector per id. A schema whose dictionaries disagree is a {@link
   * dev.zarrow.error.MetadataException}; a type Arrow Java has no vector for is an {@link
   * UnsupportedExtensionException}.
   */
  @Override
  protected void initialize() throws IOException {
    Schema stored = storedSchema();
    Map<Long, Field> values = Dictionaries.valueFields(
        new Field("", FieldType.nullable(ArrowType.Struct.INSTANCE), stored.getFields()));
    Map<Long, Dictionary> made = new LinkedHashMap<>();
    Map<Long, Field> indexedValues = new LinkedHashMap<>();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Map.Entry<Long, Field> e : values.entrySet()) {
        Field value = Dictionaries.indexedField(e.getValue());
        indexedValues.put(e.getKey(), value);
        made.put(e.getKey(), new Dictionary(create(value, value.getName()), encodingOf(stored, e.getKey())));
      }
      List<Field> fields = new ArrayList<>();
      for (Field field : stored.getFields()) {
        Field indexed = Dictionaries.indexedField(field);
        fields.add(indexed);
        vectors.add(create(indexed, field.getName()));
      }
      root = new VectorSchemaRoot(new Schema(fields, stored.getCustomMetadata()), vectors, 0);
      dictionaries = Collections.unmodifiableMap(made);
      dictionaryFields = indexedValues;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      made.values().forEach(d -> d.getVector().close());
      throw e;
    }
  }

  private FieldVector create(Field field, String name) {
    try {
      return Fields.createVector(field, allocator);
    } catch (ZarrException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new UnsupportedExtensionException("field '" + name + "' of " + field.getType()
          + " cannot be held by Arrow Java: " + e.getMessage(), e);
    }
  }

  /** The encoding of dictionary {@code id}, as the first field that uses it declares it. */
  private static org.apache.arrow.vector.types.pojo.DictionaryEncoding encodingOf(Schema stored, long id) {
    for (Field field : stored.getFields()) {
      org.apache.arrow.vector.types.pojo.DictionaryEncoding e = find(field, id);
      if (e != null) {
        return e;
      }
    }
    throw new IllegalStateException("dictionary " + id + " is not in the schema");
  }

  private static org.apache.arrow.vector.types.pojo.DictionaryEncoding find(Field field, long id) {
    if (field.getDictionary() != null && field.getDictionary().getId() == id) {
      return field.getDictionary();
    }
    for (Field child : field.getChildren()) {
      org.apache.arrow.vector.types.pojo.DictionaryEncoding e = find(child, id);
      if (e != null) {
        return e;
      }
    }
    return null;
  }

  /**
   * The schema exactly as stored (read once, by {@link #readSchema}): dictionary-encoded fields with
   * their value types and encodings, names and metadata as given. The root's schema is its indexed
   * form; {@code DictionaryUtility.toMessageFormat} would derive a stored form from the dictionaries'
   * vectors, which loses names (Arrow Java names a list's child {@code $data$}).
   */
  public final Schema storedSchema() throws IOException {
    if (stored == null) {
      stored = readSchema();
    }
    return stored;
  }

  /**
   * The field of dictionary {@code id}'s vector (indexed form), as the schema gives it: union type
   * ids as declared, where the vector's own {@code getField()} reports Arrow Java's.
   */
  protected final Field dictionaryField(long id) throws IOException {
    ensureInitialized();
    return dictionaryFields.get(id);
  }

  /** The root every batch is loaded into (made on first use). */
  protected final VectorSchemaRoot root() throws IOException {
    ensureInitialized();
    return root;
  }

  /** The root every batch is loaded into: <b>the same root for every batch</b>. */
  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return root();
  }

  @Override
  protected void prepareLoadNextBatch() throws IOException {
    root().setRowCount(0);
  }

  /** Releases the root and the dictionaries, then (when asked) the source. */
  @Override
  public void close(boolean closeReadSource) throws IOException {
    try {
      if (root != null) {
        root.close();
        dictionaries.values().forEach(d -> d.getVector().close());
      }
    } finally {
      if (closeReadSource) {
        closeReadSource();
      }
    }
  }
}
