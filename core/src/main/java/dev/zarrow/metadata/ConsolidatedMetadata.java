package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Keys;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The metadata of a whole hierarchy kept in one document at its root, in either of the two forms
 * zarr-python writes:
 *
 * <ul>
 *   <li>Zarr v2: the key {@code .zmetadata},
 *       {@code {"metadata": {".zgroup": {...}, "a/.zarray": {...}, "a/.zattrs": {...}}, "zarr_consolidated_format": 1}}
 *       (zarr-python 2's {@code consolidate_metadata}): every {@code .zgroup}, {@code .zarray} and
 *       {@code .zattrs} below the root by its key relative to the root.
 *   <li>Zarr v3: {@code consolidated_metadata} inline in the root group's {@code zarr.json},
 *       {@code {"kind": "inline", "must_understand": false, "metadata": {"a": {...}, "a/b": {...}}}}
 *       (zarr-python 3): every node below the root by its path relative to the root, each value that
 *       node's {@code zarr.json} document.
 * </ul>
 *
 * Both become one map from store key to metadata document, which {@link ConsolidatedStore} answers
 * metadata reads from: nothing here knows what an array's metadata means, so every format's opener
 * works through it unchanged. An immutable value.
 */
public final class ConsolidatedMetadata {
  /** The key of zarr-python 2's consolidated metadata. */
  public static final String ZMETADATA = ".zmetadata";
  /** The metadata keys a consolidated document stands for: zarr.json (v3) and v2's three. */
  public static final Set<String> METADATA_NAMES = Set.of("zarr.json", ".zarray", ".zgroup", ".zattrs");

  private static final String V3_FIELD = "consolidated_metadata";

  private final String root;
  private final String key;
  private final int format;
  /** Store key -> serialized document. */
  private final TreeMap<String, byte[]> documents;
  /** Node path (from the store root) -> whether it is a group; the root included. */
  private final TreeMap<String, Boolean> nodes;

  private ConsolidatedMetadata(String root, String key, int format, TreeMap<String, byte[]> documents, TreeMap<String, Boolean> nodes) {
    this.root = root;
    this.key = key;
    this.format = format;
    this.documents = documents;
    this.nodes = nodes;
  }

  /** The path of the hierarchy's root group ({@code ""}: the store root). */
  public String root() {
    return root;
  }

  /** The key the consolidated document was read from: {@code ROOT/zarr.json} or {@code ROOT/.zmetadata}. */
  public String key() {
    return key;
  }

  /** 2 ({@code .zmetadata}) or 3 (inline in {@code zarr.json}). */
  public int format() {
    return format;
  }

  /** The node paths (from the store root) the document holds, the root included, in key order. */
  public Set<String> nodePaths() {
    return nodes.keySet();
  }

  /** Whether {@code key} (a store key) is one this document stands for: a metadata key at or below the root. */
  public boolean covers(String storeKey) {
    String name = storeKey.substring(storeKey.lastIndexOf('/') + 1);
    return METADATA_NAMES.contains(name) && (root.isEmpty() || storeKey.startsWith(root + "/"));
  }

  /** The document stored under {@code key} (a covered key), or empty when the hierarchy has none. */
  public Optional<byte[]> document(String storeKey) {
    return Optional.ofNullable(documents.get(storeKey));
  }

  /** Whether {@code path} is a group of the hierarchy. */
  public boolean isGroup(String path) {
    return Boolean.TRUE.equals(nodes.get(path));
  }

  /**
   * One level below the group {@code path}: the metadata keys directly in it and the prefixes (each
   * ending with {@code /}) of its child nodes.
   */
  public Store.Listing listGroup(String path) {
    String prefix = path.isEmpty() ? "" : path + "/";
    List<String> keys = new ArrayList<>();
    for (String k : documents.subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet()) {
      if (k.indexOf('/', prefix.length()) < 0) {
        keys.add(k);
      }
    }
    TreeMap<String, Boolean> children = new TreeMap<>();
    for (String node : nodes.subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet()) {
      if (node.length() > prefix.length()) {
        int slash = node.indexOf('/', prefix.length());
        children.put(slash < 0 ? node + "/" : node.substring(0, slash + 1), true);
      }
    }
    return new Store.Listing(keys, new ArrayList<>(children.keySet()));
  }

  // ---- reading ----

  /**
   * The consolidated metadata of the hierarchy rooted at {@code path}, or empty when it has none. Reads
   * {@code PATH/zarr.json} (v3: its {@code consolidated_metadata}), and only when that key is absent
   * {@code PATH/.zmetadata} (v2): one read for a v3 hierarchy, two for a v2 one. A document that is
   * there but wrong is a {@link MetadataException} naming the key and what is wrong.
   */
  public static Optional<ConsolidatedMetadata> read(Store store, String path) {
    String v3Key = join(path, "zarr.json");
    Optional<ByteBuffer> v3 = readDocument(store, v3Key);
    if (v3.isPresent()) {
      String what = v3Key + " in " + store.describe();
      return parseV3(path, v3Key, Json.parse(v3.get(), what), v3.get(), what);
    }
    String v2Key = join(path, ZMETADATA);
    Optional<ByteBuffer> v2 = readDocument(store, v2Key);
    if (v2.isEmpty()) {
      return Optional.empty();
    }
    String what = v2Key + " in " + store.describe();
    return Optional.of(parseV2(path, v2Key, Json.parse(v2.get(), what), what));
  }

  /** The value of {@code key}, refused before it is read whole when it is larger than any document. */
  private static Optional<ByteBuffer> readDocument(Store store, String key) {
    Optional<ByteSource> source = store.source(key, ByteRange.of(0, Json.MAX_DOCUMENT_BYTES + 1L));
    if (source.isEmpty()) {
      return Optional.empty();
    }
    try (ByteSource document = source.get()) {
      if (document.size() > Json.MAX_DOCUMENT_BYTES) {
        throw new MetadataException(key + " in " + store.describe() + ": document of " + document.size()
            + " bytes exceeds the limit of " + Json.MAX_DOCUMENT_BYTES);
      }
      return Optional.of(document.readAll());
    }
  }

  /** v3: the root's {@code zarr.json} (read as {@code bytes}); empty when it has no consolidated metadata. */
  static Optional<ConsolidatedMetadata> parseV3(String root, String key, JsonNode doc, ByteBuffer bytes, String what) {
    if (!doc.isObject() || !"group".equals(doc.path("node_type").asText()) || doc.path(V3_FIELD).isMissingNode()
        || doc.path(V3_FIELD).isNull()) {
      return Optional.empty();
    }
    JsonNode consolidated = doc.get(V3_FIELD);
    if (!consolidated.isObject()) {
      throw new MetadataException(what + ": /" + V3_FIELD + " is " + Json.kind(consolidated) + ", expected an object");
    }
    JsonNode kind = consolidated.get("kind");
    if (kind == null || !"inline".equals(kind.asText()) || !kind.isTextual()) {
      throw new MetadataException(what + ": /" + V3_FIELD + "/kind is " + (kind == null ? "missing" : Json.compact(kind))
          + ", only \"inline\" is known");
    }
    JsonNode metadata = consolidated.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      throw new MetadataException(what + ": /" + V3_FIELD + "/metadata is " + (metadata == null ? "missing" : Json.kind(metadata))
          + ", expected an object of node path to zarr.json document");
    }
    TreeMap<String, byte[]> documents = new TreeMap<>();
    TreeMap<String, Boolean> nodes = new TreeMap<>();
    byte[] rootBytes = new byte[bytes.remaining()];
    bytes.duplicate().get(rootBytes);
    documents.put(key, rootBytes);
    nodes.put(root, true);
    for (Iterator<Map.Entry<String, JsonNode>> it = metadata.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String where = what + ": /" + V3_FIELD + "/metadata/" + e.getKey();
      String path = nodePath(root, e.getKey(), where);
      JsonNode node = e.getValue();
      if (!node.isObject()) {
        throw new MetadataException(where + " is " + Json.kind(node) + ", expected a zarr.json document (an object)");
      }
      if (node.path("zarr_format").asInt(-1) != 3 || !node.path("zarr_format").isIntegralNumber()) {
        throw new MetadataException(where + ": zarr_format is " + Json.compact(node.path("zarr_format"))
            + ", expected 3 (a v2 hierarchy keeps its consolidated metadata in .zmetadata)");
      }
      String type = node.path("node_type").asText();
      if (!type.equals("array") && !type.equals("group")) {
        throw new MetadataException(where + ": node_type is " + Json.compact(node.path("node_type")) + ", expected \"array\" or \"group\"");
      }
      nodes.put(path, type.equals("group"));
      documents.put(join(path, "zarr.json"), Json.pretty(node));
    }
    checkNesting(nodes, what);
    return Optional.of(new ConsolidatedMetadata(root, key, 3, documents, nodes));
  }

  /** v2: the root's {@code .zmetadata}. */
  static ConsolidatedMetadata parseV2(String root, String key, JsonNode doc, String what) {
    if (!doc.isObject()) {
      throw new MetadataException(what + ": expected a JSON object, got " + Json.kind(doc));
    }
    JsonNode version = doc.get("zarr_consolidated_format");
    if (version == null || !version.isIntegralNumber() || version.asInt() != 1) {
      throw new MetadataException(what + ": /zarr_consolidated_format is " + (version == null ? "missing" : Json.compact(version))
          + ", only 1 is known");
    }
    JsonNode metadata = doc.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      throw new MetadataException(what + ": /metadata is " + (metadata == null ? "missing" : Json.kind(metadata))
          + ", expected an object of key to document");
    }
    TreeMap<String, byte[]> documents = new TreeMap<>();
    TreeMap<String, Boolean> nodes = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = metadata.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String relative = e.getKey();
      String where = what + ": /metadata/" + relative;
      int slash = relative.lastIndexOf('/');
      String name = relative.substring(slash + 1);
      if (!METADATA_NAMES.contains(name) || name.equals("zarr.json")) {
        throw new MetadataException(where + ": not a .zgroup, .zarray or .zattrs key");
      }
      String path = slash < 0 ? root : nodePath(root, relative.substring(0, slash), where);
      if (!e.getValue().isObject()) {
        throw new MetadataException(where + " is " + Json.kind(e.getValue()) + ", expected a JSON object");
      }
      if (!name.equals(".zattrs")) {
        boolean group = name.equals(".zgroup");
        Boolean before = nodes.put(path, group);
        if (before != null && before != group) {
          throw new MetadataException(where + ": '" + (path.isEmpty() ? "/" : path) + "' has both a .zarray and a .zgroup");
        }
      }
      documents.put(join(path, name), Json.pretty(e.getValue()));
    }
    for (String k : documents.keySet()) {
      String path = k.contains("/") ? k.substring(0, k.lastIndexOf('/')) : "";
      if (!nodes.containsKey(path)) {
        throw new MetadataException(what + ": /metadata/" + relativeKey(root, k) + " belongs to no .zarray or .zgroup");
      }
    }
    checkNesting(nodes, what);
    return new ConsolidatedMetadata(root, key, 2, documents, nodes);
  }

  private static String relativeKey(String root, String storeKey) {
    return root.isEmpty() ? storeKey : storeKey.substring(root.length() + 1);
  }

  /** {@code relative} below {@code root}, checked: a relative node path of non-empty segments. */
  private static String nodePath(String root, String relative, String where) {
    if (relative.isEmpty() || relative.startsWith("/") || relative.endsWith("/") || relative.contains("//")) {
      throw new MetadataException(where + ": '" + relative + "' is not a relative node path");
    }
    try {
      Keys.check(relative);
    } catch (StoreException e) {
      throw new MetadataException(where + ": '" + relative + "' is not a relative node path: " + e.getMessage());
    }
    for (String segment : relative.split("/")) {
      if (METADATA_NAMES.contains(segment) || segment.equals(ZMETADATA)) {
        throw new MetadataException(where + ": '" + relative + "' is not a relative node path");
      }
    }
    return join(root, relative);
  }

  /** Nodes do not nest in arrays: a node below an array is a mismatched document. */
  private static void checkNesting(TreeMap<String, Boolean> nodes, String what) {
    for (Map.Entry<String, Boolean> e : nodes.entrySet()) {
      String path = e.getKey();
      for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        if (Boolean.FALSE.equals(nodes.get(path.substring(0, slash)))) {
          throw new MetadataException(what + ": node '" + path + "' lies inside the array '" + path.substring(0, slash)
              + "', and nodes do not nest in arrays");
        }
      }
    }
  }

  static String join(String path, String name) {
    return path.isEmpty() ? name : name.isEmpty() ? path : path + "/" + name;
  }

  // ---- writing ----

  /**
   * Writes the consolidated metadata of the hierarchy rooted at the group {@code path} in the form of
   * its format: inline {@code consolidated_metadata} in {@code PATH/zarr.json} when that exists (v3,
   * zarr-python 3's form, paths sorted by depth then name), else {@code PATH/.zmetadata} when
   * {@code PATH/.zgroup} exists (v2, zarr-python 2's form). Walks the hierarchy by listing; one
   * {@link WritableStore#set} writes the result, atomically as every set is. Returns what was written.
   *
   * @throws NoSuchNodeException when there is no group at {@code path}
   */
  public static ConsolidatedMetadata consolidate(WritableStore store, String path) {
    String v3Key = join(path, "zarr.json");
    Optional<ByteBuffer> v3 = readDocument(store, v3Key);
    if (v3.isPresent()) {
      String what = v3Key + " in " + store.describe();
      JsonNode doc = Json.parse(v3.get(), what);
      if (!doc.isObject() || !"group".equals(doc.path("node_type").asText())) {
        throw new ZarrException(what + ": consolidated metadata belongs to a group, and '" + (path.isEmpty() ? "/" : path)
            + "' is not one");
      }
      TreeMap<String, JsonNode> entries = new TreeMap<>(byDepthThenName());
      collectV3(store, path, "", entries);
      ObjectNode consolidated = JsonNodeFactory.instance.objectNode();
      consolidated.put("kind", "inline");
      consolidated.put("must_understand", false);
      ObjectNode metadata = consolidated.putObject("metadata");
      entries.forEach(metadata::set);
      ObjectNode out = ((ObjectNode) doc).deepCopy();
      out.set(V3_FIELD, consolidated);
      byte[] bytes = Json.pretty(out);
      store.set(v3Key, ByteBuffer.wrap(bytes));
      return parseV3(path, v3Key, out, ByteBuffer.wrap(bytes), what).orElseThrow();
    }
    String zgroup = join(path, ".zgroup");
    if (!store.exists(zgroup)) {
      throw new NoSuchNodeException("no group at '" + (path.isEmpty() ? "/" : path) + "' in " + store.describe()
          + " (no " + v3Key + ", no " + zgroup + ")");
    }
    ObjectNode metadata = JsonNodeFactory.instance.objectNode();
    collectV2(store, path, "", metadata);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.set("metadata", metadata);
    out.put("zarr_consolidated_format", 1);
    String key = join(path, ZMETADATA);
    store.set(key, ByteBuffer.wrap(Json.prettyAscii(out)));
    return parseV2(path, key, out, key + " in " + store.describe());
  }

  /** zarr-python 3's order: by path depth, then by name. */
  private static Comparator<String> byDepthThenName() {
    return Comparator.<String>comparingInt(p -> (int) p.chars().filter(c -> c == '/').count()).thenComparing(Comparator.naturalOrder());
  }

  private static void collectV3(Store store, String root, String relative, Map<String, JsonNode> entries) {
    String group = join(root, relative);
    String prefix = group.isEmpty() ? "" : group + "/";
    for (String child : store.listDir(prefix).prefixes()) {
      String name = child.substring(prefix.length(), child.length() - 1);
      String key = child + "zarr.json";
      Optional<ByteBuffer> bytes = readDocument(store, key);
      if (bytes.isEmpty()) {
        continue; // not a node: v3 has no implicit groups
      }
      JsonNode doc = Json.parse(bytes.get(), key + " in " + store.describe());
      if (!doc.isObject()) {
        throw new MetadataException(key + " in " + store.describe() + ": expected a JSON object, got " + Json.kind(doc));
      }
      String path = join(relative, name);
      ObjectNode entry = ((ObjectNode) doc).deepCopy();
      if ("group".equals(entry.path("node_type").asText())) {
        entry.putNull(V3_FIELD); // the root's document holds the whole hierarchy
        entries.put(path, entry);
        collectV3(store, root, path, entries);
      } else {
        entries.put(path, entry);
      }
    }
  }

  private static void collectV2(Store store, String root, String relative, ObjectNode metadata) {
    String group = join(root, relative);
    String prefix = group.isEmpty() ? "" : group + "/";
    putV2(store, prefix + ".zgroup", join(relative, ".zgroup"), metadata);
    putV2(store, prefix + ".zattrs", join(relative, ".zattrs"), metadata);
    for (String child : store.listDir(prefix).prefixes()) {
      String path = join(relative, child.substring(prefix.length(), child.length() - 1));
      if (putV2(store, child + ".zarray", join(path, ".zarray"), metadata)) {
        putV2(store, child + ".zattrs", join(path, ".zattrs"), metadata);
      } else if (store.exists(child + ".zgroup")) {
        collectV2(store, root, path, metadata);
      }
    }
  }

  private static boolean putV2(Store store, String key, String relative, ObjectNode metadata) {
    Optional<ByteBuffer> bytes = readDocument(store, key);
    bytes.ifPresent(b -> metadata.set(relative, Json.parse(b, key + " in " + store.describe())));
    return bytes.isPresent();
  }

  /**
   * Removes the consolidated metadata of every group strictly above {@code path} ({@code .zmetadata},
   * and {@code consolidated_metadata} from a {@code zarr.json}), which a write at {@code path} makes
   * stale: a reader must never be shown an old picture of what was just written. Run
   * {@link #consolidate} again afterwards to have it back.
   */
  public static void dropAbove(WritableStore store, String path) {
    if (path.isEmpty()) {
      return;
    }
    List<String> above = new ArrayList<>();
    above.add("");
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      above.add(path.substring(0, slash));
    }
    for (String group : above) {
      String v2 = join(group, ZMETADATA);
      if (store.exists(v2)) {
        store.delete(v2);
      }
      String v3 = join(group, "zarr.json");
      Optional<ByteBuffer> bytes = readDocument(store, v3);
      if (bytes.isEmpty()) {
        continue;
      }
      JsonNode doc;
      try {
        doc = Json.parse(bytes.get(), v3 + " in " + store.describe());
      } catch (MetadataException e) {
        continue; // not ours to judge here: opening it says what is wrong
      }
      if (doc instanceof ObjectNode o && o.has(V3_FIELD) && !o.get(V3_FIELD).isNull()) {
        o.remove(V3_FIELD);
        store.set(v3, ByteBuffer.wrap(Json.pretty(o)));
      }
    }
  }
}
