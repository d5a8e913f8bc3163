package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.NdVector;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.RecordingStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class TableWriterTest {
  private final MemoryStore memory = new MemoryStore();
  private final RecordingStore store = new RecordingStore(memory);

  private static Field nullable(String name, ArrowType type) {
    return Field.nullable(name, type);
  }

  private static final ArrowType INT32 = new ArrowType.Int(32, true);

  /** A batch of int32 column(s) named {@code names}: row i of column c is {@code value.apply(first + i) + c}, null where it says. */
  private static VectorSchemaRoot ints(BufferAllocator allocator, List<String> names, int first, int n, IntFunction<Integer> value) {
    List<FieldVector> vectors = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      IntVector v = new IntVector(nullable(names.get(c), INT32), allocator);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        Integer x = value.apply(first + i);
        if (x == null) {
          v.setNull(i);
        } else {
          v.set(i, x + c);
        }
      }
      v.setValueCount(n);
      vectors.add(v);
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(n);
    return root;
  }

  private ZarrGroup group() {
    return Zarr.createGroup(store, "t");
  }

  /**
   * The memory store cannot rename: a table is written in place, the group claimed last, so that
   * while a write runs, and after one that failed or was abandoned, there is no node at all.
   */
  private void assertNoNode(String when) {
    assertTrue(Zarr.tryOpen(store, "t", ZarrOptions.defaults()).isEmpty(), "no node at t " + when);
    assertEquals(List.of(), memory.list("t/"), "nothing below t " + when);
  }

  /** While a write runs in place: chunks and the marker, but no metadata claims anything yet. */
  private void assertUnclaimed(String when) {
    assertTrue(Zarr.tryOpen(store, "t", ZarrOptions.defaults()).isEmpty(), "no node at t " + when);
    List<String> keys = memory.list("t/");
    assertTrue(keys.contains("t/" + dev.zarrow.NodeWriter.INCOMPLETE), keys.toString());
    assertTrue(keys.stream().noneMatch(k -> k.endsWith("zarr.json")), "no column claimed " + when + ": " + keys);
  }

  /** Writes {@code batches} (closing them) through the incremental API; returns the group and checks every value. */
  private ZarrGroup writeAndCheck(Schema schema, List<VectorSchemaRoot> batches, TableOptions options, BufferAllocator allocator) {
    List<List<FieldVector>> expected = new ArrayList<>();
    try {
      ZarrGroup group;
      try (TableWriter writer = TableWriter.create(group(), schema, options, allocator)) {
        for (VectorSchemaRoot b : batches) {
          writer.append(b, null);
          expected.add(TableChecks.decodedColumns(b, schema, null, allocator));
        }
        assertUnclaimed("before finish");
        group = writer.finish();
        assertEquals(expected.stream().mapToLong(e -> e.isEmpty() ? 0 : e.get(0).getValueCount()).sum(), writer.rows());
      }
      TableLayout layout = TableChecks.assertLayout(group, schema);
      TableChecks.assertColumns(group, layout, expected, allocator);
      return group;
    } finally {
      batches.forEach(VectorSchemaRoot::close);
      expected.forEach(e -> e.forEach(FieldVector::close));
    }
  }

  private static List<String> chunkKeys(MemoryStore memory, String prefix) {
    return memory.list(prefix).stream().filter(k -> !k.endsWith("zarr.json")).sorted().toList();
  }

  @Test
  void oddBatchesAcrossChunkBoundaries(BufferAllocator allocator) {
    int[] sizes = {1, 6, 7, 0, 13, 2, 29, 5};
    List<VectorSchemaRoot> batches = new ArrayList<>();
    int first = 0;
    for (int n : sizes) {
      batches.add(ints(allocator, List.of("a", "b"), first, n, i -> i % 7 == 3 ? null : i * 31));
      first += n;
    }
    Schema schema = batches.get(0).getSchema();
    ZarrGroup group = writeAndCheck(schema, batches, TableOptions.defaults().withChunkRows(5), allocator);
    ZarrArray a = group.array("a");
    assertEquals(63, a.shape()[0]);
    assertEquals(List.of(5), List.of(a.grid().chunkShape()[0]));
    assertEquals(13, chunkKeys(memory, "t/a/").size(), "13 chunks of 5 rows (the last of 3)");
  }

  @Test
  void noChunkIsReadBackWhileWriting(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(nullable("a", INT32)));
    try (TableWriter writer = TableWriter.create(group(), schema, TableOptions.defaults().withChunkRows(4), allocator)) {
      store.reset();
      int first = 0;
      for (int n : new int[] {3, 3, 3, 9, 1, 5}) {
        try (VectorSchemaRoot b = ints(allocator, List.of("a"), first, n, i -> i + 1)) {
          writer.append(b, null);
        }
        first += n;
      }
      writer.finish();
      assertEquals(0, store.requests().stream().filter(r -> r.key().contains("/c/")).count(), store.requests().toString());
    }
    assertEquals(6, chunkKeys(memory, "t/a/").size());
  }

  @Test
  void nativeTypesWhereTheColumnAllows(BufferAllocator allocator) {
    int n = 9;
    IntVector i32 = new IntVector("i32", allocator);
    UInt8Vector u64 = new UInt8Vector("u64", allocator);
    Float2Vector f16 = new Float2Vector("f16", allocator);
    Float8Vector f64 = new Float8Vector("f64", allocator);
    BitVector bool = new BitVector("bool", allocator);
    VarCharVector utf8 = new VarCharVector("utf8", allocator);
    LargeVarCharVector large = new LargeVarCharVector("large_utf8", allocator);
    VarBinaryVector binary = new VarBinaryVector("binary", allocator);
    IntVector withNulls = new IntVector("with_nulls", allocator);
    ListVector list = ListVector.empty("list", allocator);
    for (int i = 0; i < n; i++) {
      i32.setSafe(i, i - 4);
      u64.setSafe(i, -1L - i);
      f16.setSafe(i, (short) (0x3c00 + i));
      f64.setSafe(i, i / 3.0);
      bool.setSafe(i, i % 2);
      utf8.setSafe(i, ("é" + i).getBytes(StandardCharsets.UTF_8));
      large.setSafe(i, ("large " + i).getBytes(StandardCharsets.UTF_8));
      binary.setSafe(i, new byte[] {(byte) i, 0});
      if (i % 4 == 0) {
        withNulls.setNull(i);
      } else {
        withNulls.setSafe(i, i);
      }
    }
    UnionListWriter w = list.getWriter();
    for (int i = 0; i < n; i++) {
      w.setPosition(i);
      w.startList();
      for (int k = 0; k < i % 3; k++) {
        w.integer().writeInt(i * 10 + k);
      }
      w.endList();
    }
    w.setValueCount(n);
    List<FieldVector> vectors = List.of(i32, u64, f16, f64, bool, utf8, large, binary, withNulls, list);
    vectors.forEach(v -> v.setValueCount(n));
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(n);
    Schema schema = root.getSchema();
    List<String> expectedTypes = List.of("int32", "uint64", "float16", "float64", "bool", "string", "large_string", "bytes",
        "arrow", "arrow");
    try (root) {
      ZarrGroup group = TableWriter.write(Zarr.createGroup(store, "t"), root, TableOptions.defaults().withChunkRows(4));
      List<String> types = new ArrayList<>();
      for (String node : TableLayout.forSchema(schema).nodes()) {
        types.add(group.array(node).dataType().name());
      }
      assertEquals(expectedTypes, types);
      ZarrGroup arrowOnly = TableWriter.write(Zarr.createGroup(store, "u"), root, TableOptions.defaults().withNativeTypes(false));
      for (String node : TableLayout.forSchema(schema).nodes()) {
        assertEquals("arrow", arrowOnly.array(node).dataType().name(), node);
      }
      for (ZarrGroup g : List.of(group, arrowOnly)) {
        TableLayout layout = TableChecks.assertLayout(g, schema);
        TableChecks.assertColumns(g, layout, List.of(root.getFieldVectors()), allocator);
      }
    }
  }

  @Test
  void aNativeColumnThatMeetsANullLaterBecomesArrow(BufferAllocator allocator) {
    for (TableOptions options : List.of(TableOptions.defaults().withChunkRows(4),
        TableOptions.defaults().withChunkRows(2).withShardRows(4))) {
      List<VectorSchemaRoot> batches = new ArrayList<>();
      // Zeros first (chunks equal to the fill value are not stored), then values, then a null in batch 3.
      batches.add(ints(allocator, List.of("a", "b"), 0, 9, i -> i < 5 ? 0 : i));
      batches.add(ints(allocator, List.of("a", "b"), 9, 3, i -> i));
      batches.add(ints(allocator, List.of("a", "b"), 12, 6, i -> i == 14 ? null : -i));
      Schema schema = batches.get(0).getSchema();
      ZarrGroup group = writeAndCheck(schema, batches, options, allocator);
      assertEquals("arrow", group.array("a").dataType().name());
      try (NdVector all = group.array("a").read(allocator)) {
        assertEquals(18, all.vector().getValueCount());
        assertEquals(1, all.vector().getNullCount());
        assertTrue(all.vector().isNull(14));
        assertEquals(0, ((IntVector) all.vector()).get(0));
        assertEquals(10, ((IntVector) all.vector()).get(10));
      }
    }
  }

  @Test
  void aStringColumnThatMeetsANullLater(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(nullable("s", ArrowType.Utf8.INSTANCE)));
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < 3; b++) {
      VarCharVector v = new VarCharVector("s", allocator);
      for (int i = 0; i < 5; i++) {
        if (b == 2 && i == 3) {
          v.setNull(i);
        } else {
          v.setSafe(i, (b == 0 ? "" : "row " + (b * 5 + i)).getBytes(StandardCharsets.UTF_8));
        }
      }
      v.setValueCount(5);
      VectorSchemaRoot root = new VectorSchemaRoot(List.of(v));
      root.setRowCount(5);
      batches.add(root);
    }
    ZarrGroup group = writeAndCheck(schema, batches, TableOptions.defaults().withChunkRows(3), allocator);
    assertEquals("arrow", group.array("s").dataType().name());
  }

  @Test
  void shardedTable(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    int first = 0;
    for (int n : new int[] {5, 17, 2, 30}) {
      batches.add(ints(allocator, List.of("x"), first, n, i -> i % 11 == 0 ? null : i));
      first += n;
    }
    ZarrGroup group = writeAndCheck(batches.get(0).getSchema(), batches,
        TableOptions.defaults().withChunkRows(4).withShardRows(12), allocator);
    ZarrArray x = group.array("x");
    assertEquals(12, x.grid().chunkShape()[0]);
    ObjectNode sharding = x.metadata().codecs().get(0).config();
    assertEquals("sharding_indexed", x.metadata().codecs().get(0).name());
    assertEquals(4, sharding.get("chunk_shape").get(0).asInt());
    assertEquals("arrow", sharding.get("codecs").get(0).get("name").asText());
    assertEquals("crc32c", sharding.get("index_codecs").get(1).get("name").asText());
    assertEquals("end", sharding.get("index_location").asText());
    assertEquals(5, chunkKeys(memory, "t/x/").size(), "54 rows in 5 shards");
  }

  @Test
  void zeroRows(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = List.of(ints(allocator, List.of("a", "b"), 0, 0, i -> i));
    ZarrGroup group = writeAndCheck(batches.get(0).getSchema(), batches, TableOptions.defaults(), allocator);
    assertEquals(0, group.array("a").shape()[0]);
    assertEquals(List.of(), chunkKeys(memory, "t/a/"));
    // No batch at all.
    try (VectorSchemaRoot none = ints(allocator, List.of("z"), 0, 0, i -> i)) {
      ZarrGroup g = Zarr.createGroup(store, "v");
      try (TableWriter writer = TableWriter.create(g, none.getSchema(), TableOptions.defaults(), allocator)) {
        g = writer.finish();
      }
      TableChecks.assertLayout(g, none.getSchema());
      assertEquals(0, g.array("z").shape()[0]);
    }
  }

  @Test
  void zeroColumns(BufferAllocator allocator) {
    try (VectorSchemaRoot empty = new VectorSchemaRoot(List.<FieldVector>of())) {
      empty.setRowCount(0);
      ZarrGroup group = TableWriter.write(Zarr.createGroup(store, "t"), empty, TableOptions.defaults(), allocator);
      TableLayout layout = TableChecks.assertLayout(group, empty.getSchema());
      assertEquals(List.of(), layout.nodes());
      assertEquals(List.of(), group.childNames());
    }
  }

  @Test
  void namesThatRepeatOrAreUnsafe(BufferAllocator allocator) {
    List<String> names = List.of("a", "a", "A", "x/y", "", "c", "__z", "é");
    List<VectorSchemaRoot> batches = List.of(ints(allocator, names, 0, 7, i -> i), ints(allocator, names, 7, 4, i -> i));
    Schema schema = batches.get(0).getSchema();
    ZarrGroup group = writeAndCheck(schema, batches, TableOptions.defaults().withChunkRows(3), allocator);
    assertEquals(List.of("A_3", "a", "a_2", "column", "column___z", "column_c", "x_y", "_"),
        group.childNames().stream().sorted(java.util.Comparator.comparing(s -> s.equals("_") ? "~" : s)).toList());
    TableLayout layout = TableLayout.fromAttributes(group.attributes()).orElseThrow();
    assertEquals(names, layout.schema().getFields().stream().map(Field::getName).toList());
  }

  @Test
  void otherAttributesAreKeptAndAnEarlierTableIsReplacedWhole(BufferAllocator allocator) {
    ObjectNode attributes = group().attributes();
    attributes.put("keep", 1);
    try (VectorSchemaRoot first = ints(allocator, List.of("old", "other"), 0, 3, i -> i)) {
      TableWriter.write(group().withAttributes(attributes), first, TableOptions.defaults());
    }
    assertTrue(Zarr.openGroup(store, "t").attributes().has(TableLayout.ATTRIBUTE));
    try (VectorSchemaRoot second = ints(allocator, List.of("new"), 0, 5, i -> i * 2);
        TableWriter writer = TableWriter.create(Zarr.openGroup(store, "t"), second.getSchema(), TableOptions.defaults(), allocator)) {
      writer.append(second, null);
      assertUnclaimed("while the new table is written");
      ZarrGroup done = writer.finish();
      assertEquals(1, done.attributes().get("keep").asInt());
      assertEquals(List.of("new"), TableLayout.fromAttributes(done.attributes()).orElseThrow().nodes());
      assertEquals(List.of("new"), done.childNames(), "no column of the earlier table stays");
    }
  }

  /** A store that refuses to write one key, as a full disk would. */
  private static final class RefusingStore implements dev.zarrow.store.WritableStore {
    private final MemoryStore delegate;
    private final String refused;

    RefusingStore(MemoryStore delegate, String refused) {
      this.delegate = delegate;
      this.refused = refused;
    }

    @Override
    public java.util.Optional<java.nio.ByteBuffer> get(String key) {
      return delegate.get(key);
    }

    @Override
    public java.util.Optional<java.nio.ByteBuffer> get(String key, dev.zarrow.store.ByteRange range) {
      return delegate.get(key, range);
    }

    @Override
    public List<String> list(String prefix) {
      return delegate.list(prefix);
    }

    @Override
    public java.util.Optional<Long> size(String key) {
      return delegate.size(key);
    }

    @Override
    public dev.zarrow.store.Store.Listing listDir(String prefix) {
      return delegate.listDir(prefix);
    }

    @Override
    public void set(String key, java.nio.ByteBuffer value) {
      if (key.equals(refused)) {
        throw new dev.zarrow.error.StoreException("writing '" + key + "' failed: no space left");
      }
      delegate.set(key, value);
    }

    @Override
    public java.util.concurrent.locks.Lock lock(String key) {
      return delegate.lock(key);
    }

    @Override
    public void delete(String key) {
      delegate.delete(key);
    }

    @Override
    public String describe() {
      return "refusing " + delegate.describe();
    }

    @Override
    public void close() {}
  }

  /**
   * A unit made whole from buffered rows compresses in the background; its failure fails the write
   * (at a later append or at finish), names its column, and leaves no table behind.
   */
  @Test
  void aChunkThatFailsInTheBackgroundFailsTheWriteAndLeavesNoTable(BufferAllocator allocator) {
    dev.zarrow.store.WritableStore refusing = new RefusingStore(memory, "t/b/c/1");
    Schema schema = new Schema(List.of(nullable("a", INT32), nullable("b", INT32)));
    dev.zarrow.error.ZarrException e = assertThrows(dev.zarrow.error.ZarrException.class, () -> {
      try (TableWriter writer = TableWriter.create(Zarr.createGroup(refusing, "t"), schema,
          TableOptions.defaults().withChunkRows(4), allocator)) {
        for (int first = 0; first < 18; first += 3) { // batches of 3 rows: every chunk of 4 is buffered rows and a batch's
          try (VectorSchemaRoot b = ints(allocator, List.of("a", "b"), first, 3, i -> i)) {
            writer.append(b, null);
          }
        }
        writer.finish();
      }
    });
    assertTrue(e.getMessage().contains("column 'b'") && e.getMessage().contains("no space left"), e.getMessage());
    assertNoNode("after a chunk failed in the background");
  }

  @Test
  void abandonedWriterClaimsNoTable(BufferAllocator allocator) {
    try (VectorSchemaRoot b = ints(allocator, List.of("a"), 0, 10, i -> i);
        TableWriter writer = TableWriter.create(group(), b.getSchema(), TableOptions.defaults().withChunkRows(4), allocator)) {
      writer.append(b, null);
    }
    assertNoNode("after an abandoned write");
  }

  @Test
  void aTruncatedSourceIsACodecExceptionAndClaimsNoTable(BufferAllocator allocator) throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (VectorSchemaRoot b = ints(allocator, List.of("a"), 0, 100, i -> i);
        org.apache.arrow.vector.ipc.ArrowStreamWriter w = new org.apache.arrow.vector.ipc.ArrowStreamWriter(b, null, bytes)) {
      w.start();
      w.writeBatch();
      w.writeBatch();
      w.end();
    }
    byte[] all = bytes.toByteArray();
    try (var reader = new org.apache.arrow.vector.ipc.ArrowStreamReader(
        new java.io.ByteArrayInputStream(java.util.Arrays.copyOf(all, all.length - 300)), allocator)) {
      CodecException e = assertThrows(CodecException.class, () -> TableWriter.write(group(), reader, TableOptions.defaults()));
      assertTrue(e.getMessage().startsWith("reading the Arrow source failed"), e.getMessage());
    }
    assertNoNode("after a failed write");
  }

  @Test
  void badInputIsRefusedClearly(BufferAllocator allocator) {
    Field dictionary = new Field("d", new FieldType(true, INT32, new DictionaryEncoding(0, false, null)), null);
    try (VectorSchemaRoot encoded = VectorSchemaRoot.create(new Schema(List.of(dictionary)), allocator)) {
      // Caller mistakes: IllegalArgumentException; data the source cannot hold stays a ZarrException.
      var e = assertThrows(IllegalArgumentException.class, () -> TableWriter.write(group(), encoded, TableOptions.defaults()));
      assertTrue(e.getMessage().contains("'d' is dictionary-encoded"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> TableWriter.storedSchema(encoded.getSchema(), null));
    }
    Schema decimal32 = new Schema(List.of(nullable("d32", new ArrowType.Decimal(9, 2, 32))));
    assertThrows(UnsupportedExtensionException.class, () -> TableWriter.create(group(), decimal32, TableOptions.defaults(), allocator));
    try (VectorSchemaRoot two = ints(allocator, List.of("a", "b"), 0, 3, i -> i);
        VectorSchemaRoot floats = VectorSchemaRoot.create(new Schema(List.of(
            nullable("a", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))), allocator);
        TableWriter writer = TableWriter.create(group(), new Schema(List.of(nullable("a", INT32))), TableOptions.defaults(), allocator)) {
      var columns = assertThrows(IllegalArgumentException.class, () -> writer.append(two, null));
      assertTrue(columns.getMessage().contains("2 columns for a table of 1"), columns.getMessage());
      var type = assertThrows(IllegalArgumentException.class, () -> writer.append(floats, null));
      assertTrue(type.getMessage().contains("column 0 ('a')"), type.getMessage());
      writer.finish();
      assertThrows(IllegalStateException.class, () -> writer.append(two, null), "appending after finish");
      assertThrows(IllegalStateException.class, writer::finish, "finishing twice");
    }
    try (VectorSchemaRoot nulls = new VectorSchemaRoot(List.of(new org.apache.arrow.vector.NullVector("n")))) {
      nulls.setRowCount(0);
      var e = assertThrows(IllegalArgumentException.class, () -> TableWriter.write(group(), nulls, TableOptions.defaults()));
      assertTrue(e.getMessage().contains("pass one"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> TableOptions.defaults().withChunkRows(4).withShardRows(6));
    assertThrows(IllegalArgumentException.class, () -> TableOptions.defaults().withChunkRows(0));
  }
}
