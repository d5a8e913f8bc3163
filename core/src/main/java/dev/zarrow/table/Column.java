package dev.zarrow.table;

import dev.zarrow.error.MetadataException;
import dev.zarrow.ZarrArray;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Move;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.grid.Box;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * One column of a reader: an array whose rows run along dimension 0, and the field it is exported
 * as ({@link #field}, the stored form: dictionary encodings included). A 1-D array's row is one
 * element; a row of a rank >= 2 array is one element of Arrow's canonical {@code
 * arrow.fixed_shape_tensor} extension (a FixedSizeList of the row's elements in C order); a 0-d
 * array is one row of one element.
 */
record Column(ZarrArray array, Field field) {
  static final String EXTENSION_NAME = "ARROW:extension:name";
  static final String EXTENSION_METADATA = "ARROW:extension:metadata";
  static final String TENSOR = "arrow.fixed_shape_tensor";

  /** The column of {@code array} named {@code name}, its field derived from the array's data type. */
  static Column of(ZarrArray array, String name) {
    if (array.rank() < 2) {
      return new Column(array, elementField(array, name));
    }
    long[] shape = array.shape();
    long[] rowShape = Arrays.copyOfRange(shape, 1, shape.length);
    long width = 1;
    for (long s : rowShape) {
      width = Math.multiplyExact(width, s);
    }
    if (width > Integer.MAX_VALUE) {
      throw new MetadataException("array '" + array.path() + "': a row of shape " + Arrays.toString(rowShape)
          + " has more elements than a FixedSizeList holds");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(EXTENSION_NAME, TENSOR);
    metadata.put(EXTENSION_METADATA,
        Arrays.stream(rowShape).mapToObj(Long::toString).collect(Collectors.joining(",", "{\"shape\":[", "]}")));
    FieldType type = new FieldType(false, new ArrowType.FixedSizeList((int) width), null, metadata);
    return new Column(array, new Field(name, type, List.of(elementField(array, "item"))));
  }

  /**
   * The column of {@code array} exported as {@code field} (a table layout's field); refuses, naming
   * both, an array that does not hold that field's values.
   */
  static Column forField(ZarrArray array, Field field) {
    Column column = new Column(array, field);
    if (array.rank() != 1 || !Fields.sameLayout(array.dataType().field(field.getName()), column.memoryField())) {
      throw new MetadataException("array '" + array.path() + "' (" + array.rank() + "-D, " + array.dataType().name()
          + ") does not hold the table's column '" + field.getName() + "' of " + field.getType());
    }
    return column;
  }

  private static Field elementField(ZarrArray array, String name) {
    return array.dataType() instanceof ArrowDataType arrow ? arrow.storedField(name) : array.dataType().field(name);
  }

  /** The field of the vectors {@link #read} returns: {@link #field} with dictionaries decoded. */
  Field memoryField() {
    return Dictionaries.decodedField(field);
  }

  long rows() {
    return array.rank() == 0 ? 1 : array.shape()[0];
  }

  /** The rows of one chunk (1 for a 0-d array). */
  long chunkRows() {
    return array.rank() == 0 ? 1 : array.grid().chunkShape()[0];
  }

  /**
   * Rows {@code [start, end)} as a vector of {@link #memoryField} the caller owns. A whole chunk of a
   * 1-D array (or of an array chunked only along dimension 0) comes as decoded, without a copy.
   */
  FieldVector read(long start, long end, BufferAllocator allocator) {
    if (array.rank() == 0) {
      return array.read(allocator).vector();
    }
    long[] shape = array.shape();
    long[] boxStart = new long[shape.length];
    long[] boxShape = shape.clone();
    boxStart[0] = start;
    boxShape[0] = end - start;
    FieldVector flat = array.read(new Box(boxStart, boxShape), allocator).vector();
    if (array.rank() == 1) {
      return flat;
    }
    try (flat) {
      FixedSizeListVector rows = (FixedSizeListVector) Fields.createVector(memoryField(), allocator);
      try {
        Move.into(flat, rows.getDataVector());
        // No null rows: a null count of 0 makes Arrow allocate an all-valid bitmap.
        rows.loadFieldBuffers(new ArrowFieldNode(end - start, 0), List.of(allocator.getEmpty()));
        return rows;
      } catch (RuntimeException e) {
        rows.close();
        throw e;
      }
    }
  }
}
