package dev.zarrow.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.FieldJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How a group holds a table: the Arrow schema as written by the user, and for each of its fields the
 * name of the child array that holds the column. Stored in the group's attributes as
 *
 * <pre>
 * "zarrow_table": {
 *   "version": "0.1.0",
 *   "schema": {"fields": [field...], ["metadata": [{"key": k, "value": v}...]]},
 *   "nodes": [node name...]
 * }
 * </pre>
 *
 * <p>{@code schema} is in the Arrow JSON-integration spelling ({@link FieldJson}), dictionary
 * encodings included; {@code nodes[i]} is the child array of {@code schema.fields[i]}. Column names
 * that are not safe node names, or that repeat (ignoring case, for case-insensitive file systems),
 * get a node name of their own ({@link #forSchema}); the schema keeps the original.
 *
 * @param schema the table's schema, exactly as given (stored form: dictionary-encoded fields carry
 *     their value type and {@link Field#getDictionary()})
 * @param nodes the child node of each field, in field order; distinct, each a safe node name
 */
public record TableLayout(Schema schema, List<String> nodes) {
  /** The group attribute that holds the layout. */
  public static final String ATTRIBUTE = "zarrow_table";

  public static final String VERSION = "0.1.0";

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final int MAX_NAME = 200;
  private static final String WHERE = "/attributes/" + ATTRIBUTE;

  public TableLayout {
    nodes = List.copyOf(nodes);
    if (schema.getFields().size() != nodes.size()) {
      throw new MetadataException(WHERE + "/nodes: " + nodes.size() + " node names for " + schema.getFields().size() + " fields");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      String node = nodes.get(i);
      if (!isSafeNodeName(node)) {
        throw new MetadataException(WHERE + "/nodes/" + i + ": '" + node + "' is not a safe node name");
      }
      if (!seen.add(node.toLowerCase(Locale.ROOT))) {
        throw new MetadataException(WHERE + "/nodes/" + i + ": '" + node + "' names a second column");
      }
    }
  }

  /**
   * The layout for a new table of {@code schema}: each field's node name is its own name when that is
   * a safe node name not taken yet (ignoring case), otherwise the name with every unsafe character
   * replaced by {@code _}, prefixed {@code column_} when that is still not safe ({@code column} for an
   * empty name), then suffixed {@code _2}, {@code _3}, ... until it is free.
   */
  public static TableLayout forSchema(Schema schema) {
    List<String> nodes = new ArrayList<>();
    Set<String> taken = new HashSet<>();
    for (Field field : schema.getFields()) {
      String name = field.getName() == null ? "" : field.getName();
      String node = isSafeNodeName(name) ? name : sanitize(name);
      String candidate = node;
      for (int n = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); n++) {
        candidate = node + "_" + n;
      }
      nodes.add(candidate);
    }
    return new TableLayout(schema, nodes);
  }

  /**
   * Whether {@code name} can be a child node's name on every store: letters, digits, {@code _ . -}
   * only (the characters the Zarr v3 spec recommends), not {@code .} or {@code ..}, not starting with
   * {@code __} (reserved by the spec), at most 200 characters, and not {@code zarr.json} or {@code c}
   * (which would shadow the group's metadata or chunk keys).
   */
  public static boolean isSafeNodeName(String name) {
    return name != null
        && name.length() <= MAX_NAME
        && SAFE.matcher(name).matches()
        && !name.equals(".")
        && !name.equals("..")
        && !name.startsWith("__")
        && !name.equals("zarr.json")
        && !name.equals("c");
  }

  private static String sanitize(String name) {
    StringBuilder out = new StringBuilder();
    name.codePoints().limit(MAX_NAME - 10).forEach(c -> out.append(c < 128 && SAFE.matcher(Character.toString(c)).matches() ? (char) c : '_'));
    String s = out.toString();
    return s.isEmpty() ? "column" : isSafeNodeName(s) ? s : "column_" + s;
  }

  /** The layout in a group's attributes, empty when the group holds none. */
  public static Optional<TableLayout> fromAttributes(ObjectNode attributes) {
    JsonNode node = attributes.get(ATTRIBUTE);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isObject()) {
      throw new MetadataException(WHERE + ": not an object");
    }
    JsonNode version = node.get("version");
    if (version == null || !version.isTextual()) {
      throw new MetadataException(WHERE + "/version: missing or not a string");
    }
    if (!version.textValue().equals(VERSION)) {
      throw new UnsupportedExtensionException(WHERE + "/version: table layout version \"" + version.textValue()
          + "\" is not supported (supported: \"" + VERSION + "\")");
    }
    JsonNode schema = node.get("schema");
    if (schema == null) {
      throw new MetadataException(WHERE + "/schema: missing");
    }
    JsonNode nodes = node.get("nodes");
    if (nodes == null || !nodes.isArray()) {
      throw new MetadataException(WHERE + "/nodes: missing or not an array");
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (!nodes.get(i).isTextual()) {
        throw new MetadataException(WHERE + "/nodes/" + i + ": not a string");
      }
      names.add(nodes.get(i).textValue());
    }
    return Optional.of(new TableLayout(FieldJson.parseSchema(schema, WHERE + "/schema"), names));
  }

  /** The attribute value ({@code version}, {@code schema}, {@code nodes}, in that order). */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("version", VERSION);
    out.set("schema", FieldJson.writeSchema(schema));
    ArrayNode names = out.putArray("nodes");
    nodes.forEach(names::add);
    return out;
  }

  /** {@code attributes} (not changed) with this layout set. */
  public ObjectNode into(ObjectNode attributes) {
    ObjectNode out = attributes.deepCopy();
    out.set(ATTRIBUTE, toJson());
    return out;
  }
}
