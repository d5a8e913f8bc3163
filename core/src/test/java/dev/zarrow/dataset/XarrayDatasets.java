package dev.zarrow.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Test helpers for xarray's datasets: the table xarray makes (printed by {@code xarray_datasets.py}) compared
 * row for row with a reader's rows, matched by the dimension values; and a copy of a v2 dataset to v3.
 */
final class XarrayDatasets {
  private XarrayDatasets() {}

  /** Every row of {@code reader} as column name -> normalized value (see {@link #value}). */
  static List<Map<String, Object>> rows(ArrowReader reader) throws IOException {
    List<Map<String, Object>> out = new ArrayList<>();
    while (reader.loadNextBatch()) {
      out.addAll(rowsOf(reader.getVectorSchemaRoot()));
    }
    return out;
  }

  /** The rows of one batch, as {@link #rows}. */
  static List<Map<String, Object>> rowsOf(VectorSchemaRoot root) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      Map<String, Object> row = new HashMap<>();
      for (FieldVector v : root.getFieldVectors()) {
        row.put(v.getName(), value(v, r));
      }
      out.add(row);
    }
    return out;
  }

  /** Numbers as Double or Long, times as epoch nanoseconds and durations as nanoseconds (Long), strings, booleans, null. */
  static Object value(FieldVector v, int r) {
    if (v.isNull(r)) {
      return null;
    }
    if (v instanceof FloatingPointVector f) {
      return f.getValueAsDouble(r);
    }
    if (v instanceof TimeStampVector t) {
      TimeUnit unit = ((ArrowType.Timestamp) v.getField().getType()).getUnit();
      long x = t.get(r);
      return switch (unit) {
        case SECOND -> x * 1_000_000_000L;
        case MILLISECOND -> x * 1_000_000L;
        case MICROSECOND -> x * 1000L;
        case NANOSECOND -> x;
      };
    }
    if (v instanceof DurationVector d) {
      long x = DurationVector.get(d.getDataBuffer(), r);
      return switch (((ArrowType.Duration) v.getField().getType()).getUnit()) {
        case SECOND -> x * 1_000_000_000L;
        case MILLISECOND -> x * 1_000_000L;
        case MICROSECOND -> x * 1000L;
        case NANOSECOND -> x;
      };
    }
    if (v instanceof BitVector b) {
      return b.get(r) != 0;
    }
    if (v instanceof VarCharVector s) {
      return new String(s.get(r), java.nio.charset.StandardCharsets.UTF_8);
    }
    if (v instanceof org.apache.arrow.vector.BaseIntVector i) {
      return i.getValueAsLong(r); // unsigned ones as unsigned (getObject gives a UInt1Vector's bits as a signed Byte)
    }
    Object o = v.getObject(r);
    return o instanceof Number n ? (Object) n.longValue() : o;
  }

  /**
   * Asserts that {@code actual} holds xarray's {@code expected} table ({"columns", "values"}): as many
   * rows, each of xarray's rows found by its {@code dimensions} values with every column equal (NaN may
   * be null or NaN; numbers compare as doubles).
   */
  static void assertSameTable(JsonNode expected, List<String> dimensions, List<Map<String, Object>> actual, String what) {
    List<String> columns = new ArrayList<>();
    expected.get("columns").forEach(c -> columns.add(c.asText()));
    int n = expected.get("values").get(columns.get(0)).size();
    assertEquals(n, actual.size(), what + ": rows");
    Map<List<Object>, Map<String, Object>> byKey = new HashMap<>();
    for (Map<String, Object> row : actual) {
      List<Object> key = new ArrayList<>();
      for (String d : dimensions) {
        key.add(keyOf(row.get(d)));
      }
      assertEquals(null, byKey.put(key, row), what + ": two rows with dimension values " + key);
    }
    assertEquals(new java.util.TreeSet<>(columns), new java.util.TreeSet<>(actual.get(0).keySet()), what + ": columns");
    for (int i = 0; i < n; i++) {
      List<Object> key = new ArrayList<>();
      for (String d : dimensions) {
        key.add(keyOf(json(expected.get("values").get(d).get(i))));
      }
      Map<String, Object> row = byKey.get(key);
      assertNotNull(row, what + ": no row with dimension values " + key);
      for (String c : columns) {
        Object want = json(expected.get("values").get(c).get(i));
        Object got = row.get(c);
        if (!same(want, got)) {
          fail(what + ": row " + key + ", column '" + c + "': xarray has " + want + ", zarrow " + got);
        }
      }
    }
  }

  private static Object keyOf(Object v) {
    return v instanceof Number n ? (Object) n.doubleValue() : v;
  }

  private static Object json(JsonNode n) {
    if (n.isNull()) {
      return null;
    }
    if (n.isTextual()) {
      return n.textValue().equals("NaN") ? (Object) Double.NaN : n.textValue();
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isIntegralNumber()) {
      return n.longValue();
    }
    return n.doubleValue();
  }

  private static boolean same(Object want, Object got) {
    if (want instanceof Double d && d.isNaN()) {
      return got == null || (got instanceof Double g && g.isNaN());
    }
    if (want instanceof Long w && got instanceof Long g) {
      return w.longValue() == g.longValue();
    }
    if (want instanceof Number w && got instanceof Number g) {
      return w.doubleValue() == g.doubleValue();
    }
    return Objects.equals(want, got);
  }

  /**
   * The v2 dataset of {@code from} copied to a new Zarr v3 group in {@code to}, array by array: the same
   * chunks (v2 key encoding kept), {@code dimension_names} from {@code _ARRAY_DIMENSIONS}, a v2 fill
   * value that is not null kept as the attribute {@code _FillValue} (as xarray writes v3), the group's
   * attributes.
   */
  static void copyToV3(Store from, FileSystemStore to) {
    ZarrOptions options = ZarrOptions.defaults();
    ZarrGroup group = Zarr.openGroup(from, "");
    ZarrGroup made = Zarr.createGroup(to, "", 3, options);
    made.withAttributes(group.attributes());
    for (Map.Entry<String, ZarrNode> child : group.children().nodes().entrySet()) {
      ZarrArray a = (ZarrArray) child.getValue();
      String name = child.getKey();
      ArrayMetadata m = a.metadata();
      ObjectNode attributes = a.attributes();
      JsonNode dims = attributes.remove(Dataset.V2_DIMENSIONS);
      List<String> names = new ArrayList<>();
      dims.forEach(d -> names.add(d.asText()));
      JsonNode v2Fill = Json.parse(from.get(name + "/.zarray").orElseThrow(), name).get("fill_value");
      if (!v2Fill.isNull() && !attributes.has("_FillValue")) {
        attributes.set("_FillValue", v2Fill);
      }
      ArrayMetadata v3 = new ArrayMetadata(m.shape(), m.dataType(), m.chunkGrid(), m.chunkKeyEncoding(), m.fillValue(), m.codecs(),
          attributes, names, null, null);
      Zarr.createArray(to, name, v3, options);
      for (String key : from.list(name + "/")) {
        String base = key.substring(name.length() + 1);
        if (!base.startsWith(".z")) {
          ByteBuffer bytes = from.get(key).orElseThrow();
          to.set(key, bytes);
        }
      }
    }
    assertTrue(Dataset.isDataset(Zarr.openGroup(to, "")));
    JsonNodeFactory.instance.objectNode();
  }
}
