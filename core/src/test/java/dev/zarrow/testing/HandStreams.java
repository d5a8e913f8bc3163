package dev.zarrow.testing;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowBodyCompression;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * IPC streams written message by message, for what no library writes on request: deltas and
 * replacements of dictionaries at every depth, ZSTD bodies, sparse union members shorter than the union, a record batch that declares LZ4
 * compression after a good one, a record batch whose lengths exceed its buffers after a good one.
 */
public final class HandStreams {
  private HandStreams() {}

  private static final ArrowType.Int INT8 = new ArrowType.Int(8, true);
  private static final ArrowType.Int INT16 = new ArrowType.Int(16, true);

  /** The schema of {@link #nestedDictionaries}: the stored (message) form. */
  public static Schema nestedDictionarySchema() {
    Field word = new Field("w", new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(3, false, INT8)), List.of());
    Field n = Field.nullable("n", new ArrowType.Int(32, true));
    Field item = new Field("item", new FieldType(true, ArrowType.Struct.INSTANCE, new DictionaryEncoding(2, false, INT16)),
        List.of(word, n));
    Field c = new Field("c", new FieldType(true, ArrowType.List.INSTANCE, new DictionaryEncoding(1, false, INT8)), List.of(item));
    Field f = new Field("f", new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(3, false, INT8)), List.of());
    return new Schema(List.of(c, f));
  }

  /**
   * Column {@code c}: dictionary 1 of lists of dictionary 2 of structs {w: dictionary 3 of strings, n:
   * int32}; column {@code f}: dictionary 3 too (an id shared by a top-level column and a level three
   * deep). Four batches: the first after dictionaries 3, 2, 1; deltas of 3, 2 and 1 before the second;
   * replacements of 3, 2 and 1 before the third; a delta of 1 alone before the fourth. Inner
   * dictionaries always come before the dictionaries that hold their indexes, so readers that bind a
   * nested dictionary when it arrives (apache-arrow) and readers that bind it at each batch (Arrow Java,
   * Arrow C++) read the same values.
   */
  public static byte[] nestedDictionaries(BufferAllocator allocator) throws IOException {
    Out out = new Out();
    out.schema(nestedDictionarySchema());
    out.dictionary(3, strings(allocator, "apple", null, "pear"), false);
    out.dictionary(2, structs(allocator, new Integer[] {0, 2, null}, new Integer[] {1, null, 3}, new boolean[] {true, true, false}), false);
    out.dictionary(1, lists(allocator, new int[][] {{0, 1}, {}, null, {2, 0, 1}}), false);
    out.batch(allocator, new Integer[] {0, 3, null, 1, 2}, new Integer[] {2, 0, null, 1, 0});
    out.dictionary(3, strings(allocator, "fig"), true);
    out.dictionary(2, structs(allocator, new Integer[] {3, 1}, new Integer[] {7, 8}, new boolean[] {true, true}), true);
    out.dictionary(1, lists(allocator, new int[][] {{3, 4, 0}, {4}}), true);
    out.batch(allocator, new Integer[] {4, 5, 0, 3}, new Integer[] {3, null, 3, 0});
    out.dictionary(3, strings(allocator, "x", "yy"), false);
    out.dictionary(2, structs(allocator, new Integer[] {1, 0}, new Integer[] {null, 5}, new boolean[] {true, true}), false);
    out.dictionary(1, lists(allocator, new int[][] {{1, 0, 1}, null}), false);
    out.batch(allocator, new Integer[] {1, 0, 0}, new Integer[] {0, 1, null});
    out.dictionary(1, lists(allocator, new int[][] {{0}}), true);
    out.batch(allocator, new Integer[] {2, 1, null}, new Integer[] {1, 1, 0});
    return out.end();
  }

  /**
   * Two columns ({@code x} int32, {@code s} utf8); a first batch of 3 rows, then a second of 2 rows
   * whose body declares LZ4_FRAME compression (each buffer stored uncompressed after its -1 length
   * prefix, as the format allows): valid Arrow that zarrow does not read.
   */
  public static byte[] lz4MidStream(BufferAllocator allocator) throws IOException {
    Out out = new Out();
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(32, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    out.schema(schema);
    try (VectorSchemaRoot root = twoColumns(schema, allocator, 3)) {
      out.batch(root, null);
      root.setRowCount(2);
      out.batch(root, new ArrowBodyCompression(CompressionType.LZ4_FRAME, BodyCompressionMethod.BUFFER));
    }
    return out.end();
  }

  /**
   * Two columns ({@code x} int32, {@code s} utf8), batches of 3 and 2 rows whose bodies are ZSTD
   * compressed buffer by buffer (pyarrow's and Arrow C++'s {@code compression="zstd"}).
   */
  public static byte[] zstd(BufferAllocator allocator) throws IOException {
    Out out = new Out();
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(32, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    out.schema(schema);
    try (VectorSchemaRoot root = twoColumns(schema, allocator, 3)) {
      ArrowBodyCompression zstd = new ArrowBodyCompression(CompressionType.ZSTD, BodyCompressionMethod.BUFFER);
      out.batch(root, zstd);
      root.setRowCount(2);
      out.batch(root, zstd);
    }
    return out.end();
  }

  /** Like {@link #lz4MidStream}, but the second batch claims 1000 rows over the buffers of 2. */
  public static byte[] overlongMidStream(BufferAllocator allocator) throws IOException {
    Out out = new Out();
    Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(32, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    out.schema(schema);
    try (VectorSchemaRoot root = twoColumns(schema, allocator, 3)) {
      out.batch(root, null);
      root.setRowCount(2);
      try (ArrowRecordBatch good = new VectorUnloader(root).getRecordBatch();
          ArrowRecordBatch bad = new ArrowRecordBatch(1000,
              List.of(new ArrowFieldNode(1000, 0), new ArrowFieldNode(1000, 0)), good.getBuffers())) {
        MessageSerializer.serialize(out.channel, bad);
      }
    }
    return out.end();
  }

  /**
   * One sparse union column {@code u} (type ids 5: int32 {@code i}, 7: utf8 {@code s}) of 6 rows: 1,
   * "a", 2, null, "bb", "c"; the int member holds 3 elements only (the union's first three rows), as
   * apache-arrow's builders leave a member after its last selected element.
   */
  public static byte[] shortUnionMembers(BufferAllocator allocator) throws IOException {
    Field union = new Field("u", FieldType.nullable(new ArrowType.Union(UnionMode.Sparse, new int[] {5, 7})),
        List.of(Field.nullable("i", new ArrowType.Int(32, true)), Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    Out out = new Out();
    out.schema(new Schema(List.of(union)));
    try (IntVector ints = new IntVector("i", allocator);
        VarCharVector strings = new VarCharVector("s", allocator);
        ArrowBuf typeIds = allocator.buffer(8)) {
      int[] members = {5, 7, 5, 7, 7, 7};
      for (int i = 0; i < members.length; i++) {
        typeIds.setByte(i, members[i]);
      }
      typeIds.writerIndex(members.length);
      ints.setSafe(0, 1);
      ints.setSafe(1, 0);
      ints.setSafe(2, 2);
      ints.setValueCount(3);
      String[] texts = {null, "a", null, null, "bb", "c"};
      for (int i = 0; i < texts.length; i++) {
        if (texts[i] == null) {
          strings.setNull(i);
        } else {
          strings.setSafe(i, texts[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      strings.setValueCount(texts.length);
      List<ArrowBuf> buffers = new ArrayList<>(List.of(typeIds));
      buffers.addAll(ints.getFieldBuffers());
      buffers.addAll(strings.getFieldBuffers());
      try (ArrowRecordBatch batch = new ArrowRecordBatch(6,
          List.of(new ArrowFieldNode(6, 0), new ArrowFieldNode(3, 0), new ArrowFieldNode(6, 3)), buffers)) {
        MessageSerializer.serialize(out.channel, batch);
      }
    }
    return out.end();
  }

  private static VectorSchemaRoot twoColumns(Schema schema, BufferAllocator allocator, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    IntVector x = (IntVector) root.getVector(0);
    VarCharVector s = (VarCharVector) root.getVector(1);
    for (int i = 0; i < rows; i++) {
      x.setSafe(i, i * 10);
      s.setSafe(i, ("row " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    root.setRowCount(rows);
    return root;
  }

  private static FieldVector strings(BufferAllocator allocator, String... values) {
    VarCharVector v = new VarCharVector("DICT3", allocator);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        v.setNull(i);
      } else {
        v.setSafe(i, values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  /** Structs {w: index into dictionary 3, n}; {@code valid[i]} false for a null struct. */
  private static FieldVector structs(BufferAllocator allocator, Integer[] w, Integer[] n, boolean[] valid) {
    Field word = new Field("w", new FieldType(true, INT8, new DictionaryEncoding(3, false, INT8)), List.of());
    Field value = new Field("DICT2", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(word, Field.nullable("n", new ArrowType.Int(32, true))));
    StructVector v = (StructVector) value.createVector(allocator);
    TinyIntVector ws = (TinyIntVector) v.getChildrenFromFields().get(0);
    IntVector ns = (IntVector) v.getChildrenFromFields().get(1);
    for (int i = 0; i < valid.length; i++) {
      if (w[i] == null) {
        ws.setNull(i);
      } else {
        ws.setSafe(i, w[i]);
      }
      if (n[i] == null) {
        ns.setNull(i);
      } else {
        ns.setSafe(i, n[i]);
      }
      if (valid[i]) {
        v.setIndexDefined(i);
      } else {
        v.setNull(i);
      }
    }
    ws.setValueCount(valid.length);
    ns.setValueCount(valid.length);
    v.setValueCount(valid.length);
    return v;
  }

  /** Lists of indexes into dictionary 2 (null for a null list). */
  private static FieldVector lists(BufferAllocator allocator, int[][] lists) {
    Field item = new Field("item", new FieldType(true, INT16, new DictionaryEncoding(2, false, INT16)), List.of());
    ListVector v = (ListVector) new Field("DICT1", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item)).createVector(allocator);
    v.allocateNew();
    SmallIntVector items = (SmallIntVector) v.getDataVector();
    int at = 0;
    for (int i = 0; i < lists.length; i++) {
      if (lists[i] == null) {
        v.setNull(i);
        continue;
      }
      v.startNewValue(i);
      for (int x : lists[i]) {
        items.setSafe(at++, x);
      }
      v.endValue(i, lists[i].length);
    }
    items.setValueCount(at);
    v.setValueCount(lists.length);
    return v;
  }

  /** Messages written one by one into memory. */
  private static final class Out {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final WriteChannel channel = new WriteChannel(Channels.newChannel(bytes));
    Schema schema;

    void schema(Schema s) throws IOException {
      schema = s;
      MessageSerializer.serialize(channel, s);
    }

    /** Writes {@code vector} (closing it) as dictionary {@code id}. */
    void dictionary(long id, FieldVector vector, boolean delta) throws IOException {
      try (vector;
          VectorSchemaRoot root = new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), vector.getValueCount());
          ArrowDictionaryBatch batch = new ArrowDictionaryBatch(id, new VectorUnloader(root).getRecordBatch(), delta)) {
        MessageSerializer.serialize(channel, batch);
      }
    }

    /** A batch of the nested-dictionary schema: indexes of column c (into 1) and f (into 3). */
    void batch(BufferAllocator allocator, Integer[] c, Integer[] f) throws IOException {
      List<FieldVector> vectors = new ArrayList<>();
      try {
        for (Integer[] column : List.of(c, f)) {
          TinyIntVector v = new TinyIntVector(column == c ? "c" : "f", allocator);
          for (int i = 0; i < column.length; i++) {
            if (column[i] == null) {
              v.setNull(i);
            } else {
              v.setSafe(i, column[i]);
            }
          }
          v.setValueCount(column.length);
          vectors.add(v);
        }
        try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
          root.setRowCount(c.length);
          batch(root, null);
        }
      } finally {
        vectors.forEach(FieldVector::close);
      }
    }

    /** The root's rows as a record batch; with {@code compression}, every buffer compressed (ZSTD) or stored as is (others) behind its length prefix. */
    void batch(VectorSchemaRoot root, ArrowBodyCompression compression) throws IOException {
      try (ArrowRecordBatch plain = new VectorUnloader(root).getRecordBatch()) {
        if (compression == null) {
          MessageSerializer.serialize(channel, plain);
          return;
        }
        List<ArrowBuf> prefixed = new ArrayList<>();
        try {
          for (ArrowBuf b : plain.getBuffers()) {
            byte[] raw = new byte[(int) b.readableBytes()];
            b.getBytes(0, raw);
            // ZSTD: the uncompressed length, then the frame; otherwise -1, then the bytes as they are.
            boolean packs = compression.getCodec() == CompressionType.ZSTD;
            byte[] stored = packs ? Zstd.compress(raw) : raw;
            ArrowBuf p = root.getVector(0).getAllocator().buffer(raw.length == 0 ? 0 : stored.length + 8);
            if (raw.length > 0) {
              p.setLong(0, packs ? raw.length : -1L);
              p.setBytes(8, stored);
              p.writerIndex(stored.length + 8);
            }
            prefixed.add(p);
          }
          try (ArrowRecordBatch compressed = new ArrowRecordBatch(plain.getLength(), plain.getNodes(), prefixed, compression)) {
            MessageSerializer.serialize(channel, compressed);
          }
        } finally {
          prefixed.forEach(ArrowBuf::close);
        }
      }
    }

    byte[] end() throws IOException {
      channel.writeIntLittleEndian(-1);
      channel.writeIntLittleEndian(0);
      return bytes.toByteArray();
    }
  }
}
