package dev.zarrow.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.FixedUtf32Type;
import dev.zarrow.dtype.StructType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.spi.Registry;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.vector.JsonValueWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrow against zarr-python 2 (Debian's python3-zarr 2.13.6) through {@code core/src/test/python/zarr2_stores.py}:
 * every case of its {@code CASES} (dtypes of both byte orders, order C and F, both separators, fill
 * values, compressors, object arrays) read equal in zarrow; arrays zarrow writes as v2 read equal in
 * zarr-python 2. Cases that name a pending branch (codecs of {@code numcodecs}, data types of
 * {@code v2types}) are read once the registry knows what they need, and only mapped until then.
 */
@ExtendWith(AllocatorExtension.class)
class ZarrV2InteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @BeforeEach
  void peer() {
    PythonPeer.assumeAvailable();
  }

  @Test
  void readsEveryCaseZarrPython2Wrote(@TempDir Path dir, BufferAllocator allocator) throws IOException {
    JsonNode cases = PythonPeer.run(TIMEOUT, "zarr2_stores.py", "write", dir.toString()).get("cases");
    Registry registry = Registry.defaults();
    List<String> pending = new ArrayList<>();
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      ZarrGroup root = Zarr.openGroup(store, "");
      assertEquals(2, root.metadata().zarrFormat());
      List<String> names = new ArrayList<>();
      cases.forEach(c -> names.add(c.get("name").asText()));
      assertEquals(names.stream().sorted().toList(), root.childNames());
      for (JsonNode c : cases) {
        String name = c.get("name").asText();
        var metadata = V2Metadata.parseArray(
            JSON.readTree(Files.readAllBytes(dir.resolve(name).resolve(".zarray"))), null, name);
        assertEquals(c.get("v3").asText(), metadata.dataType().name(), name + ": the v3 data type");
        boolean known = registry.dataTypeNames().contains(metadata.dataType().name())
            && metadata.codecs().stream().allMatch(codec -> registry.codecNames().contains(codec.name()));
        if (!c.get("pending").isNull() && !known) {
          pending.add(name + " (" + c.get("pending").asText() + ")");
          continue;
        }
        ZarrArray array = root.array(name);
        assertEquals(2, array.metadata().zarrFormat(), name);
        try (NdVector read = array.read(allocator)) {
          assertValuesEqual(c.get("values"), values(read.vector()), name);
        }
      }
    }
    System.err.println("v2 cases waiting for their branch: " + pending);
  }

  /** One array zarrow writes as v2, and what zarr-python 2 must report for it. */
  private record Written(String name, DataType type, long[] shape, int[] chunks, List<NamedConfig> codecs, char separator,
      String dtype, String order, String compressor) {}

  @Test
  void zarrPython2ReadsWhatZarrowWritesAsV2(@TempDir Path dir, BufferAllocator allocator) throws IOException {
    JsonNodeFactory f = JsonNodeFactory.instance;
    NamedConfig big = NamedConfig.of("bytes", f.objectNode().put("endian", "big"));
    NamedConfig little = NamedConfig.of("bytes", f.objectNode().put("endian", "little"));
    NamedConfig gzip = NamedConfig.of("gzip", f.objectNode().put("level", 5));
    NamedConfig zstd = NamedConfig.of("zstd", f.objectNode().put("level", 3).put("checksum", false));
    NamedConfig blosc = NamedConfig.of("blosc", f.objectNode().put("cname", "lz4").put("clevel", 5)
        .put("shuffle", "bitshuffle").put("typesize", 4).put("blocksize", 0));
    ObjectNode reversed = f.objectNode();
    reversed.putArray("order").add(1).add(0);
    NamedConfig transposeF = NamedConfig.of("transpose", reversed);
    List<Written> cases = List.of(
        new Written("i4", FixedType.INT32, new long[] {10}, new int[] {4}, List.of(little, zstd), '.', "int32", "C", "zstd"),
        new Written("f8be", FixedType.FLOAT64, new long[] {7, 5}, new int[] {3, 2}, List.of(big, gzip), '/', ">f8", "C", "gzip"),
        new Written("u2f", FixedType.UINT16, new long[] {6, 5}, new int[] {4, 3}, List.of(transposeF, little, blosc), '.', "uint16", "F", "blosc"),
        new Written("bool", FixedType.BOOL, new long[] {9}, new int[] {4}, List.of(little), '.', "bool", "C", null),
        new Written("i8be", FixedType.INT64, new long[] {5}, new int[] {2}, List.of(big, gzip), '.', ">i8", "C", "gzip"),
        new Written("str", VarLenType.STRING, new long[] {7}, new int[] {3}, List.of(NamedConfig.of("vlen-utf8", f.objectNode()), zstd), '.', "object", "C", "zstd"),
        new Written("bin", VarLenType.BYTES, new long[] {7}, new int[] {3}, List.of(NamedConfig.of("vlen-bytes", f.objectNode())), '/', "object", "C", null));
    Map<String, JsonNode> expected = new LinkedHashMap<>();
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      Zarr.createGroup(store, "", 2, dev.zarrow.ZarrOptions.defaults());
      for (Written w : cases) {
        ZarrArray array = Zarr.createArray(store, w.name(), ArraySpec.of(w.type(), w.shape()).chunks(w.chunks())
            .codecs(w.codecs()).keyEncoding(new ChunkKeyEncoding(true, w.separator())).zarrFormat(2)
            .attributes(f.objectNode().put("written_by", "zarrow")));
        try (FieldVector data = sample(w.type(), (int) array.size(), allocator)) {
          array.write(dev.zarrow.grid.Box.of(w.shape()), data);
          expected.put(w.name(), values(data));
        }
        assertTrue(Files.exists(dir.resolve(w.name()).resolve(".zarray")), w.name());
        assertTrue(Files.notExists(dir.resolve(w.name()).resolve("zarr.json")), w.name());
      }
      assertTrue(Files.exists(dir.resolve(".zgroup")));
    }
    JsonNode read = PythonPeer.run(TIMEOUT, "zarr2_stores.py", "read", dir.toString()).get("arrays");
    for (Written w : cases) {
      JsonNode a = read.get(w.name());
      assertEquals(w.dtype(), a.get("dtype").asText(), w.name());
      assertEquals(w.order(), a.get("order").asText(), w.name());
      assertEquals(String.valueOf(w.separator()), a.get("separator").asText(), w.name());
      assertEquals(w.compressor(), a.get("compressor").isNull() ? null : a.get("compressor").get("id").asText(), w.name());
      assertEquals("zarrow", a.get("attributes").get("written_by").asText(), w.name());
      assertValuesEqual(expected.get(w.name()), a.get("values"), w.name());
    }
  }

  @Test
  void zarrPython2ReadsNonAsciiDocumentsAndBigEndianStructFills(@TempDir Path dir) throws IOException {
    JsonNodeFactory f = JsonNodeFactory.instance;
    String text = "temp\u00e9rature \u2603 \ud83d\ude00";
    DataType struct = StructType.of(List.of(new StructType.Member("a", FixedType.INT32), new StructType.Member("b", FixedType.FLOAT64)));
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      Zarr.createGroup(store, "", 2, dev.zarrow.ZarrOptions.defaults()).withAttributes(f.objectNode().put("title", text));
      Zarr.createArray(store, "utf32", ArraySpec.of(FixedUtf32Type.of(16), 5).chunks(2).fillValue(f.textNode("\u00e9\u20ac\u2603"))
          .zarrFormat(2).attributes(f.objectNode().put("title", text)));
      Zarr.createArray(store, "struct_be", ArraySpec.of(struct, 3).chunks(2)
          .codecs(List.of(NamedConfig.of("bytes", f.objectNode().put("endian", "big"))))
          .fillValue(f.objectNode().put("a", -7).put("b", 2.5)).zarrFormat(2));
    }
    for (String doc : List.of(".zattrs", "utf32/.zattrs", "utf32/.zarray")) {
      byte[] bytes = Files.readAllBytes(dir.resolve(doc));
      for (byte b : bytes) {
        assertTrue(b >= 0, doc + " is ASCII: " + new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    JsonNode read = PythonPeer.run(TIMEOUT, "zarr2_stores.py", "read", dir.toString());
    assertEquals(text, read.get("attributes").get("title").asText());
    JsonNode utf32 = read.get("arrays").get("utf32");
    assertEquals("<U4", utf32.get("dtype").asText());
    assertEquals(text, utf32.get("attributes").get("title").asText());
    assertEquals("\u00e9\u20ac\u2603", utf32.get("fill_value").asText());
    assertEquals("\u00e9\u20ac\u2603", utf32.get("values").get(4).asText());
    JsonNode be = read.get("arrays").get("struct_be");
    assertEquals(JSON.readTree("{\"a\": -7, \"b\": 2.5}"), be.get("fill_value"));
    assertEquals(JSON.readTree("{\"a\": -7, \"b\": 2.5}"), be.get("values").get(2));
  }

  /** Seeded values of {@code type} (float types only where their JSON is exact in both languages). */
  private static FieldVector sample(DataType type, int n, BufferAllocator allocator) {
    if (type instanceof FixedType fixed) {
      return PeerVectors.generate(fixed, n, new java.util.Random(n * 31L + type.name().hashCode()), allocator);
    }
    boolean text = type == VarLenType.STRING;
    org.apache.arrow.vector.BaseVariableWidthVector out = text
        ? new org.apache.arrow.vector.VarCharVector("", allocator)
        : new org.apache.arrow.vector.VarBinaryVector("", allocator);
    out.allocateNew(n);
    for (int i = 0; i < n; i++) {
      String s = i % 4 == 3 ? "" : "v" + i + "\u00e9".repeat(i % 3);
      out.setSafe(i, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    out.setValueCount(n);
    return out;
  }

  static JsonNode values(FieldVector vector) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.getFactory().createGenerator(text)) {
      g.writeStartArray();
      new JsonValueWriter(g).writeAll(vector);
      g.writeEndArray();
    }
    return JSON.readTree(text.toString());
  }

  /** Equal JSON values, numbers by value (2 and 2.0 are one number). */
  static void assertValuesEqual(JsonNode expected, JsonNode actual, String what) {
    if (!sameValue(expected, actual)) {
      fail(what + ": expected " + expected + "\n but read " + actual);
    }
  }

  private static boolean sameValue(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return new BigDecimal(a.asText()).compareTo(new BigDecimal(b.asText())) == 0;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!sameValue(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }
}
