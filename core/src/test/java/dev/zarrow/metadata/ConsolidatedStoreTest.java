package dev.zarrow.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.MetadataException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import dev.zarrow.store.Stores;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Nginx;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.RecordingStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Consolidated metadata: zarr-python 2's {@code .zmetadata} and zarr-python 3's inline
 * {@code consolidated_metadata} open a hierarchy and list it with the one read of the document (counted
 * by {@link RecordingStore}, on a store that cannot list); {@code consolidate} writes each form; bad
 * documents are {@link MetadataException}s naming the key; zarrow's writes drop what they make stale.
 */
@ExtendWith(AllocatorExtension.class)
class ConsolidatedStoreTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final List<String> V2_NAMES = List.of(".zarray", ".zgroup", ".zattrs");

  @TempDir Path dir;

  /** A store without listing, as HTTP is (only the consolidated document can list it), over a recording store. */
  private record Unlisted(RecordingStore recorded) implements Store {
    static Unlisted over(Store store) {
      return new Unlisted(new RecordingStore(store));
    }

    List<RecordingStore.Request> requests() {
      return recorded.requests();
    }

    @Override
    public java.util.Optional<ByteBuffer> get(String key) {
      return recorded.get(key);
    }

    @Override
    public java.util.Optional<ByteBuffer> get(String key, ByteRange range) {
      return recorded.get(key, range);
    }

    @Override
    public java.util.Optional<Long> size(String key) {
      return recorded.size(key);
    }

    @Override
    public java.util.Optional<dev.zarrow.store.ByteSource> source(String key) {
      return recorded.source(key);
    }

    @Override
    public java.util.Optional<dev.zarrow.store.ByteSource> source(String key, ByteRange first) {
      return recorded.source(key, first);
    }

    @Override
    public boolean exists(String key) {
      return recorded.exists(key);
    }

    @Override
    public boolean canList() {
      return false;
    }

    @Override
    public List<String> list(String prefix) {
      throw new AssertionError("listed " + prefix);
    }

    @Override
    public Listing listDir(String prefix) {
      throw new AssertionError("listed " + prefix);
    }

    @Override
    public String describe() {
      return "unlisted " + recorded.describe();
    }
  }

  /** Every v2 metadata key under {@code root}, relative, with its document. */
  private static Map<String, JsonNode> v2Keys(Path root) throws Exception {
    Map<String, JsonNode> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> V2_NAMES.contains(p.getFileName().toString())).toList()) {
        out.put(root.relativize(f).toString().replace('\\', '/'), Json.parse(Files.readAllBytes(f), f.toString()));
      }
    }
    return out;
  }

  private static JsonNode json(Store store, String key) {
    return Json.parse(store.get(key).orElseThrow(() -> new AssertionError("no " + key)), key);
  }

  @Test
  void zarrPython2HierarchyIsReadAndListedWithOneMetadataRead() throws Exception {
    PythonPeer.assumeAvailable();
    Path root = dir.resolve("v2.zarr");
    PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "write", root.toString());
    try (FileSystemStore files = FileSystemStore.open(root)) {
      Unlisted recorded = Unlisted.over(files);
      Store view = ConsolidatedStore.over(recorded, "");
      ConsolidatedStore consolidated = assertInstanceOf(ConsolidatedStore.class, view);
      assertEquals(2, consolidated.metadata().format());
      // zarr.json first (absent: not v3; a size look-up here, one request over HTTP), then .zmetadata: the only reads.
      assertEquals(List.of(".zmetadata"), recorded.requests().stream().map(RecordingStore.Request::key).toList());
      assertEquals(2, recorded.recorded().sizes());
      recorded.recorded().reset();

      Map<String, JsonNode> keys = v2Keys(root);
      assertEquals(9, keys.size(), keys.toString());
      for (Map.Entry<String, JsonNode> e : keys.entrySet()) {
        assertTrue(view.exists(e.getKey()), e.getKey());
        assertEquals(e.getValue(), json(view, e.getKey()), e.getKey());
        assertEquals(e.getValue(), Json.parse(view.source(e.getKey(), ByteRange.of(0, 1 << 20)).orElseThrow().readAll(), e.getKey()));
      }
      assertFalse(view.exists("g/temps/zarr.json"));
      assertFalse(view.exists("zarr.json"));
      assertFalse(view.exists("flat/.zattrs"));
      assertEquals(new Store.Listing(List.of(".zattrs", ".zgroup"), List.of("flat/", "g/")), view.listDir(""));
      assertEquals(new Store.Listing(List.of("g/.zattrs", "g/.zgroup"), List.of("g/h/", "g/temps/")), view.listDir("g/"));
      assertEquals(new Store.Listing(List.of("g/h/.zgroup"), List.of("g/h/deep/")), view.listDir("g/h"));
      assertEquals(0, recorded.recorded().gets(), recorded.requests().toString());
      assertEquals(0, recorded.recorded().sizes());

      // Chunks come from the store.
      assertEquals(ByteBuffer.wrap(Files.readAllBytes(root.resolve("g/temps/0.1"))), view.get("g/temps/0.1").orElseThrow());
      assertEquals(List.of("g/temps/0.1"), recorded.requests().stream().map(RecordingStore.Request::key).toList());
    }
  }

  @Test
  void zarrPython2HierarchyOpensWholeThroughTheViewWithOneMetadataRead(BufferAllocator allocator) throws Exception {
    PythonPeer.assumeAvailable();
    Path root = dir.resolve("v2.zarr");
    PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "write", root.toString());
    try (FileSystemStore files = FileSystemStore.open(root)) {
      Unlisted recorded = Unlisted.over(files);
      ZarrGroup group = Zarr.openGroup(ConsolidatedStore.over(recorded, ""), "");
      Map<String, ZarrNode> nodes = walk(group);
      assertEquals(List.of("flat", "g", "g/h", "g/h/deep", "g/temps"), new ArrayList<>(nodes.keySet()));
      assertEquals(List.of(".zmetadata"), recorded.requests().stream().map(RecordingStore.Request::key).toList());
      assertEquals(2, recorded.recorded().sizes()); // zarr.json (absent) and .zmetadata: no other metadata key
      assertEquals("consolidated", group.attributes().path("title").asText());
      assertEquals("group", nodes.get("g").attributes().path("kind").asText());
      ZarrArray temps = (ZarrArray) nodes.get("g/temps");
      assertEquals("K", temps.attributes().path("units").asText());
      assertEquals(FixedType.INT32, temps.dataType());
      recorded.recorded().reset();
      try (NdVector values = temps.read(allocator)) {
        IntVector v = (IntVector) values.vector();
        for (int i = 0; i < 24; i++) {
          assertEquals(i, v.get(i));
        }
      }
      assertTrue(recorded.requests().stream().allMatch(r -> r.key().matches("g/temps/[01]\\.[01]")), recorded.requests().toString());
    }
  }

  @Test
  void zarrPython2HierarchyOverHttpIsListedWithTwoRequests() throws Exception {
    PythonPeer.assumeAvailable();
    Path www = dir.resolve("www");
    PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "write", www.resolve("v2.zarr").toString());
    try (Nginx nginx = Nginx.serve(www, Files.createDirectories(dir.resolve("nginx")));
        Store http = Stores.open(nginx.url() + "v2.zarr")) {
      nginx.requests();
      ConsolidatedStore view = ConsolidatedStore.open(http, "").orElseThrow();
      assertFalse(view.canList());
      assertEquals(List.of("g/h/", "g/temps/"), view.listDir("g/").prefixes());
      assertEquals(Map.of("units", "K"), Json.mapper().convertValue(json(view, "g/temps/.zattrs"), Map.class));
      assertEquals(v2Keys(www.resolve("v2.zarr")).keySet().stream().filter(view::exists).count(), 9);
      List<Nginx.Request> requests = nginx.requests();
      assertEquals(List.of("/v2.zarr/zarr.json 404", "/v2.zarr/.zmetadata 206"),
          requests.stream().map(r -> r.path() + " " + r.status()).toList(), requests.toString());
    }
  }

  @Test
  void consolidateWritesZmetadataThatZarrPython2ReadsAndThatMatchesItsOwn() throws Exception {
    PythonPeer.assumeAvailable();
    Path theirs = dir.resolve("theirs.zarr");
    Path ours = dir.resolve("ours.zarr");
    PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "write", theirs.toString());
    PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "write-plain", ours.toString());
    assertFalse(Files.exists(ours.resolve(".zmetadata")));
    try (FileSystemStore store = FileSystemStore.open(ours)) {
      ConsolidatedMetadata written = ConsolidatedMetadata.consolidate(store, "");
      assertEquals(2, written.format());
      assertEquals(".zmetadata", written.key());
    }
    JsonNode mine = Json.parse(Files.readAllBytes(ours.resolve(".zmetadata")), "ours");
    JsonNode reference = Json.parse(Files.readAllBytes(theirs.resolve(".zmetadata")), "theirs");
    assertEquals(reference, mine);
    JsonNode read = PythonPeer.run(TIMEOUT, "zarr2_consolidated.py", "read", ours.toString());
    assertEquals("consolidated", read.path("root").path("title").asText());
    assertEquals(List.of("flat", "g", "g/h", "g/h/deep", "g/temps"), fieldNames(read.path("nodes")));
    assertEquals("K", read.path("nodes").path("g/temps").path("attrs").path("units").asText());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out.stream().sorted().toList();
  }

  /** A v3 hierarchy of zarrow's: {@code a} (int32, written), group {@code g} with {@code g/b} and group {@code g/h}. */
  private static void writeHierarchy(WritableStore store, BufferAllocator allocator) {
    writeHierarchy(store, "", allocator);
  }

  private static void writeHierarchy(WritableStore store, String top, BufferAllocator allocator) {
    String t = top.isEmpty() ? "" : top + "/";
    ObjectNode attrs = JsonNodeFactory.instance.objectNode().put("title", "v3");
    Zarr.createGroup(store, top).withAttributes(attrs);
    ZarrArray a = Zarr.createArray(store, t + "a", ArraySpec.of(FixedType.INT32, 6).chunks(4));
    try (IntVector v = new IntVector("a", allocator)) {
      v.allocateNew(6);
      for (int i = 0; i < 6; i++) {
        v.set(i, i * 10);
      }
      v.setValueCount(6);
      a.write(new long[] {0}, new NdVector(v, new long[] {6}));
    }
    Zarr.createGroup(store, t + "g").withAttributes(JsonNodeFactory.instance.objectNode().put("kind", "group"));
    Zarr.createArray(store, t + "g/b", ArraySpec.of(FixedType.FLOAT64, 2, 3).chunks(1, 3));
    Zarr.createGroup(store, t + "g/h");
  }

  /** Every node below {@code group}, by path, opened through {@code group}'s store. */
  private static Map<String, ZarrNode> walk(ZarrGroup group) {
    Map<String, ZarrNode> out = new TreeMap<>();
    for (ZarrNode child : group.children().nodes().values()) {
      out.put(child.path(), child);
      if (child instanceof ZarrGroup g) {
        out.putAll(walk(g));
      }
    }
    return out;
  }

  @Test
  void v3ConsolidatedByZarrowOpensAndListsWithOneRead(BufferAllocator allocator) {
    MemoryStore memory = new MemoryStore();
    writeHierarchy(memory, allocator);
    Map<String, ZarrNode> plain = walk(Zarr.openGroup(memory, ""));
    ConsolidatedMetadata written = ConsolidatedMetadata.consolidate(memory, "");
    assertEquals(3, written.format());
    JsonNode doc = json(memory, "zarr.json");
    assertEquals("inline", doc.path("consolidated_metadata").path("kind").asText());
    assertFalse(doc.path("consolidated_metadata").path("must_understand").asBoolean(true));
    assertEquals(List.of("a", "g", "g/b", "g/h"), fieldNames(doc.path("consolidated_metadata").path("metadata")));
    // zarr-python 3's order: by depth, then by name.
    List<String> order = new ArrayList<>();
    doc.path("consolidated_metadata").path("metadata").fieldNames().forEachRemaining(order::add);
    assertEquals(List.of("a", "g", "g/b", "g/h"), order);

    Unlisted recorded = Unlisted.over(memory);
    Store view = ConsolidatedStore.over(recorded, "");
    ZarrGroup root = Zarr.openGroup(view, "");
    Map<String, ZarrNode> consolidated = walk(root);
    // The read of the root's zarr.json (its size, then its bytes: one request over HTTP) and nothing else.
    assertEquals(List.of("zarr.json"), recorded.requests().stream().map(RecordingStore.Request::key).toList());
    assertEquals(1, recorded.recorded().sizes());
    assertEquals("v3", root.attributes().path("title").asText());
    assertEquals(plain.keySet(), consolidated.keySet());
    for (String path : plain.keySet()) {
      ZarrNode p = plain.get(path);
      ZarrNode c = consolidated.get(path);
      assertEquals(p.getClass(), c.getClass(), path);
      assertEquals(p.attributes(), c.attributes(), path);
      if (p instanceof ZarrArray pa) {
        assertEquals(pa.metadata().toJson(), ((ZarrArray) c).metadata().toJson(), path);
      }
    }
    // Data reads only chunks.
    recorded.recorded().reset();
    try (NdVector values = ((ZarrArray) consolidated.get("a")).read(allocator)) {
      assertEquals(50, ((IntVector) values.vector()).get(5));
    }
    assertTrue(recorded.requests().stream().allMatch(r -> r.key().startsWith("a/c/")), recorded.requests().toString());
  }

  /** zarr-python 3's exact form (3.1: flat paths by depth, groups with their own empty or null field). */
  private static final String ZARR_PYTHON_3 = """
      {
        "attributes": {"made_by": "zarr-python 3"},
        "zarr_format": 3,
        "consolidated_metadata": {
          "kind": "inline",
          "must_understand": false,
          "metadata": {
            "a": {
              "shape": [2, 2], "data_type": "float64",
              "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 2]}},
              "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
              "fill_value": 0.0,
              "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                         {"name": "zstd", "configuration": {"level": 0, "checksum": false}}],
              "attributes": {"units": "m"}, "dimension_names": null, "zarr_format": 3,
              "node_type": "array", "storage_transformers": []
            },
            "child": {
              "attributes": {"kind": "child"}, "zarr_format": 3,
              "consolidated_metadata": {"kind": "inline", "must_understand": false, "metadata": {}},
              "node_type": "group"
            },
            "child/grandchild": {
              "attributes": {"kind": "grandchild"}, "zarr_format": 3,
              "consolidated_metadata": null, "node_type": "group"
            }
          }
        },
        "node_type": "group"
      }
      """;

  @Test
  void zarrPython3FormOpensWithNoOtherMetadataInTheStore() {
    MemoryStore memory = new MemoryStore();
    memory.set("zarr.json", ByteBuffer.wrap(ZARR_PYTHON_3.getBytes(StandardCharsets.UTF_8)));
    Unlisted recorded = Unlisted.over(memory);
    Store view = ConsolidatedStore.over(recorded, "");
    ZarrGroup root = Zarr.openGroup(view, "");
    assertEquals("zarr-python 3", root.attributes().path("made_by").asText());
    assertEquals(List.of("a", "child"), root.childNames());
    ZarrArray a = root.array("a");
    assertEquals(FixedType.FLOAT64, a.dataType());
    assertEquals("m", a.attributes().path("units").asText());
    ZarrGroup child = root.group("child");
    assertEquals(List.of("grandchild"), child.childNames());
    assertEquals("grandchild", child.group("grandchild").attributes().path("kind").asText());
    assertEquals(1, recorded.recorded().gets());
    // Nothing else is in the store: without the view there is only the root.
    assertEquals(List.of(), Zarr.openGroup(memory, "").childNames());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      .zmetadata not JSON            | .zmetadata | {"metadata":                                                            | .zmetadata
      unknown version                | .zmetadata | {"metadata": {}, "zarr_consolidated_format": 2}                          | /zarr_consolidated_format
      no metadata                    | .zmetadata | {"zarr_consolidated_format": 1}                                          | /metadata is missing
      a chunk key                    | .zmetadata | {"metadata": {"a/0.0": {}}, "zarr_consolidated_format": 1}               | /metadata/a/0.0: not a .zgroup
      a zarr.json key                | .zmetadata | {"metadata": {"a/zarr.json": {}}, "zarr_consolidated_format": 1}         | /metadata/a/zarr.json
      a document not an object       | .zmetadata | {"metadata": {"a/.zarray": 5}, "zarr_consolidated_format": 1}            | /metadata/a/.zarray is number 5
      array and group                | .zmetadata | {"metadata": {"a/.zarray": {}, "a/.zgroup": {}}, "zarr_consolidated_format": 1} | has both a .zarray and a .zgroup
      a node inside an array         | .zmetadata | {"metadata": {"a/.zarray": {}, "a/b/.zgroup": {}}, "zarr_consolidated_format": 1} | node 'a/b' lies inside the array 'a'
      a path that climbs             | .zmetadata | {"metadata": {"../x/.zgroup": {}}, "zarr_consolidated_format": 1}        | /metadata/../x/.zgroup
      attributes of no node          | .zmetadata | {"metadata": {"x/.zattrs": {}}, "zarr_consolidated_format": 1}           | /metadata/x/.zattrs belongs to no .zarray or .zgroup
      v3 not an object               | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": 5}      | /consolidated_metadata is number 5
      v3 other kind                  | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "external", "metadata": {}}} | /consolidated_metadata/kind
      v3 metadata a list             | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "inline", "metadata": []}} | /consolidated_metadata/metadata is array
      v3 entry of v2                 | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "inline", "metadata": {"a": {"zarr_format": 2}}}} | /consolidated_metadata/metadata/a: zarr_format is 2
      v3 entry of no node type       | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "inline", "metadata": {"a": {"zarr_format": 3, "node_type": "table"}}}} | /consolidated_metadata/metadata/a: node_type
      v3 empty segment               | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "inline", "metadata": {"a//b": {"zarr_format": 3, "node_type": "group"}}}} | /consolidated_metadata/metadata/a//b
      v3 node inside an array        | zarr.json  | {"zarr_format": 3, "node_type": "group", "consolidated_metadata": {"kind": "inline", "metadata": {"a": {"zarr_format": 3, "node_type": "array"}, "a/b": {"zarr_format": 3, "node_type": "group"}}}} | node 'a/b' lies inside the array 'a'
      """)
  void badDocumentsAreMetadataExceptionsNamingTheKey(String name, String key, String document, String expected) {
    MemoryStore memory = new MemoryStore();
    memory.set(key, ByteBuffer.wrap(document.getBytes(StandardCharsets.UTF_8)));
    MetadataException e = assertThrows(MetadataException.class, () -> ConsolidatedStore.open(memory, ""));
    assertTrue(e.getMessage().startsWith(key + " in "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void aBadNodeDocumentInsideIsNamedWhenTheNodeIsOpened() {
    MemoryStore memory = new MemoryStore();
    memory.set("zarr.json", ByteBuffer.wrap(("{\"zarr_format\": 3, \"node_type\": \"group\", \"consolidated_metadata\": {\"kind\": \"inline\","
        + " \"must_understand\": false, \"metadata\": {\"a\": {\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": \"wide\"}}}}")
        .getBytes(StandardCharsets.UTF_8)));
    Store view = ConsolidatedStore.over(memory, "");
    MetadataException e = assertThrows(MetadataException.class, () -> Zarr.open(view, "a"));
    assertTrue(e.getMessage().contains("a/zarr.json"), e.getMessage());
    assertTrue(e.getMessage().contains("consolidated metadata in zarr.json"), e.getMessage());
  }

  @Test
  void unconsolidatedStoresAreThemselves() {
    MemoryStore memory = new MemoryStore();
    assertSame(memory, ConsolidatedStore.over(memory, ""));
    Zarr.createGroup(memory, "g");
    assertSame(memory, ConsolidatedStore.over(memory, "g"));
  }

  @Test
  void aConsolidatedSubgroupIsFoundByItsPath(BufferAllocator allocator) {
    MemoryStore memory = new MemoryStore();
    writeHierarchy(memory, "top", allocator);
    ConsolidatedMetadata.consolidate(memory, "top");
    ConsolidatedStore view = assertInstanceOf(ConsolidatedStore.class, ConsolidatedStore.over(memory, "top"));
    assertEquals("top", view.metadata().root());
    assertEquals(List.of("top/a", "top/g", "top/g/b", "top/g/h"), new ArrayList<>(walk(Zarr.openGroup(view, "top")).keySet()));
    assertTrue(view.metadata().covers("top/g/zarr.json"));
    assertFalse(view.metadata().covers("zarr.json"));
  }

  @Test
  void zarrowWritesDropTheConsolidatedMetadataTheyMakeStale(BufferAllocator allocator) {
    MemoryStore memory = new MemoryStore();
    writeHierarchy(memory, allocator);
    ConsolidatedMetadata.consolidate(memory, "");
    Zarr.createArray(memory, "g/h/new", ArraySpec.of(FixedType.INT8, 3));
    assertTrue(json(memory, "zarr.json").path("consolidated_metadata").isMissingNode());
    assertSame(memory, ConsolidatedStore.over(memory, ""));
    assertTrue(walk(Zarr.openGroup(memory, "")).containsKey("g/h/new"));

    // Attributes, resizes and new groups too.
    ConsolidatedMetadata.consolidate(memory, "");
    Zarr.openArray(memory, "a").withAttributes(JsonNodeFactory.instance.objectNode().put("x", 1));
    assertSame(memory, ConsolidatedStore.over(memory, ""));
    ConsolidatedMetadata.consolidate(memory, "");
    Zarr.openArray(memory, "a").resize(8);
    assertSame(memory, ConsolidatedStore.over(memory, ""));
    ConsolidatedMetadata.consolidate(memory, "");
    Zarr.createGroup(memory, "g/other");
    assertSame(memory, ConsolidatedStore.over(memory, ""));
    // The root's own attributes do not change what its consolidated metadata says of the nodes below.
    ConsolidatedMetadata.consolidate(memory, "");
    Zarr.openGroup(memory, "").withAttributes(JsonNodeFactory.instance.objectNode());
    assertInstanceOf(ConsolidatedStore.class, ConsolidatedStore.over(memory, ""));

    // A v2 .zmetadata goes as well.
    memory.set(".zmetadata", ByteBuffer.wrap("{\"metadata\": {}, \"zarr_consolidated_format\": 1}".getBytes(StandardCharsets.UTF_8)));
    Zarr.createArray(memory, "g/later", ArraySpec.of(FixedType.INT8, 3));
    assertFalse(memory.exists(".zmetadata"));
  }

  @Test
  void theViewIsReadOnly() {
    MemoryStore memory = new MemoryStore();
    Zarr.createGroup(memory, "");
    ConsolidatedMetadata.consolidate(memory, "");
    Store view = ConsolidatedStore.over(memory, "");
    assertFalse(view instanceof WritableStore);
    assertThrows(IllegalStateException.class, () -> Zarr.openGroup(view, "").createGroup("x"));
  }
}
