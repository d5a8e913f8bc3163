package dev.zarrow.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.vector.JsonValueWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.opentest4j.AssertionFailedError;

/**
 * The Zarr v2 interop matrix of issue 19, written by zarr-python 2 through
 * {@code core/src/test/python/zarr2_matrix.py}: one array per case (every dtype, compressor, filter, order,
 * separator and fill value spelling, partial and missing chunks) and the manifest of the values zarrow
 * must read, in the canonical JSON form that {@link JsonValueWriter} writes. {@link #check} asks
 * zarr-python 2 to read a v2 store zarrow wrote and answers one report per array. Each test class runs
 * {@link #write} once (python starts slowly on a loaded machine).
 */
public final class ZarrV2Matrix {
  public static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The .zarray keys a v2 array written from a case keeps exactly. */
  public static final List<String> KEPT_KEYS = List.of("dtype", "order", "separator", "compressor", "filters", "fill_value", "shape", "chunks");

  private final Path store;
  private final Map<String, ObjectNode> cases = new LinkedHashMap<>();

  private ZarrV2Matrix(Path store, JsonNode manifest) {
    this.store = store;
    manifest.get("cases").forEach(c -> cases.put(c.get("name").asText(), (ObjectNode) c));
  }

  /** zarr-python 2 writes the matrix as the v2 group at {@code store} (consolidated) and says what it wrote. */
  public static ZarrV2Matrix write(Path store) {
    PythonPeer.assumeAvailable();
    return new ZarrV2Matrix(store, PythonPeer.run(TIMEOUT, "zarr2_matrix.py", "write", store.toString()));
  }

  /** The v2 group zarr-python 2 wrote. */
  public Path store() {
    return store;
  }

  /** The case names, in the script's order. */
  public List<String> names() {
    return new ArrayList<>(cases.keySet());
  }

  /** One case: name, the .zarray's dtype, order, separator, compressor, filters, fill_value, shape, chunks, missing, values. */
  public ObjectNode get(String name) {
    ObjectNode c = cases.get(name);
    if (c == null) {
      throw new AssertionError("no case " + name + " in the matrix");
    }
    return c;
  }

  /** Writes the manifest of the cases {@code names} to {@code file}, for {@link #check}. */
  public void writeManifest(Path file, List<String> names) {
    ObjectNode out = JSON.createObjectNode();
    names.forEach(n -> out.withArray("cases").add(get(n)));
    try {
      Files.writeString(file, JSON.writeValueAsString(out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * zarr-python 2 reads every array {@code manifest} names from the v2 group at {@code v2} and compares it
   * with the manifest's values; the answer maps each name to its report ({@code "problems"} empty when
   * equal, and the dtype, order, separator, compressor, filters and fill value zarr-python 2 sees).
   */
  public static Map<String, JsonNode> check(Path v2, Path manifest) {
    return check(v2, manifest, false);
  }

  /**
   * {@link #check}; with {@code consolidated} each report also has {@code "consolidated_problems"}, the
   * same comparison of the array opened through {@code zarr.open_consolidated} (the group's .zmetadata).
   */
  public static Map<String, JsonNode> check(Path v2, Path manifest, boolean consolidated) {
    PythonPeer.assumeAvailable();
    List<String> args = new ArrayList<>(List.of("check", v2.toString(), manifest.toString()));
    if (consolidated) {
      args.add("--consolidated");
    }
    JsonNode arrays = PythonPeer.run(TIMEOUT, "zarr2_matrix.py", args.toArray(String[]::new)).get("arrays");
    Map<String, JsonNode> out = new LinkedHashMap<>();
    arrays.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** The values of {@code vector} in the canonical form (as zarrow prints them). */
  public static JsonNode values(FieldVector vector) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.getFactory().createGenerator(text)) {
      g.writeStartArray();
      new JsonValueWriter(g).writeAll(vector);
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return JSON.readTree(text.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The .zarray of {@code array} under the v2 group {@code root}, with {@code dimension_separator} as "separator" ("." when absent). */
  public static ObjectNode zarray(Path root, String array) {
    try {
      ObjectNode doc = (ObjectNode) JSON.readTree(root.resolve(array).resolve(".zarray").toFile());
      doc.set("separator", doc.has("dimension_separator") ? doc.get("dimension_separator") : doc.textNode("."));
      return doc;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts that the {@code .zarray} zarrow wrote for a case ({@code copy}) keeps the choices of the one
   * zarr-python 2 wrote ({@code original}, both from {@link #zarray}): the {@link #KEPT_KEYS}, except
   * blosc's AUTOSHUFFLE (-1), written as the shuffle it chose, and fill values zarrow's model holds
   * otherwise ({@link #sameFill}).
   */
  public static void assertKept(ObjectNode original, ObjectNode copy, String name) {
    for (String key : KEPT_KEYS) {
      JsonNode expected = original.get(key);
      if (key.equals("compressor") && expected.path("shuffle").asInt() == -1) {
        expected = ((ObjectNode) expected.deepCopy()).put("shuffle", copy.get(key).path("shuffle").asInt());
      }
      boolean kept = key.equals("fill_value") ? sameFill(original, copy) : same(expected, copy.get(key));
      if (!kept) {
        throw new AssertionFailedError(name + ": .zarray " + key + " " + copy.get(key) + ", zarr-python 2 wrote " + expected);
      }
    }
  }

  /**
   * The fill value zarrow writes back: the one zarr-python 2 wrote, except where zarrow's model (v3's)
   * has no such value: a numeric {@code null} (no defined fill) is written as zero, an object array's
   * default {@code 0} as its empty value ({@code ""}, or null for vlen-array). What the arrays read is
   * checked by zarr-python 2 either way.
   */
  static boolean sameFill(ObjectNode original, ObjectNode copy) {
    JsonNode expected = original.get("fill_value");
    JsonNode written = copy.get("fill_value");
    if (same(expected, written)) {
      return true;
    }
    if (original.get("dtype").asText().equals("|O")) {
      return expected.isNull() || expected.asText().equals("0") && (written.isNull() || written.asText().isEmpty());
    }
    return expected.isNull() && (written.asText().matches("[0.]+") || written.asText().matches("A+=*"));
  }

  /**
   * Where {@code actual}'s values differ from {@code expected}'s (null when equal): the count and the
   * first difference, which is what a failure needs to say.
   */
  public static String difference(JsonNode expected, JsonNode actual) {
    if (expected.size() != actual.size()) {
      return "expected " + expected.size() + " values, read " + actual.size();
    }
    int bad = 0;
    int first = -1;
    for (int i = 0; i < expected.size(); i++) {
      if (!same(expected.get(i), actual.get(i))) {
        bad++;
        first = first < 0 ? i : first;
      }
    }
    return bad == 0 ? null : bad + " of " + expected.size() + " values differ; first at flat index " + first
        + ": expected " + expected.get(first) + ", read " + actual.get(first);
  }

  /** Equal JSON values, numbers by value (2 and 2.0; an unsigned 64-bit number and its decimal string). */
  public static boolean same(JsonNode a, JsonNode b) {
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    if (x != null && y != null && (a.isNumber() || b.isNumber())) {
      return x.compareTo(y) == 0;
    }
    if (a.isArray() && b.isArray() || a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      if (a.isArray()) {
        for (int i = 0; i < a.size(); i++) {
          if (!same(a.get(i), b.get(i))) {
            return false;
          }
        }
        return true;
      }
      var names = a.fieldNames();
      while (names.hasNext()) {
        String n = names.next();
        if (!b.has(n) || !same(a.get(n), b.get(n))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static BigDecimal number(JsonNode n) {
    if (n == null) {
      return null;
    }
    if (n.isNumber()) {
      return new BigDecimal(n.asText());
    }
    if (n.isTextual() && n.asText().matches("-?[0-9]+")) {
      return new BigDecimal(n.asText());
    }
    return null;
  }
}
