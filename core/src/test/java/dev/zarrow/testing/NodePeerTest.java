package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Self-test of the node peers: the scripts run, their JSON is sane, and what they write is what they
 * say, checked independently here (a small reference decoder over the JDK's CRC32C and GZIP and
 * zstd-jni for the Zarr fixture; Arrow Java for the IPC stream).
 */
class NodePeerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static Path fixtureDir;
  private static JsonNode manifest;

  /** The zarrita fixture, written once for the class. */
  private static synchronized JsonNode manifest() throws IOException {
    if (manifest == null) {
      fixtureDir = Files.createTempDirectory("zarrita-fixture-");
      manifest = NodePeer.zarritaWrite(fixtureDir.resolve("store"));
    }
    return manifest;
  }

  private static Path store() {
    return fixtureDir.resolve("store");
  }

  @AfterAll
  static void deleteFixture() throws IOException {
    if (fixtureDir != null) {
      try (Stream<Path> paths = Files.walk(fixtureDir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  // ------------------------------------------------------------------------ skip or fail

  @Test
  void unavailablePeersFailOnCiAndSkipLoudlyElsewhere() {
    Optional<String> missing = Optional.of("`node` is not on PATH");
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);
    AssertionFailedError onCi = assertThrows(
        AssertionFailedError.class, () -> NodePeer.assumeAvailable(missing, Map.of("CI", "true"), err));
    assertTrue(onCi.getMessage().contains("`node` is not on PATH"), onCi.getMessage());
    TestAbortedException local =
        assertThrows(TestAbortedException.class, () -> NodePeer.assumeAvailable(missing, Map.of(), err));
    assertTrue(onCi.getMessage().contains("apt-get install nodejs npm"), onCi.getMessage());
    String skipped = "SKIPPED test with a real node is unavailable: `node` is not on PATH; install it with `apt-get install"
        + " nodejs npm; the first run installs the pinned npm packages`";
    assertEquals(skipped, local.getMessage());
    assertEquals(skipped + System.lineSeparator(), said.toString(StandardCharsets.UTF_8));
    assertThrows(TestAbortedException.class, () -> NodePeer.assumeAvailable(missing, Map.of("CI", "false"), err));
    NodePeer.assumeAvailable(Optional.empty(), Map.of("CI", "true"), err); // available: nothing happens
  }

  @Test
  void packagesArePinnedExactlyAndLocked() throws IOException {
    Path dir = NodePeer.nodeDir();
    JsonNode lock = JSON.readTree(dir.resolve("package-lock.json").toFile());
    for (String pkg : List.of("zarrita", "@zarrita/storage", "apache-arrow")) {
      String pinned = NodePeer.pinnedVersion(pkg);
      assertTrue(pinned.matches("\\d+\\.\\d+\\.\\d+"), pkg + " must be pinned exactly, not " + pinned);
      assertEquals(pinned, lock.path("packages").path("node_modules/" + pkg).path("version").asText(), pkg);
    }
  }

  // ------------------------------------------------------------------------ zarrita

  @Test
  void zarritaWriteManifestMatchesTheStore() throws IOException {
    NodePeer.assumeAvailable();
    JsonNode m = manifest();
    assertEquals(NodePeer.pinnedVersion("zarrita"), m.path("writer").path("zarrita").asText());

    for (JsonNode g : m.path("groups")) {
      JsonNode meta = zarrJson(g.path("path").asText());
      assertEquals("group", meta.path("node_type").asText(), g.toString());
      assertEquals(3, meta.path("zarr_format").asInt());
      assertTrue(PeerValues.same(g.path("attributes"), meta.path("attributes")), g.path("path").asText());
    }
    assertTrue(m.path("arrays").size() > 40, "arrays: " + m.path("arrays").size());
    for (JsonNode a : m.path("arrays")) {
      String path = a.path("path").asText();
      JsonNode meta = zarrJson(path);
      assertEquals("array", meta.path("node_type").asText(), path);
      assertEquals(a.path("shape"), meta.path("shape"), path);
      assertEquals(a.path("data_type"), meta.path("data_type"), path);
      assertTrue(PeerValues.same(a.path("fill_value"), meta.path("fill_value")), path + " fill_value");
      assertEquals(product(ints(a.path("shape"))), a.path("values").size(), path);
      Set<String> stored = new HashSet<>();
      a.path("stored_chunks").forEach(k -> stored.add(k.asText()));
      for (String key : stored) {
        assertTrue(Files.isRegularFile(arrayDir(path).resolve(key)), path + "/" + key);
      }
      for (JsonNode k : a.path("missing_chunks")) {
        assertFalse(stored.contains(k.asText()), path + " " + k);
        assertFalse(Files.exists(arrayDir(path).resolve(k.asText())), path + "/" + k.asText());
      }
      String writer = a.path("writer").asText();
      assertTrue(writer.equals("zarrita") || writer.equals("zarrita+hand"), path + " writer " + writer);
      assertEquals(writer.equals("zarrita"), a.path("hand_encoded").isEmpty(), path + " hand_encoded");
      if (writer.equals("zarrita")) {
        assertEquals("ok", a.path("zarrita_read").asText(), path);
      }
    }
  }

  @Test
  void manifestCoversTheFormats() throws IOException {
    NodePeer.assumeAvailable();
    Set<String> dtypes = new HashSet<>();
    Set<String> codecs = new HashSet<>();
    Set<Integer> ranks = new HashSet<>();
    Set<String> endians = new HashSet<>();
    boolean nanFill = false;
    boolean missingChunks = false;
    for (JsonNode a : manifest().path("arrays")) {
      dtypes.add(a.path("data_type").asText());
      a.path("codecs").forEach(c -> codecs.add(c.asText()));
      a.path("inner_codecs").forEach(c -> codecs.add(c.asText()));
      ranks.add(a.path("shape").size());
      nanFill |= a.path("fill_value").asText().equals("NaN");
      missingChunks |= a.path("missing_chunks").size() > 0;
      collectEndians(zarrJson(a.path("path").asText()).path("codecs"), endians);
    }
    assertTrue(dtypes.containsAll(List.of("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "float32", "float64", "string")), dtypes.toString());
    assertTrue(codecs.containsAll(List.of("bytes", "transpose", "zstd", "gzip", "crc32c", "vlen-utf8",
        "sharding_indexed")), codecs.toString());
    assertEquals(Set.of(0, 1, 2, 3), ranks);
    assertEquals(Set.of("little", "big"), endians);
    assertTrue(nanFill && missingChunks);
  }

  /** Every array of the fixture decoded here, independently of zarrita and zarrow, equals the manifest. */
  @Test
  void referenceDecoderAgreesWithManifest() throws IOException {
    NodePeer.assumeAvailable();
    for (JsonNode a : manifest().path("arrays")) {
      String path = a.path("path").asText();
      JsonNode decoded = ReferenceDecoder.readArray(arrayDir(path), zarrJson(path), a.path("fill_value"));
      PeerValues.assertSameValues(a.path("values"), decoded, path);
    }
  }

  @Test
  void zarritaReadsTheFixture() throws IOException {
    NodePeer.assumeAvailable();
    List<String> readable = new ArrayList<>();
    for (JsonNode a : manifest().path("arrays")) {
      if (a.path("zarrita_read").asText().equals("ok")) {
        readable.add(a.path("path").asText());
      }
    }
    JsonNode read = NodePeer.zarritaRead(store(), readable.toArray(String[]::new));
    for (JsonNode a : manifest().path("arrays")) {
      String path = a.path("path").asText();
      if (!readable.contains(path)) {
        continue;
      }
      JsonNode got = read.path(path);
      assertEquals(a.path("shape"), got.path("shape"), path);
      assertEquals(a.path("data_type"), got.path("data_type"), path);
      PeerValues.assertSameValues(a.path("values"), got.path("values"), path);
    }
  }

  @Test
  void zarritaReadFailsLoudlyOrKeepsGoing() throws IOException {
    NodePeer.assumeAvailable();
    manifest();
    NodePeer.PeerException e =
        assertThrows(NodePeer.PeerException.class, () -> NodePeer.zarritaRead(store(), "no/such/array"));
    assertTrue(e.getMessage().contains("no/such/array"), e.getMessage());
    JsonNode kept = NodePeer.zarritaReadKeepGoing(store(), "no/such/array", "shapes/d1");
    assertTrue(kept.path("no/such/array").has("error"), kept.toString());
    assertEquals(10, kept.path("shapes/d1").path("values").size());
  }

  // ------------------------------------------------------------------------ apache-arrow

  @Test
  void arrowWriteThenArrowReadAgree(@TempDir Path tmp) {
    NodePeer.assumeAvailable();
    Path stream = tmp.resolve("peer.arrows");
    JsonNode written = NodePeer.arrowWrite(stream);
    JsonNode read = NodePeer.arrowRead(stream);
    assertEquals("stream", written.path("format").asText());
    assertEquals("stream", read.path("format").asText());
    assertEquals(written, read);
    assertEquals(12, written.path("num_rows").asInt());
    assertEquals(List.of(7, 5), List.of(written.path("batches").get(0).asInt(), written.path("batches").get(1).asInt()));
    assertTrue(written.path("schema").path("fields").size() >= 30);
  }

  /** Arrow Java reads the stream apache-arrow wrote: same schema, rows and scalar values. */
  @Test
  void arrowJavaReadsThePeerStream(@TempDir Path tmp) throws IOException {
    NodePeer.assumeAvailable();
    Path stream = tmp.resolve("peer.arrows");
    JsonNode written = NodePeer.arrowWrite(stream);
    JsonNode fields = written.path("schema").path("fields");
    try (BufferAllocator allocator = new RootAllocator();
        InputStream in = Files.newInputStream(stream);
        ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<Field> javaFields = root.getSchema().getFields();
      assertEquals(fields.size(), javaFields.size());
      for (int k = 0; k < javaFields.size(); k++) {
        JsonNode expected = withoutTypeStrings(fields.get(k));
        JsonNode actual = integrationJson(javaFields.get(k), reader);
        assertTrue(PeerValues.same(expected, actual), "field " + k + ": " + expected + " vs " + actual);
      }
      assertEquals(
          written.path("schema").path("metadata").toString(),
          metadataJson(root.getSchema().getCustomMetadata()).toString());
      int row = 0;
      List<Integer> batches = new ArrayList<>();
      while (reader.loadNextBatch()) {
        batches.add(root.getRowCount());
        for (int k = 0; k < javaFields.size(); k++) {
          FieldVector v = root.getVector(k);
          JsonNode column = written.path("columns").get(k).path("values");
          for (int i = 0; i < root.getRowCount(); i++) {
            JsonNode expected = column.get(row + i);
            String where = javaFields.get(k).getName() + "[" + (row + i) + "]";
            assertEquals(expected.isNull(), v.isNull(i), where + " null");
            JsonNode actual = scalarValue(v, i);
            if (actual != null && !expected.isNull()) {
              assertTrue(PeerValues.same(expected, actual), where + ": " + expected + " vs " + actual);
            }
          }
        }
        row += root.getRowCount();
      }
      assertEquals(List.of(7, 5), batches);
    }
  }

  /** arrow-read accepts an IPC file (written here by Arrow Java from the peer's stream). */
  @Test
  void arrowReadAcceptsAnIpcFileFromArrowJava(@TempDir Path tmp) throws IOException {
    NodePeer.assumeAvailable();
    Path stream = tmp.resolve("peer.arrows");
    Path file = tmp.resolve("java.arrow");
    JsonNode written = NodePeer.arrowWrite(stream);
    try (BufferAllocator allocator = new RootAllocator();
        InputStream in = Files.newInputStream(stream);
        ArrowStreamReader reader = new ArrowStreamReader(in, allocator);
        FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      ArrowFileWriter writer = null;
      try {
        while (reader.loadNextBatch()) {
          if (writer == null) { // dictionaries are known once the first batch is read
            writer = new ArrowFileWriter(root, reader, out);
            writer.start();
          }
          writer.writeBatch();
        }
        assertNotNull(writer);
        writer.end();
      } finally {
        if (writer != null) {
          writer.close();
        }
      }
    }
    JsonNode read = NodePeer.arrowRead(file);
    assertEquals("file", read.path("format").asText());
    ObjectNode expected = written.deepCopy();
    expected.put("format", "file");
    assertEquals(expected.path("schema"), read.path("schema"));
    assertEquals(expected.path("batches"), read.path("batches"));
    JsonNode readColumns = read.path("columns");
    for (int k = 0; k < expected.path("columns").size(); k++) {
      JsonNode want = expected.path("columns").get(k);
      PeerValues.assertSameValues(want.path("values"), readColumns.get(k).path("values"), want.path("name").asText());
    }
  }

  // ------------------------------------------------------------------------ helpers

  private static JsonNode zarrJson(String nodePath) throws IOException {
    return JSON.readTree(arrayDir(nodePath).resolve("zarr.json").toFile());
  }

  private static Path arrayDir(String nodePath) {
    return nodePath.isEmpty() ? store() : store().resolve(nodePath);
  }

  private static void collectEndians(JsonNode codecs, Set<String> into) {
    for (JsonNode c : codecs) {
      if (c.path("name").asText().equals("bytes") && c.path("configuration").has("endian")) {
        into.add(c.path("configuration").path("endian").asText());
      }
      collectEndians(c.path("configuration").path("codecs"), into);
    }
  }

  static int[] ints(JsonNode array) {
    int[] out = new int[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asInt();
    }
    return out;
  }

  static int product(int[] shape) {
    int n = 1;
    for (int s : shape) {
      n *= s;
    }
    return n;
  }

  private static JsonNode withoutTypeStrings(JsonNode field) {
    ObjectNode f = field.deepCopy();
    f.remove("type_string");
    ArrayNodeEditor.forEach(f.path("children"), c -> ((ObjectNode) c).remove("type_string"));
    return f;
  }

  /** Arrow Java's field in the integration format (its Jackson form, metadata as [{key, value}]). */
  private static JsonNode integrationJson(Field field, DictionaryProvider dictionaries) {
    ObjectNode node = NODES.objectNode();
    node.put("name", field.getName());
    node.put("nullable", field.isNullable());
    // In memory Arrow Java types a dictionary-encoded field by its index; the message form by its values.
    Field typed = field.getDictionary() == null
        ? field
        : dictionaries.lookup(field.getDictionary().getId()).getVector().getField();
    node.set("type", withoutNulls(JSON.valueToTree(typed.getType())));
    var children = node.putArray("children");
    for (Field c : typed.getChildren()) {
      children.add(integrationJson(c, dictionaries));
    }
    if (field.getDictionary() != null) {
      ObjectNode d = node.putObject("dictionary");
      d.put("id", field.getDictionary().getId());
      d.set("indexType", withoutNulls(JSON.valueToTree(field.getDictionary().getIndexType())));
      d.put("isOrdered", field.getDictionary().isOrdered());
    }
    if (field.getMetadata() != null && !field.getMetadata().isEmpty()) {
      node.set("metadata", metadataJson(field.getMetadata()));
    }
    return node;
  }

  private static JsonNode withoutNulls(JsonNode node) {
    ObjectNode o = node.deepCopy();
    o.properties().removeIf(e -> e.getValue().isNull());
    return o;
  }

  private static JsonNode metadataJson(Map<String, String> metadata) {
    var list = NODES.arrayNode();
    metadata.forEach((k, v) -> list.addObject().put("key", k).put("value", v));
    return list;
  }

  /** Value i of a scalar vector in the peers' form; null for types this check leaves to others. */
  private static JsonNode scalarValue(FieldVector v, int i) {
    if (v.isNull(i) || v.getField().getDictionary() != null) {
      return null;
    }
    if (v instanceof UInt8Vector u) {
      return PeerValues.ofUint64(u.get(i));
    }
    if (v instanceof BigIntVector b) {
      return PeerValues.ofInt64(b.get(i));
    }
    if (v instanceof UInt1Vector u) {
      return PeerValues.ofInt(Byte.toUnsignedInt(u.get(i)));
    }
    if (v instanceof UInt2Vector u) {
      return PeerValues.ofInt(u.get(i));
    }
    if (v instanceof UInt4Vector u) {
      return PeerValues.ofInt(Integer.toUnsignedLong(u.get(i)));
    }
    if (v instanceof BaseIntVector b) {
      return PeerValues.ofInt(b.getValueAsLong(i));
    }
    if (v instanceof Float2Vector f) {
      return PeerValues.ofDouble(f.getValueAsDouble(i));
    }
    if (v instanceof Float4Vector f) {
      return PeerValues.ofDouble(f.get(i));
    }
    if (v instanceof Float8Vector f) {
      return PeerValues.ofDouble(f.get(i));
    }
    if (v instanceof BitVector b) {
      return BooleanNode.valueOf(b.get(i) != 0);
    }
    if (v instanceof VarCharVector s) {
      return NODES.textNode(new String(s.get(i), StandardCharsets.UTF_8));
    }
    if (v instanceof LargeVarCharVector s) {
      return NODES.textNode(new String(s.get(i), StandardCharsets.UTF_8));
    }
    if (v instanceof VarBinaryVector b) {
      return PeerValues.ofBytes(b.get(i));
    }
    if (v instanceof TimeStampVector t) {
      return PeerValues.ofInt64(t.get(i));
    }
    return null;
  }

  /** Tiny helper to edit array children in place. */
  private static final class ArrayNodeEditor {
    static void forEach(JsonNode array, java.util.function.Consumer<JsonNode> f) {
      for (JsonNode n : array) {
        f.accept(n);
        forEach(n.path("children"), f);
      }
    }
  }

  // ------------------------------------------------------------------------ reference decoder

  /**
   * A deliberately small Zarr v3 reader used only to check the fixture: regular grid, default chunk key
   * encoding, codecs transpose, bytes, vlen-utf8, zstd, gzip, crc32c (verified) and sharding_indexed
   * (index at start or end), the data types of the fixture. Returns the whole array as a C-order list of
   * values in the peers' form.
   */
  static final class ReferenceDecoder {
    static JsonNode readArray(Path dir, JsonNode meta, JsonNode fill) throws IOException {
      int[] shape = ints(meta.path("shape"));
      int[] chunks = ints(meta.path("chunk_grid").path("configuration").path("chunk_shape"));
      String dtype = meta.path("data_type").asText();
      String sep = meta.path("chunk_key_encoding").path("configuration").path("separator").asText("/");
      JsonNode[] out = new JsonNode[product(shape)];
      Arrays.fill(out, fill);
      JsonNode codecs = meta.path("codecs");
      boolean sharded = codecs.size() == 1 && codecs.get(0).path("name").asText().equals("sharding_indexed");
      int[] grid = new int[shape.length];
      for (int d = 0; d < shape.length; d++) {
        grid[d] = (shape[d] + chunks[d] - 1) / chunks[d];
      }
      for (int c = 0; c < product(grid); c++) {
        int[] coord = unflatten(c, grid);
        StringBuilder key = new StringBuilder("c");
        for (int x : coord) {
          key.append(sep).append(x);
        }
        Path file = dir.resolve(key.toString());
        if (!Files.isRegularFile(file)) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(file);
        int[] origin = new int[shape.length];
        for (int d = 0; d < shape.length; d++) {
          origin[d] = coord[d] * chunks[d];
        }
        if (sharded) {
          readShard(bytes, codecs.get(0).path("configuration"), dtype, chunks, origin, shape, out);
        } else {
          place(decodeChunk(bytes, codecs, dtype, chunks), chunks, origin, shape, out);
        }
      }
      return NODES.arrayNode().addAll(Arrays.asList(out));
    }

    private static void readShard(byte[] shard, JsonNode config, String dtype, int[] shardShape, int[] origin,
        int[] shape, JsonNode[] out) throws IOException {
      int[] inner = ints(config.path("chunk_shape"));
      int[] perShard = new int[inner.length];
      for (int d = 0; d < inner.length; d++) {
        perShard[d] = shardShape[d] / inner[d];
      }
      int n = product(perShard);
      JsonNode indexCodecs = config.path("index_codecs");
      assertEquals(List.of("bytes", "crc32c"), names(indexCodecs), "index_codecs of the fixture");
      int indexSize = 16 * n + 4;
      boolean atStart = config.path("index_location").asText("end").equals("start");
      int indexAt = atStart ? 0 : shard.length - indexSize;
      byte[] index = crc32cStrip(Arrays.copyOfRange(shard, indexAt, indexAt + indexSize));
      ByteBuffer ib = ByteBuffer.wrap(index).order(ByteOrder.LITTLE_ENDIAN);
      for (int k = 0; k < n; k++) {
        long offset = ib.getLong(16 * k);
        long nbytes = ib.getLong(16 * k + 8);
        if (offset == -1L && nbytes == -1L) {
          continue;
        }
        assertTrue(offset >= 0 && nbytes >= 0 && offset + nbytes <= shard.length, "inner chunk " + k + " in bounds");
        byte[] chunk = Arrays.copyOfRange(shard, (int) offset, (int) (offset + nbytes));
        int[] at = unflatten(k, perShard);
        int[] innerOrigin = new int[at.length];
        for (int d = 0; d < at.length; d++) {
          innerOrigin[d] = origin[d] + at[d] * inner[d];
        }
        place(decodeChunk(chunk, config.path("codecs"), dtype, inner), inner, innerOrigin, shape, out);
      }
    }

    private static List<String> names(JsonNode codecs) {
      List<String> names = new ArrayList<>();
      codecs.forEach(c -> names.add(c.path("name").asText()));
      return names;
    }

    static JsonNode[] decodeChunk(byte[] bytes, JsonNode codecs, String dtype, int[] chunk) throws IOException {
      List<JsonNode> list = new ArrayList<>();
      codecs.forEach(list::add);
      if (list.isEmpty()) { // zarrita writes "codecs": [] when given none, and reads it as bytes little
        list.add(JSON.readTree("{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}"));
      }
      int[] order = null;
      int i = 0;
      if (list.get(i).path("name").asText().equals("transpose")) {
        order = ints(list.get(i).path("configuration").path("order"));
        i++;
      }
      JsonNode a2b = list.get(i++);
      for (int k = list.size() - 1; k >= i; k--) {
        bytes = switch (list.get(k).path("name").asText()) {
          case "crc32c" -> crc32cStrip(bytes);
          case "zstd" -> readAll(new ZstdInputStream(new ByteArrayInputStream(bytes)));
          case "gzip" -> readAll(new GZIPInputStream(new ByteArrayInputStream(bytes)));
          default -> throw new AssertionError("reference decoder lacks " + list.get(k));
        };
      }
      int n = product(chunk);
      JsonNode[] stored = switch (a2b.path("name").asText()) {
        case "bytes" -> decodeBytes(bytes, dtype, n, a2b.path("configuration").path("endian").asText("little"));
        case "vlen-utf8" -> decodeVlenUtf8(bytes, n);
        default -> throw new AssertionError("reference decoder lacks " + a2b);
      };
      if (order == null) {
        return stored;
      }
      int[] storedShape = new int[chunk.length];
      for (int d = 0; d < chunk.length; d++) {
        storedShape[d] = chunk[order[d]];
      }
      JsonNode[] c = new JsonNode[n];
      for (int e = 0; e < n; e++) {
        int[] idx = unflatten(e, chunk);
        int s = 0;
        for (int d = 0; d < chunk.length; d++) {
          s = s * storedShape[d] + idx[order[d]];
        }
        c[e] = stored[s];
      }
      return c;
    }

    private static JsonNode[] decodeBytes(byte[] bytes, String dtype, int n, String endian) {
      ByteBuffer b = ByteBuffer.wrap(bytes).order(endian.equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      JsonNode[] out = new JsonNode[n];
      int width = switch (dtype) {
        case "bool", "int8", "uint8" -> 1;
        case "int16", "uint16" -> 2;
        case "int32", "uint32", "float32" -> 4;
        default -> 8;
      };
      assertEquals((long) n * width, bytes.length, "decoded chunk size for " + dtype);
      for (int i = 0; i < n; i++) {
        int at = i * width;
        out[i] = switch (dtype) {
          case "bool" -> BooleanNode.valueOf(b.get(at) != 0);
          case "int8" -> PeerValues.ofInt(b.get(at));
          case "uint8" -> PeerValues.ofInt(Byte.toUnsignedInt(b.get(at)));
          case "int16" -> PeerValues.ofInt(b.getShort(at));
          case "uint16" -> PeerValues.ofInt(Short.toUnsignedInt(b.getShort(at)));
          case "int32" -> PeerValues.ofInt(b.getInt(at));
          case "uint32" -> PeerValues.ofInt(Integer.toUnsignedLong(b.getInt(at)));
          case "int64" -> PeerValues.ofInt64(b.getLong(at));
          case "uint64" -> PeerValues.ofUint64(b.getLong(at));
          case "float32" -> PeerValues.ofDouble(b.getFloat(at));
          case "float64" -> PeerValues.ofDouble(b.getDouble(at));
          default -> throw new AssertionError("reference decoder lacks data type " + dtype);
        };
      }
      return out;
    }

    private static JsonNode[] decodeVlenUtf8(byte[] bytes, int n) {
      ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(n, b.getInt(0), "vlen-utf8 item count");
      JsonNode[] out = new JsonNode[n];
      int pos = 4;
      for (int i = 0; i < n; i++) {
        int len = b.getInt(pos);
        out[i] = NODES.textNode(new String(bytes, pos + 4, len, StandardCharsets.UTF_8));
        pos += 4 + len;
      }
      assertEquals(bytes.length, pos, "vlen-utf8 chunk fully consumed");
      return out;
    }

    private static byte[] crc32cStrip(byte[] bytes) {
      assertTrue(bytes.length >= 4, "crc32c needs 4 bytes");
      CRC32C crc = new CRC32C();
      crc.update(bytes, 0, bytes.length - 4);
      int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      assertEquals((int) crc.getValue(), stored, "crc32c checksum");
      return Arrays.copyOf(bytes, bytes.length - 4);
    }

    private static byte[] readAll(InputStream in) throws IOException {
      try (in) {
        return in.readAllBytes();
      }
    }

    /** Copies the in-bounds part of a decoded chunk (C order) into the array (C order). */
    private static void place(JsonNode[] chunk, int[] chunkShape, int[] origin, int[] shape, JsonNode[] out) {
      for (int e = 0; e < chunk.length; e++) {
        int[] idx = unflatten(e, chunkShape);
        int flat = 0;
        boolean inside = true;
        for (int d = 0; d < shape.length; d++) {
          int x = origin[d] + idx[d];
          inside &= x < shape[d];
          flat = flat * shape[d] + x;
        }
        if (inside) {
          out[flat] = chunk[e];
        }
      }
    }

    private static int[] unflatten(int n, int[] dims) {
      int[] out = new int[dims.length];
      for (int d = dims.length - 1; d >= 0; d--) {
        out[d] = n % dims[d];
        n /= dims[d];
      }
      return out;
    }
  }
}
