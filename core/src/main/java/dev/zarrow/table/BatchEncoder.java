package dev.zarrow.table;

import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Move;
import dev.zarrow.vector.Dictionaries;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Dictionary-encodes the dictionary-encoded columns of a batch together, so that columns sharing a
 * dictionary id share one dictionary: the columns become the children of one struct (named {@code
 * c0}, {@code c1}, ... since column names may repeat), encoded with {@link Dictionaries#encode}.
 */
final class BatchEncoder {
  private final int[] columns;
  private final Field stored;

  /** An encoder of the columns of {@code fields} (stored form) that are dictionary-encoded. */
  BatchEncoder(List<Field> fields) {
    List<Integer> encoded = new ArrayList<>();
    List<Field> children = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      if (Dictionaries.isEncoded(f)) {
        encoded.add(i);
        children.add(new Field("c" + children.size(), f.getFieldType(), f.getChildren()));
      }
    }
    this.columns = encoded.stream().mapToInt(Integer::intValue).toArray();
    this.stored = new Field("", FieldType.nullable(ArrowType.Struct.INSTANCE), children);
    Dictionaries.valueFields(stored); // refuses ids whose uses disagree, before any batch
  }

  boolean isEmpty() {
    return columns.length == 0;
  }

  /** The index (in the batch) of the {@code i}-th encoded column. */
  int column(int i) {
    return columns[i];
  }

  int size() {
    return columns.length;
  }

  /**
   * The encoded columns of {@code batch} (decoded vectors, borrowed: the result shares their memory)
   * as the children of the returned struct, in order, with their dictionaries; the caller closes it.
   */
  Dictionaries.Encoded encode(List<FieldVector> batch, int rows, BufferAllocator allocator) {
    try (StructVector struct = (StructVector) Fields.createVector(Dictionaries.decodedField(stored), allocator)) {
      List<FieldVector> children = struct.getChildrenFromFields();
      for (int i = 0; i < columns.length; i++) {
        Move.into(batch.get(columns[i]), children.get(i));
      }
      struct.loadFieldBuffers(new ArrowFieldNode(rows, 0), List.of(allocator.getEmpty()));
      return Dictionaries.encode(struct, stored, allocator);
    }
  }
}
