package dev.zarrow.codec.arrow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Decoded values of dictionary-encoded columns as Java objects ({@code getObject} form), looked up
 * directly in the dictionaries, independently of {@code Dictionaries.decode}.
 */
final class ExpectedValues {
  private ExpectedValues() {}

  /** Element {@code i} of {@code v} (indexed form of {@code stored}) with its dictionaries looked up. */
  static Object lookup(FieldVector v, Field stored, DictionaryProvider dictionaries, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (stored.getDictionary() != null) {
      long index = ((BaseIntVector) v).getValueAsLong(i);
      Field value = new Field(stored.getName(),
          new FieldType(true, stored.getType(), null, null), stored.getChildren());
      return lookup(dictionaries.lookup(stored.getDictionary().getId()).getVector(), value, dictionaries, (int) index);
    }
    if (!dev.zarrow.vector.Dictionaries.isEncoded(stored)) {
      return v.getObject(i);
    }
    if (v instanceof FixedSizeListVector list) {
      List<Object> out = new ArrayList<>();
      for (int j = 0; j < list.getListSize(); j++) {
        out.add(lookup(list.getDataVector(), stored.getChildren().get(0), dictionaries, i * list.getListSize() + j));
      }
      return out;
    }
    if (v instanceof BaseListVector list) {
      List<Object> out = new ArrayList<>();
      FieldVector child = v.getChildrenFromFields().get(0);
      for (int j = list.getElementStartIndex(i); j < list.getElementEndIndex(i); j++) {
        out.add(lookup(child, stored.getChildren().get(0), dictionaries, j));
      }
      return out;
    }
    if (v instanceof StructVector) {
      Map<String, Object> out = new LinkedHashMap<>();
      List<FieldVector> children = v.getChildrenFromFields();
      for (int c = 0; c < children.size(); c++) {
        Object value = lookup(children.get(c), stored.getChildren().get(c), dictionaries, i);
        if (value != null) {
          out.put(stored.getChildren().get(c).getName(), value);
        }
      }
      return out;
    }
    throw new AssertionError("no expected-value lookup for dictionaries inside " + stored.getType());
  }

  /** Equality that looks into lists, maps and byte arrays. */
  static boolean deepEquals(Object a, Object b) {
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (Object k : x.keySet()) {
        if (!deepEquals(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    return java.util.Objects.equals(a, b);
  }
}
