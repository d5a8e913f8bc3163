package dev.zarrow.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Random chunks of the nested types the seed corpus needs beyond fixed-width ones: integers, strings and
 * binary (large too), lists and structs of them, with nulls where the field is nullable. Strings draw
 * from few values so that dictionaries have repeats.
 */
final class RandomValues {
  private static final String[] WORDS = {"", "a", "zarr", "arrow", "é", "日本", "😀", "\u0000", "a longer string than the rest"};

  private RandomValues() {}

  /** Allocates {@code vector} (empty, of a supported type) and gives it {@code count} random elements. */
  static void fill(FieldVector vector, int count, Random random) {
    boolean nullable = vector.getField().isNullable();
    vector.setInitialCapacity(count);
    vector.allocateNew();
    if (vector instanceof ListVector list) {
      fillList(list, count, nullable, random);
    } else {
      if (vector instanceof StructVector struct) {
        for (FieldVector child : struct.getChildrenFromFields()) {
          fill(child, count, random);
        }
      }
      for (int i = 0; i < count; i++) {
        if (nullable && random.nextInt(5) == 0) {
          vector.setNull(i);
        } else {
          set(vector, i, random);
        }
      }
    }
    vector.setValueCount(count);
  }

  private static void set(FieldVector vector, int i, Random random) {
    if (vector instanceof BaseIntVector ints) {
      ints.setWithPossibleTruncate(i, random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(10));
    } else if (vector instanceof VariableWidthFieldVector varying) {
      boolean text = vector.getField().getType() instanceof ArrowType.Utf8
          || vector.getField().getType() instanceof ArrowType.LargeUtf8;
      byte[] value = WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8);
      if (!text) {
        value = new byte[random.nextInt(20)];
        random.nextBytes(value);
      }
      varying.setSafe(i, value);
    } else if (vector instanceof StructVector struct) {
      struct.setIndexDefined(i);
    } else {
      throw new IllegalArgumentException("no random values for " + vector.getField());
    }
  }

  private static void fillList(ListVector list, int count, boolean nullable, Random random) {
    int[] sizes = new int[count]; // -1: a null list
    int total = 0;
    for (int i = 0; i < count; i++) {
      sizes[i] = nullable && random.nextInt(5) == 0 ? -1 : random.nextInt(4);
      total += Math.max(sizes[i], 0);
    }
    fill(list.getDataVector(), total, random);
    for (int i = 0; i < count; i++) {
      list.startNewValue(i);
      list.endValue(i, Math.max(sizes[i], 0));
      if (sizes[i] < 0) {
        BitVectorHelper.unsetBit(list.getValidityBuffer(), i);
      }
    }
  }
}
