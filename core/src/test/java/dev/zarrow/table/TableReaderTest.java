package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Groups as tables: the stored schema exactly, dictionaries, selection, implicit tables, alignment. */
@ExtendWith(AllocatorExtension.class)
class TableReaderTest {
  private final MemoryStore store = new MemoryStore();

  static final String[] WORDS = {"red", "green", null, "red", "blue", "blue", "green", "red", null, "cyan", "red"};
  static final String[] OTHER = {"blue", "blue", "red", "magenta", "red", "blue", "blue", "red", "red", "red", "x"};

  private ZarrArray ints(ZarrGroup group, String node, int n, int chunk, BufferAllocator allocator) {
    ZarrArray array = group.createArray(node, ArraySpec.of(FixedType.INT32, n).chunks(chunk));
    try (IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i * i);
      }
      v.setValueCount(n);
      array.write(0, v);
    }
    return array;
  }

  private ZarrArray words(ZarrGroup group, String node, Field stored, String[] values, int chunk, BufferAllocator allocator) {
    ZarrArray array = group.createArray(node, ArraySpec.of(ArrowDataType.of(stored), values.length).chunks(chunk));
    try (VarCharVector v = Vectors.utf8(allocator, "s", values)) {
      array.write(0, v);
    }
    return array;
  }

  /** Columns "n" (int32, metadata), "w" twice (duplicate names, sharing dictionary 3), schema metadata. */
  private ZarrGroup table(BufferAllocator allocator) {
    ZarrGroup group = Zarr.createGroup(store, "t");
    DictionaryEncoding shared = new DictionaryEncoding(3, false, new ArrowType.Int(8, true));
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("unit", "m");
    meta.put("about", "squares");
    Field n = new Field("n", new FieldType(false, new ArrowType.Int(32, true), null, meta), List.of());
    Field w = new Field("w", new FieldType(true, ArrowType.Utf8.INSTANCE, shared), List.of());
    Schema schema = new Schema(List.of(n, w, w), Map.of("origin", "test"));
    TableLayout layout = TableLayout.forSchema(schema);
    assertEquals(List.of("n", "w", "w_2"), layout.nodes());
    ints(group, "n", WORDS.length, 4, allocator);
    words(group, "w", w, WORDS, 4, allocator);
    words(group, "w_2", w, OTHER, 3, allocator);
    return group.withAttributes(layout.into(group.attributes()));
  }

  /** The message-format (stored) schema of a reader, as Arrow Java's writer would write it. */
  private static Schema storedSchema(ArrowReader reader) throws Exception {
    Set<Long> ids = new HashSet<>();
    List<Field> fields = new ArrayList<>();
    for (Field f : reader.getVectorSchemaRoot().getSchema().getFields()) {
      fields.add(DictionaryUtility.toMessageFormat(f, reader, ids));
    }
    return new Schema(fields, reader.getVectorSchemaRoot().getSchema().getCustomMetadata());
  }

  /** Every column decoded to strings, row by row, over all batches. */
  private static List<List<String>> rows(ArrowReader reader) throws Exception {
    List<List<String>> columns = new ArrayList<>();
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    for (int c = 0; c < root.getFieldVectors().size(); c++) {
      columns.add(new ArrayList<>());
    }
    while (reader.loadNextBatch()) {
      for (int c = 0; c < root.getFieldVectors().size(); c++) {
        FieldVector v = root.getFieldVectors().get(c);
        DictionaryEncoding enc = v.getField().getDictionary();
        try (FieldVector decoded = enc == null ? null : (FieldVector) DictionaryEncoder.decode(v, reader.lookup(enc.getId()))) {
          FieldVector values = decoded == null ? v : decoded;
          for (int i = 0; i < root.getRowCount(); i++) {
            Object o = values.getObject(i);
            columns.get(c).add(o == null ? null : o.toString());
          }
        }
      }
    }
    return columns;
  }

  private static List<String> squares(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Integer.toString(i * i));
    }
    return out;
  }

  @Test
  void theStoredSchemaExactlyAndTheValues(BufferAllocator allocator) throws Exception {
    ZarrGroup group = table(allocator);
    Schema expected = TableLayout.fromAttributes(group.attributes()).orElseThrow().schema();
    try (ArrowReader reader = TableReader.of(group, allocator)) {
      assertEquals(FieldJson.writeSchema(expected), FieldJson.writeSchema(storedSchema(reader)));
      List<List<String>> columns = rows(reader);
      assertEquals(List.of(squares(WORDS.length), Arrays.asList(WORDS), Arrays.asList(OTHER)), columns);
    }
  }

  @Test
  void batchesFollowTheFirstColumnsChunksOrBatchRows(BufferAllocator allocator) throws Exception {
    ZarrGroup group = table(allocator);
    for (int batchRows : new int[] {0, 5, 1, 100}) {
      List<Integer> sizes = new ArrayList<>();
      try (ArrowReader reader = TableReader.of(group, allocator, null, batchRows)) {
        while (reader.loadNextBatch()) {
          sizes.add(reader.getVectorSchemaRoot().getRowCount());
        }
      }
      List<Integer> expected = switch (batchRows) {
        case 0 -> List.of(4, 4, 3);
        case 5 -> List.of(5, 5, 1);
        case 1 -> java.util.Collections.nCopies(11, 1);
        default -> List.of(11);
      };
      assertEquals(expected, sizes, "batchRows " + batchRows);
    }
  }

  /** Columns sharing a dictionary id get one dictionary per batch holding both columns' values. */
  @Test
  void sharedDictionaryIdsGetOneDictionaryAndIpcReadsBack(BufferAllocator allocator) throws Exception {
    ZarrGroup group = table(allocator);
    ByteArrayOutputStream ipc = new ByteArrayOutputStream();
    try (ArrowReader reader = TableReader.of(group, allocator)) {
      try (ArrowStreamWriter writer = new ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, ipc)) {
        writer.start();
        while (reader.loadNextBatch()) {
          assertEquals(Set.of(3L), reader.getDictionaryIds());
          writer.writeBatch();
        }
        writer.end();
      }
    }
    try (ArrowStreamReader in = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator)) {
      Schema expected = TableLayout.fromAttributes(group.attributes()).orElseThrow().schema();
      assertEquals(FieldJson.writeSchema(expected).get("fields"), FieldJson.writeSchema(storedSchema(in)).get("fields"));
      assertEquals(List.of(squares(WORDS.length), Arrays.asList(WORDS), Arrays.asList(OTHER)), rows(in));
    }
  }

  @Test
  void negativeBatchRowsIsACallerMistake(BufferAllocator allocator) {
    ZarrGroup group = table(allocator);
    assertThrows(IllegalArgumentException.class, () -> TableReader.of(group, allocator, null, -1));
  }

  @Test
  void columnSelectionByNameKeepsDuplicates(BufferAllocator allocator) throws Exception {
    ZarrGroup group = table(allocator);
    try (ArrowReader reader = TableReader.of(group, allocator, List.of("w", "n"), 0)) {
      Schema schema = storedSchema(reader);
      assertEquals(List.of("w", "w", "n"), schema.getFields().stream().map(Field::getName).toList());
      assertEquals(List.of(Arrays.asList(WORDS), Arrays.asList(OTHER), squares(WORDS.length)), rows(reader));
    }
    try (ArrowReader reader = TableReader.of(group, allocator, List.of("n"), 0)) {
      assertEquals(List.of(squares(WORDS.length)), rows(reader));
      assertTrue(reader.getDictionaryIds().isEmpty());
    }
    NoSuchNodeException e = assertThrows(NoSuchNodeException.class, () -> TableReader.of(group, allocator, List.of("nope"), 0));
    assertTrue(e.getMessage().contains("nope") && e.getMessage().contains("[n, w, w]"), e.getMessage());
  }

  @Test
  void aLayoutWhoseArrayIsMissingOrOfAnotherTypeIsRefused(BufferAllocator allocator) {
    ZarrGroup group = table(allocator);
    store.delete("t/w_2/zarr.json");
    MetadataException missing = assertThrows(MetadataException.class, () -> TableReader.of(group, allocator));
    assertTrue(missing.getMessage().contains("w_2"), missing.getMessage());
    group.createArray("w_2", ArraySpec.of(FixedType.FLOAT32, WORDS.length).chunks(4));
    MetadataException wrong = assertThrows(MetadataException.class, () -> TableReader.of(group, allocator));
    assertTrue(wrong.getMessage().contains("w_2") && wrong.getMessage().contains("float32"), wrong.getMessage());
  }

  /** A group of arrays y (int32) and x (utf8) of 6 rows, and a subgroup, with no attributes. */
  private ZarrGroup alignedArrays(String path, BufferAllocator allocator) {
    ZarrGroup group = Zarr.createGroup(store, path);
    ints(group, "y", 6, 4, allocator);
    words(group, "x", new Field("x", FieldType.nullable(ArrowType.Utf8.INSTANCE), List.of()),
        Arrays.copyOf(WORDS, 6), 2, allocator);
    group.createGroup("sub"); // not a column
    return group;
  }

  @Test
  void aGroupThatClaimsNoTableIsRefusedUnlessItsAlignedArraysAreAskedFor(BufferAllocator allocator) throws Exception {
    ZarrGroup group = alignedArrays("plain", allocator);
    // What an import that never finished leaves looks just like this: not a table.
    NoSuchNodeException refused = assertThrows(NoSuchNodeException.class, () -> TableReader.of(group, allocator));
    assertTrue(refused.getMessage().contains("'plain'") && refused.getMessage().contains("holds no table"), refused.getMessage());
    assertFalse(TableReader.holdsTable(group));
    assertThrows(NoSuchNodeException.class, () -> TableReader.of(Zarr.createGroup(store, "empty"), allocator));
    try (ArrowReader reader = TableReader.ofAlignedArrays(group, allocator, null, 0)) {
      assertEquals(List.of("x", "y"), reader.getVectorSchemaRoot().getSchema().getFields().stream().map(Field::getName).toList());
      assertEquals(List.of(Arrays.asList(Arrays.copyOf(WORDS, 6)), squares(6)), rows(reader));
    }
    ints(group, "z", 5, 4, allocator);
    MetadataException e = assertThrows(MetadataException.class, () -> TableReader.ofAlignedArrays(group, allocator, null, 0));
    assertTrue(e.getMessage().contains("do not align") && e.getMessage().contains("'plain/z' has 5 rows"), e.getMessage());
  }

  @Test
  void anAnnDataDataframeReadsAsItsAlignedArraysInColumnOrder(BufferAllocator allocator) throws Exception {
    ZarrGroup group = alignedArrays("obs", allocator);
    ObjectNode attrs = JsonNodeFactory.instance.objectNode();
    attrs.put("encoding-type", "dataframe").put("encoding-version", "0.2.0");
    attrs.putArray("column-order").add("y").add("x");
    ZarrGroup dataframe = group.withAttributes(attrs);
    assertTrue(TableReader.holdsTable(dataframe));
    try (ArrowReader reader = TableReader.of(dataframe, allocator)) {
      assertEquals(List.of("y", "x"), reader.getVectorSchemaRoot().getSchema().getFields().stream().map(Field::getName).toList());
      assertEquals(List.of(4, 2), batchSizes(reader));
    }
  }

  private static List<Integer> batchSizes(ArrowReader reader) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    while (reader.loadNextBatch()) {
      sizes.add(reader.getVectorSchemaRoot().getRowCount());
    }
    assertFalse(reader.loadNextBatch());
    return sizes;
  }

  /**
   * A sharded table of nullable and string columns (the {@code arrow} codec, zstd, crc32c) read from
   * files takes no direct ByteBuffer memory per chunk: stored bytes go to a scratch freed at once and
   * decompressed bytes to the reader's allocator, freed with each batch. Before, every inner chunk took
   * two fresh zeroed direct buffers that only a GC frees (on a VM where a fresh page costs ~16 us, most
   * of a Flight stream's page faults).
   */
  @Test
  void shardedChunksTakeNoDirectBufferMemory(BufferAllocator allocator, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    int rows = 1 << 18;
    try (dev.zarrow.store.FileSystemStore files = dev.zarrow.store.FileSystemStore.open(dir);
        IntVector qty = new IntVector("qty", allocator);
        VarCharVector city = new VarCharVector("city", allocator)) {
      qty.allocateNew(rows);
      city.allocateNew(rows * 5L, rows);
      for (int i = 0; i < rows; i++) {
        if (i % 11 != 0) {
          qty.set(i, i * 7);
        }
        if (i % 10 != 0) {
          city.setSafe(i, ("c" + (i % 1000)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      qty.setValueCount(rows);
      city.setValueCount(rows);
      VectorSchemaRoot root = VectorSchemaRoot.of(qty, city); // not closed: it would close the vectors, compared below
      root.setRowCount(rows);
      ZarrGroup group = TableWriter.write(Zarr.createGroup(files, "t"), root,
          TableOptions.defaults().withChunkRows(16384).withShardRows(65536));
      long before = dev.zarrow.testing.DirectMemory.used();
      int read = 0;
      long loaded;
      try (TableReader reader = TableReader.of(group, allocator)) {
        while (reader.loadNextBatch()) {
          VectorSchemaRoot batch = reader.getVectorSchemaRoot();
          for (int i = 0; i < batch.getRowCount(); i++, read++) {
            assertEquals(qty.isNull(read) ? null : qty.get(read), batch.getVector("qty").getObject(i));
            assertEquals(city.getObject(read), batch.getVector("city").getObject(i));
          }
        }
        loaded = reader.bytesRead();
      }
      assertEquals(rows, read);
      long grown = dev.zarrow.testing.DirectMemory.used() - before;
      // Before, the growth was about 1.4x the Arrow data loaded (stored and decompressed bytes of every
      // chunk); now about 0.4x remains, from a path not found yet (the count is also the whole JVM's).
      assertTrue(grown < loaded * 3 / 4, "direct ByteBuffer memory grew by " + grown + " bytes over 16 chunks of "
          + loaded + " bytes of Arrow data");
    }
  }
}
