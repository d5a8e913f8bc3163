package dev.zarrow.vector;

import dev.zarrow.metadata.OrderedMetadata;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Dictionary encoding between the three forms an Arrow field takes in zarrow.
 *
 * <ul>
 *   <li><b>stored</b>: the IPC and JSON-integration form, as the {@code arrow} data type stores it: a
 *       dictionary-encoded level has its <i>value</i> type and children, and {@link
 *       Field#getDictionary()} names the id, index type and ordering.
 *   <li><b>decoded</b> ({@link #decodedField}): every dictionary encoding dropped, so a vector holds
 *       the values themselves. Chunks of the {@code arrow} data type are decoded vectors: a chunk is
 *       one vector, which cannot carry dictionaries.
 *   <li><b>indexed</b> ({@link #indexedField}): Arrow Java's "memory format": a dictionary-encoded
 *       level is its integer index type (no children), the values living in a separate dictionary
 *       vector whose field is the indexed form of {@link #valueFields the value field}. IPC record
 *       batches carry this form.
 * </ul>
 *
 * <p>Dictionaries may nest (a dictionary-encoded level inside a list, a struct or another
 * dictionary's values) and one id may be shared by several levels, which then share one dictionary.
 */
public final class Dictionaries {
  private Dictionaries() {}

  /** True when {@code field} or a descendant is dictionary-encoded. */
  public static boolean isEncoded(Field field) {
    if (field.getDictionary() != null) {
      return true;
    }
    for (Field child : field.getChildren()) {
      if (isEncoded(child)) {
        return true;
      }
    }
    return false;
  }

  /** The decoded form of a stored field: the same field with every dictionary encoding dropped. */
  public static Field decodedField(Field stored) {
    if (!isEncoded(stored)) {
      return stored;
    }
    List<Field> children = new ArrayList<>();
    for (Field child : stored.getChildren()) {
      children.add(decodedField(child));
    }
    return new Field(stored.getName(), withType(stored, stored.getType(), null), children);
  }

  /** The indexed (Arrow Java memory) form of a stored field: encoded levels become index vectors. */
  public static Field indexedField(Field stored) {
    DictionaryEncoding encoding = stored.getDictionary();
    if (encoding != null) {
      return new Field(stored.getName(), withType(stored, indexType(encoding), encoding), List.of());
    }
    if (!isEncoded(stored)) {
      return stored;
    }
    List<Field> children = new ArrayList<>();
    for (Field child : stored.getChildren()) {
      children.add(indexedField(child));
    }
    return new Field(stored.getName(), stored.getFieldType(), children);
  }

  /** A field type like {@code field}'s (nullability, metadata kept in order) with another type. */
  private static FieldType withType(Field field, ArrowType type, DictionaryEncoding encoding) {
    return OrderedMetadata.fieldType(field.isNullable(), type, encoding, field.getMetadata());
  }

  private static ArrowType.Int indexType(DictionaryEncoding encoding) {
    return encoding.getIndexType() == null ? new ArrowType.Int(32, true) : encoding.getIndexType();
  }

  /**
   * The stored value field of every dictionary in {@code stored}, by id: the encoded level without
   * its encoding (its children may be encoded again), nullable (dictionaries may hold nulls) and
   * without metadata. Refuses, as a {@link MetadataException}, an id whose levels disagree on the
   * value type, index type or ordering, and an id used inside its own values.
   */
  public static Map<Long, Field> valueFields(Field stored) {
    Map<Long, Field> values = new LinkedHashMap<>();
    collect(stored, values, new HashMap<>(), new ArrayDeque<>(), "");
    return values;
  }

  private static void collect(
      Field field, Map<Long, Field> values, Map<Long, DictionaryEncoding> encodings, Deque<Long> enclosing,
      String path) {
    DictionaryEncoding encoding = field.getDictionary();
    if (encoding != null) {
      long id = encoding.getId();
      if (enclosing.contains(id)) {
        throw new MetadataException(path + "/dictionary/id: dictionary " + id + " is used inside its own values");
      }
      Field value = new Field(
          field.getName(), OrderedMetadata.fieldType(true, field.getType(), null, Map.of()), field.getChildren());
      Field known = values.get(id);
      if (known == null) {
        values.put(id, value);
        encodings.put(id, encoding);
      } else if (!sameType(known, value)) {
        throw new MetadataException(path + "/dictionary/id: dictionary " + id + " holds " + describe(known)
            + " elsewhere in the field, here " + describe(value));
      } else if (!sameEncoding(encodings.get(id), encoding)) {
        throw new MetadataException(path + "/dictionary: dictionary " + id
            + " is used with different index types or ordering");
      }
      enclosing.push(id);
    }
    for (int i = 0; i < field.getChildren().size(); i++) {
      collect(field.getChildren().get(i), values, encodings, enclosing, path + "/children/" + i);
    }
    if (encoding != null) {
      enclosing.pop();
    }
  }

  private static boolean sameEncoding(DictionaryEncoding a, DictionaryEncoding b) {
    return a.getId() == b.getId() && a.isOrdered() == b.isOrdered() && indexType(a).equals(indexType(b));
  }

  /** Equal types, children counts and dictionary encodings throughout (names, nullability, metadata aside). */
  static boolean sameType(Field a, Field b) {
    if (!a.getType().equals(b.getType()) || a.getChildren().size() != b.getChildren().size()) {
      return false;
    }
    DictionaryEncoding da = a.getDictionary();
    DictionaryEncoding db = b.getDictionary();
    if ((da == null) != (db == null) || (da != null && !sameEncoding(da, db))) {
      return false;
    }
    for (int i = 0; i < a.getChildren().size(); i++) {
      if (!sameType(a.getChildren().get(i), b.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }

  private static String describe(Field f) {
    return f.getType() + (f.getChildren().isEmpty() ? "" : "<" + f.getChildren().size() + " children>");
  }

  // ---------------------------------------------------------------------------------------------
  // Vectors

  /**
   * The decoded vector of {@code indexed} (a vector of {@link #indexedField indexedField(stored)}),
   * owned by the caller. {@code dictionaries} maps every id of {@code stored} to its dictionary in
   * indexed form (a vector of {@code indexedField(valueFields(stored).get(id))}); both are
   * borrowed. Levels without dictionaries share the memory of {@code indexed}; decoded levels are
   * copies. An index outside its dictionary is a {@link CorruptChunkException}.
   */
  public static FieldVector decode(
      FieldVector indexed, Field stored, Map<Long, FieldVector> dictionaries, BufferAllocator allocator) {
    Field decoded = decodedField(stored);
    FieldVector out = Fields.createVector(decoded, allocator);
    Map<Long, FieldVector> memo = new HashMap<>();
    try {
      Map<Long, Field> values = valueFields(stored);
      decodeInto(out, decoded, indexed, stored, new Resolver(values, dictionaries, memo, allocator));
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    } finally {
      memo.values().forEach(FieldVector::close);
    }
  }

  /** Decodes dictionaries on first use, so the order they arrived in does not matter. */
  private record Resolver(
      Map<Long, Field> values, Map<Long, FieldVector> raw, Map<Long, FieldVector> memo, BufferAllocator allocator) {
    FieldVector decoded(long id) {
      FieldVector done = memo.get(id);
      if (done != null) {
        return done;
      }
      FieldVector source = raw.get(id);
      Field value = values.get(id);
      if (source == null || value == null) {
        throw new CorruptChunkException("no dictionary with id " + id);
      }
      Field decoded = decodedField(value);
      FieldVector out = Fields.createVector(decoded, allocator);
      try {
        decodeInto(out, decoded, source, value, this);
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
      memo.put(id, out);
      return out;
    }
  }

  private static void decodeInto(FieldVector out, Field decoded, FieldVector in, Field stored, Resolver resolver) {
    DictionaryEncoding encoding = stored.getDictionary();
    if (encoding != null) {
      FieldVector dictionary = resolver.decoded(encoding.getId());
      BaseIntVector indices = (BaseIntVector) in;
      boolean unsigned = !indexType(encoding).getIsSigned();
      int size = dictionary.getValueCount();
      List<Gather.Run> runs = new ArrayList<>();
      for (int i = 0; i < in.getValueCount(); i++) {
        if (in.isNull(i)) {
          runs.add(Gather.Run.blank(1));
          continue;
        }
        long index = indices.getValueAsLong(i);
        if (unsigned && index < 0 && ((ArrowType.Int) indexType(encoding)).getBitWidth() < 64) {
          index &= (1L << ((ArrowType.Int) indexType(encoding)).getBitWidth()) - 1;
        }
        if (index < 0 || index >= size) {
          throw new CorruptChunkException("dictionary index " + Long.toUnsignedString(index) + " at element " + i
              + " is outside dictionary " + encoding.getId() + " of " + size + " values");
        }
        runs.add(new Gather.Run(dictionary, (int) index, 1));
      }
      Gather.fillInto(out, decoded, runs, resolver.allocator());
      return;
    }
    share(out, in);
    if (isEncoded(stored)) {
      List<FieldVector> outChildren = out.getChildrenFromFields();
      List<FieldVector> inChildren = in.getChildrenFromFields();
      for (int i = 0; i < outChildren.size(); i++) {
        decodeInto(outChildren.get(i), decoded.getChildren().get(i), inChildren.get(i), stored.getChildren().get(i), resolver);
      }
    } else {
      shareChildren(out, in);
    }
  }

  /** Makes {@code out} use {@code in}'s own buffers (not its children's), without copying. */
  private static void share(FieldVector out, FieldVector in) {
    out.loadFieldBuffers(new ArrowFieldNode(in.getValueCount(), in.getNullCount()), in.getFieldBuffers());
  }

  private static void shareChildren(FieldVector out, FieldVector in) {
    List<FieldVector> outChildren = out.getChildrenFromFields();
    List<FieldVector> inChildren = in.getChildrenFromFields();
    for (int i = 0; i < outChildren.size(); i++) {
      share(outChildren.get(i), inChildren.get(i));
      shareChildren(outChildren.get(i), inChildren.get(i));
    }
  }

  /**
   * A vector of {@link #indexedField} form and its dictionaries, owned together: close it to
   * release all. {@code dictionaries} iterate in an order that puts a dictionary after those its
   * values refer to (the order to write them in an IPC stream).
   */
  public record Encoded(FieldVector vector, Map<Long, FieldVector> dictionaries) implements AutoCloseable {
    @Override
    public void close() {
      vector.close();
      dictionaries.values().forEach(FieldVector::close);
    }
  }

  /**
   * Dictionary-encodes {@code decoded} (borrowed; a vector of {@link #decodedField
   * decodedField(stored)}): each dictionary holds the distinct non-null values of the levels that
   * use its id, in order of first appearance. Levels without dictionaries share the memory of
   * {@code decoded}. More distinct values than the index type addresses is a {@link
   * CodecException}.
   */
  public static Encoded encode(FieldVector decoded, Field stored, BufferAllocator allocator) {
    Map<Long, Field> values = valueFields(stored);
    Map<Long, DictionaryEncoding> encodings = new HashMap<>();
    Map<Long, List<FieldVector>> uses = new LinkedHashMap<>();
    findUses(decoded, stored, uses, encodings);
    // Outer dictionaries first: building one reveals the uses of the dictionaries inside it.
    List<Long> order = outerFirst(values);
    Map<FieldVector, int[]> indexes = new IdentityHashMap<>();
    Map<Long, FieldVector> built = new LinkedHashMap<>();
    FieldVector vector = null;
    Map<Long, FieldVector> dictionaries = new LinkedHashMap<>();
    try {
      for (long id : order) {
        Field value = values.get(id);
        FieldVector dictionary = build(id, decodedField(value), uses.getOrDefault(id, List.of()),
            encodings.get(id), indexes, allocator);
        built.put(id, dictionary);
        findUses(dictionary, value, uses, encodings);
      }
      Field indexed = indexedField(stored);
      vector = Fields.createVector(indexed, allocator);
      encodeInto(vector, decoded, stored, indexes, allocator);
      List<Long> writeOrder = new ArrayList<>(order);
      Collections.reverse(writeOrder);
      for (long id : writeOrder) {
        Field value = values.get(id);
        FieldVector out = Fields.createVector(indexedField(value), allocator);
        dictionaries.put(id, out);
        encodeInto(out, built.get(id), value, indexes, allocator);
      }
      return new Encoded(vector, dictionaries);
    } catch (RuntimeException e) {
      if (vector != null) {
        vector.close();
      }
      dictionaries.values().forEach(FieldVector::close);
      throw e;
    } finally {
      built.values().forEach(FieldVector::close);
    }
  }

  /** Ids in an order where an id comes before every id used inside its values. */
  private static List<Long> outerFirst(Map<Long, Field> values) {
    Map<Long, Set<Long>> inside = new HashMap<>();
    for (Map.Entry<Long, Field> e : values.entrySet()) {
      Set<Long> ids = new LinkedHashSet<>();
      for (Field child : e.getValue().getChildren()) {
        idsIn(child, ids);
      }
      inside.put(e.getKey(), ids);
    }
    List<Long> out = new ArrayList<>();
    Set<Long> placed = new LinkedHashSet<>();
    while (out.size() < values.size()) {
      for (long id : values.keySet()) {
        if (placed.contains(id)) {
          continue;
        }
        boolean enclosed = false;
        for (long other : values.keySet()) {
          if (other != id && !placed.contains(other) && inside.get(other).contains(id)) {
            enclosed = true;
            break;
          }
        }
        if (!enclosed) {
          placed.add(id);
          out.add(id);
        }
      }
    }
    return out;
  }

  private static void idsIn(Field field, Set<Long> out) {
    if (field.getDictionary() != null) {
      out.add(field.getDictionary().getId());
    }
    for (Field child : field.getChildren()) {
      idsIn(child, out);
    }
  }

  private static void findUses(
      FieldVector vector, Field stored, Map<Long, List<FieldVector>> uses, Map<Long, DictionaryEncoding> encodings) {
    DictionaryEncoding encoding = stored.getDictionary();
    if (encoding != null) {
      uses.computeIfAbsent(encoding.getId(), k -> new ArrayList<>()).add(vector);
      encodings.putIfAbsent(encoding.getId(), encoding);
      return; // what lies below is the dictionary's business
    }
    List<FieldVector> children = vector.getChildrenFromFields();
    for (int i = 0; i < stored.getChildren().size(); i++) {
      if (isEncoded(stored.getChildren().get(i))) {
        findUses(children.get(i), stored.getChildren().get(i), uses, encodings);
      }
    }
  }

  /** An element of a vector, hashed and compared by value. */
  private static final class Element {
    final FieldVector vector;
    final int index;
    final int hash;

    Element(FieldVector vector, int index) {
      this.vector = vector;
      this.index = index;
      // Arrow Java 18 hashes a view of exactly 12 bytes as if it were out of line.
      this.hash = vector instanceof BaseVariableWidthViewVector views
          ? java.util.Arrays.hashCode(views.get(index)) : vector.hashCode(index);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Element e) || e.hash != hash) {
        return false;
      }
      // Levels sharing an id may differ in names and metadata; their types are known equal.
      return new ValueEquals(vector, e.vector, (a, b) -> true).rangeEquals(new Range(index, e.index, 1));
    }
  }

  /** The dictionary of the distinct values of {@code uses}; records each use's indexes. */
  private static FieldVector build(
      long id, Field decodedValue, List<FieldVector> uses, DictionaryEncoding encoding,
      Map<FieldVector, int[]> indexes, BufferAllocator allocator) {
    ArrowType.Int indexType = indexType(encoding);
    long max = indexType.getIsSigned() ? (1L << (indexType.getBitWidth() - 1)) - 1
        : indexType.getBitWidth() == 64 ? Long.MAX_VALUE : (1L << indexType.getBitWidth()) - 1;
    Map<Element, Integer> seen = new HashMap<>();
    List<Gather.Run> runs = new ArrayList<>();
    for (FieldVector use : uses) {
      int[] idx = new int[use.getValueCount()];
      for (int i = 0; i < idx.length; i++) {
        if (use.isNull(i)) {
          idx[i] = -1;
          continue;
        }
        Element e = new Element(use, i);
        Integer known = seen.get(e);
        if (known == null) {
          known = seen.size();
          if (known > max) {
            throw new CodecException("dictionary " + id + ": more distinct values than " + indexType
                + " indices address (" + (max + 1) + ")");
          }
          seen.put(e, known);
          runs.add(new Gather.Run(use, i, 1));
        }
        idx[i] = known;
      }
      indexes.put(use, idx);
    }
    return Gather.gather(decodedValue, runs, allocator);
  }

  private static void encodeInto(
      FieldVector out, FieldVector in, Field stored, Map<FieldVector, int[]> indexes, BufferAllocator allocator) {
    DictionaryEncoding encoding = stored.getDictionary();
    if (encoding != null) {
      int[] idx = indexes.get(in);
      int width = indexType(encoding).getBitWidth() / 8;
      int n = idx.length;
      ArrowBuf valid = allocator.buffer(BitVectorHelper.getValidityBufferSize(n));
      ArrowBuf data = allocator.buffer((long) n * width);
      try {
        valid.setZero(0, valid.capacity());
        data.setZero(0, (long) n * width);
        for (int i = 0; i < n; i++) {
          if (idx[i] < 0) {
            continue;
          }
          BitVectorHelper.setBit(valid, i);
          switch (width) {
            case 1 -> data.setByte(i, idx[i]);
            case 2 -> data.setShort((long) i * 2, idx[i]);
            case 4 -> data.setInt((long) i * 4, idx[i]);
            default -> data.setLong((long) i * 8, idx[i]);
          }
        }
        out.loadFieldBuffers(new ArrowFieldNode(n, 0), List.of(valid, data));
      } finally {
        valid.close();
        data.close();
      }
      return;
    }
    share(out, in);
    List<FieldVector> outChildren = out.getChildrenFromFields();
    List<FieldVector> inChildren = in.getChildrenFromFields();
    for (int i = 0; i < outChildren.size(); i++) {
      Field child = stored.getChildren().get(i);
      if (isEncoded(child)) {
        encodeInto(outChildren.get(i), inChildren.get(i), child, indexes, allocator);
      } else {
        share(outChildren.get(i), inChildren.get(i));
        shareChildren(outChildren.get(i), inChildren.get(i));
      }
    }
  }
}
