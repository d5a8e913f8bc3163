package dev.zarrow.ipc;

import com.github.luben.zstd.Zstd;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Gather;
import dev.zarrow.vector.Move;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Loads record batches of an IPC stream held in Arrow memory into vectors without copying their
 * bodies: the body is a slice of the stream's memory, handed to {@link
 * MessageSerializer#deserializeRecordBatch(RecordBatch, ArrowBuf)}, whose buffers go to the
 * vectors' {@code loadFieldBuffers} as {@code VectorLoader} would hand them, so the loaded vectors
 * point into the stream (and keep it alive until they are closed).
 *
 * <p>Before anything is loaded, the batch's layout is checked against the fields: node and buffer
 * counts, node lengths and null counts, every buffer inside the body, and the memory that loading
 * will allocate (Arrow Java materializes absent validity bitmaps, decompression makes new buffers,
 * short sparse union members are lengthened) against a budget. After loading, {@link VectorChecks}
 * checks every offset, size, type id and run end. ZSTD-compressed bodies are decompressed with
 * zstd-jni; LZ4 is refused.
 *
 * <p>apache-arrow (JS) ends a sparse union's member where its last selected element is, so members
 * may be shorter than the union (Arrow Java's own loader fails on them); they are lengthened with
 * blank elements, as every reader of a vector expects.
 */
public final class BatchLoader {
  private final ArrowBuf stream;
  private final BufferAllocator allocator;
  private final long budget;
  private long spent;

  /**
   * @param stream the memory the bodies lie in (borrowed)
   * @param budget the most bytes loading may allocate over all batches
   */
  public BatchLoader(ArrowBuf stream, BufferAllocator allocator, long budget) {
    this.stream = stream;
    this.allocator = allocator;
    this.budget = budget;
  }

  /**
   * The one-column batch {@code batch} (body at {@code bodyStart}, {@code bodyLength} bytes of the
   * stream; message at byte {@code at}) loaded and checked as a vector of {@code field} (indexed
   * form), owned by the caller.
   */
  public FieldVector load(RecordBatch batch, long bodyStart, long bodyLength, Field field, long at, String what) {
    return loadColumns(batch, bodyStart, bodyLength, List.of(field), at, what).get(0);
  }

  /**
   * The record batch {@code batch} loaded and checked as one vector per field of {@code fields}
   * (indexed form: a schema's columns), owned by the caller.
   */
  public List<FieldVector> loadColumns(
      RecordBatch batch, long bodyStart, long bodyLength, List<Field> fields, long at, String what) {
    List<Field> preorder = new ArrayList<>();
    List<Integer> tops = new ArrayList<>();
    for (Field field : fields) {
      tops.add(preorder.size());
      preorder(field, preorder);
    }
    boolean compressed = layout(batch, bodyStart, bodyLength, preorder, tops, at, what);
    ArrowBuf body = stream.slice(bodyStart, bodyLength);
    body.getReferenceManager().retain(); // deserializeRecordBatch releases the body once
    ArrowRecordBatch loaded;
    try {
      loaded = MessageSerializer.deserializeRecordBatch(batch, body);
    } catch (IOException | RuntimeException e) {
      body.getReferenceManager().release();
      throw IpcMessages.corrupt(at, what + ": " + e.getMessage());
    }
    if (compressed) {
      loaded = decompress(loaded, at, what);
    }
    List<FieldVector> vectors = new ArrayList<>();
    try {
      try (ArrowRecordBatch b = loaded) {
        Iterator<ArrowBuf> buffers = b.getBuffers().iterator();
        Iterator<ArrowFieldNode> nodes = b.getNodes().iterator();
        Iterator<Long> variadic = b.getVariadicBufferCounts() == null ? Collections.emptyIterator()
            : b.getVariadicBufferCounts().iterator();
        for (Field field : fields) {
          FieldVector vector = Fields.createVector(field, allocator);
          vectors.add(vector);
          loadInto(vector, field, nodes, buffers, variadic);
        }
      } catch (IllegalArgumentException | IllegalStateException | UnsupportedOperationException e) {
        throw IpcMessages.corrupt(at, what + ": " + e.getMessage());
      }
      for (int i = 0; i < fields.size(); i++) {
        String path = what + " at byte " + at + (fields.size() == 1 ? "" : ", column " + i);
        VectorChecks.check(vectors.get(i), fields.get(i), path);
        lengthenUnionMembers(vectors.get(i), fields.get(i), at, what);
      }
      return vectors;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  /**
   * Lengthens, with blank elements, every sparse union member in {@code v} (checked) that is shorter
   * than its union, innermost first.
   */
  private void lengthenUnionMembers(FieldVector v, Field field, long at, String what) {
    List<FieldVector> children = v.getChildrenFromFields();
    for (int i = 0; i < children.size(); i++) {
      lengthenUnionMembers(children.get(i), field.getChildren().get(i), at, what);
    }
    if (!(v instanceof UnionVector)) {
      return;
    }
    int n = v.getValueCount();
    for (int i = 0; i < children.size(); i++) {
      FieldVector member = children.get(i);
      int have = member.getValueCount();
      if (have >= n) {
        continue;
      }
      Field memberField = field.getChildren().get(i);
      spend(times(n - have, blankBytes(memberField)), at, what);
      try (FieldVector longer = Gather.gather(memberField,
          List.of(new Gather.Run(member, 0, have), Gather.Run.blank(n - have)), allocator)) {
        Move.into(longer, member);
      }
    }
  }

  /** An upper bound of the bytes one blank element of {@code field} takes in its buffers. */
  private static long blankBytes(Field field) {
    ArrowType type = field.getType();
    long bytes = 0;
    for (BufferLayout layout : TypeLayout.getTypeLayout(type).getBufferLayouts()) {
      bytes += Math.max(1, layout.getTypeBitWidth() / 8);
    }
    long children = 0;
    for (Field child : field.getChildren()) {
      children += blankBytes(child);
    }
    if (type instanceof ArrowType.FixedSizeList list) {
      return Math.min(Long.MAX_VALUE / 2, bytes + times(list.getListSize(), children));
    }
    boolean hasOwnElements = type instanceof ArrowType.Struct
        || type instanceof ArrowType.Union u && u.getMode() == UnionMode.Sparse;
    return Math.min(Long.MAX_VALUE / 2, bytes + (hasOwnElements ? children : 0));
  }

  /** {@code a * b} for non-negative factors, at most {@code Long.MAX_VALUE / 2} (a budget check, not arithmetic). */
  private static long times(long a, long b) {
    return b != 0 && a > Long.MAX_VALUE / 2 / b ? Long.MAX_VALUE / 2 : a * b;
  }

  private void spend(long bytes, long at, String what) {
    spent = Math.min(Long.MAX_VALUE / 2, spent + bytes);
    if (spent > budget) {
      throw IpcMessages.corrupt(at, what + " would make Arrow allocate " + spent
          + " bytes in all, more than the limit of " + budget);
    }
  }

  /**
   * Hands each vector of the tree its node and buffers, as {@code VectorLoader} does, but without
   * its final {@code setRowCount}: that reads offsets and grows buffers to fit them before anything
   * could check them (a list whose last offset exceeds its child would have the child reallocated).
   * The layout was checked against the field, so every iterator has what the field needs.
   */
  private static void loadInto(
      FieldVector vector, Field field, Iterator<ArrowFieldNode> nodes, Iterator<ArrowBuf> buffers,
      Iterator<Long> variadic) {
    int count = TypeLayout.getTypeBufferCount(field.getType());
    if (isView(field.getType())) {
      count += (int) (long) variadic.next();
    }
    List<ArrowBuf> own = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      own.add(buffers.next());
    }
    vector.loadFieldBuffers(nodes.next(), own);
    List<FieldVector> children = vector.getChildrenFromFields();
    for (int i = 0; i < field.getChildren().size(); i++) {
      loadInto(children.get(i), field.getChildren().get(i), nodes, buffers, variadic);
    }
  }

  private static void preorder(Field field, List<Field> out) {
    out.add(field);
    for (Field child : field.getChildren()) {
      preorder(child, out);
    }
  }

  private static boolean isView(ArrowType type) {
    return type instanceof ArrowType.Utf8View || type instanceof ArrowType.BinaryView;
  }

  private static boolean hasValidity(ArrowType type) {
    List<BufferLayout.BufferType> types = TypeLayout.getTypeLayout(type).getBufferTypes();
    return !types.isEmpty() && types.get(0) == BufferLayout.BufferType.VALIDITY;
  }

  /**
   * Checks the batch against the fields (preorder; {@code tops} the positions of the columns); returns
   * whether its body is compressed.
   */
  private boolean layout(
      RecordBatch batch, long bodyStart, long bodyLength, List<Field> fields, List<Integer> tops, long at, String what) {
    try {
      long rows = batch.length();
      if (rows < 0 || rows > Integer.MAX_VALUE) {
        throw IpcMessages.corrupt(at, what + " has " + rows + " rows");
      }
      int nodes = batch.nodesLength();
      if (nodes != fields.size()) {
        throw IpcMessages.corrupt(at, what + " has " + nodes + " field nodes, the field needs " + fields.size());
      }
      long[] lengths = new long[nodes];
      long[] nulls = new long[nodes];
      FieldNode node = new FieldNode();
      for (int i = 0; i < nodes; i++) {
        batch.nodes(node, i);
        lengths[i] = node.length();
        nulls[i] = node.nullCount();
        // Nulls of the null type are all its elements: apache-arrow writes -1 there.
        boolean counted = !(fields.get(i).getType() instanceof ArrowType.Null);
        if (lengths[i] < 0 || lengths[i] > Integer.MAX_VALUE || counted && (nulls[i] < 0 || nulls[i] > lengths[i])) {
          throw IpcMessages.corrupt(at, what + ": field node " + i + " has length " + lengths[i] + " and "
              + nulls[i] + " nulls");
        }
      }
      for (int k = 0; k < tops.size(); k++) {
        long length = lengths[tops.get(k)];
        if (length != rows) {
          throw IpcMessages.corrupt(at, what + " has " + rows + " rows but " + (tops.size() == 1 ? "its column "
              : "its column " + k + " has ") + length);
        }
      }
      int buffers = batch.buffersLength();
      int views = 0;
      for (Field f : fields) {
        views += isView(f.getType()) ? 1 : 0;
      }
      int variadic = batch.variadicBufferCountsLength();
      if (variadic != views) {
        throw IpcMessages.corrupt(at, what + " has " + variadic + " variadic buffer counts for " + views + " view fields");
      }
      long expected = 0;
      long[] extra = new long[variadic];
      for (int i = 0; i < variadic; i++) {
        extra[i] = batch.variadicBufferCounts(i);
        if (extra[i] < 0 || extra[i] > buffers) {
          throw IpcMessages.corrupt(at, what + ": variadic buffer count " + extra[i]);
        }
        expected += extra[i];
      }
      for (Field f : fields) {
        expected += TypeLayout.getTypeBufferCount(f.getType());
      }
      if (buffers != expected) {
        throw IpcMessages.corrupt(at, what + " has " + buffers + " buffers, the field needs " + expected);
      }
      long[] offsets = new long[buffers];
      long[] sizes = new long[buffers];
      Buffer buffer = new Buffer();
      for (int i = 0; i < buffers; i++) {
        batch.buffers(buffer, i);
        offsets[i] = buffer.offset();
        sizes[i] = buffer.length();
        if (offsets[i] < 0 || sizes[i] < 0 || offsets[i] > bodyLength || sizes[i] > bodyLength - offsets[i]) {
          throw IpcMessages.corrupt(at, what + ": buffer " + i + " (offset " + offsets[i] + ", length " + sizes[i]
              + ") lies outside the body of " + bodyLength + " bytes");
        }
      }
      boolean compressed = compression(batch.compression(), at, what);
      // What loading allocates: bitmaps Arrow Java makes for absent validity buffers...
      long bitmaps = 0;
      int b = 0;
      int v = 0;
      for (int i = 0; i < nodes; i++) {
        ArrowType type = fields.get(i).getType();
        if (hasValidity(type) && sizes[b] == 0 && (nulls[i] == 0 || nulls[i] == lengths[i])) {
          bitmaps += (lengths[i] + 7) / 8;
        }
        b += TypeLayout.getTypeBufferCount(type) + (isView(type) ? (int) extra[v++] : 0);
      }
      // ...which legitimate data pays for with values in the body (n child values carry at least
      // n bits), or at most one bit per row and node.
      long fair = bodyLength + nodes * ((rows + 7) / 8 + 8);
      if (bitmaps > fair) {
        throw IpcMessages.corrupt(at, what + ": its field nodes claim about " + bitmaps * 8
            + " elements without validity bitmaps, more than its body and rows account for");
      }
      // ...and decompressed buffers.
      long decompressed = 0;
      if (compressed) {
        for (int i = 0; i < buffers; i++) {
          if (sizes[i] == 0) {
            continue;
          }
          if (sizes[i] < 8) {
            throw IpcMessages.corrupt(at, what + ": compressed buffer " + i + " has " + sizes[i]
                + " bytes, less than its 8-byte length prefix");
          }
          long plain = stream.getLong(bodyStart + offsets[i]);
          if (plain < -1 || plain > Integer.MAX_VALUE - 8) {
            throw IpcMessages.corrupt(at, what + ": compressed buffer " + i + " declares " + plain + " bytes");
          }
          decompressed += Math.max(plain, 0);
        }
      }
      spend(bitmaps + decompressed, at, what);
      return compressed;
    } catch (CorruptChunkException | UnsupportedExtensionException e) {
      throw e;
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, what + ": unreadable record batch metadata (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static boolean compression(BodyCompression compression, long at, String what) {
    if (compression == null) {
      return false;
    }
    byte codec = compression.codec();
    if (compression.method() != BodyCompressionMethod.BUFFER) {
      throw IpcMessages.corrupt(at, what + ": unknown body compression method " + compression.method());
    }
    if (codec == CompressionType.ZSTD) {
      return true;
    }
    if (codec == CompressionType.LZ4_FRAME) {
      throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + at + ": " + what
          + " is compressed with LZ4_FRAME, which zarrow does not read (supported: uncompressed, ZSTD)");
    }
    throw IpcMessages.corrupt(at, what + ": unknown body compression codec " + codec);
  }

  /** The batch with every compressed buffer decompressed (ZSTD); closes {@code batch}. */
  private ArrowRecordBatch decompress(ArrowRecordBatch batch, long at, String what) {
    List<ArrowBuf> plain = new ArrayList<>();
    try (batch) {
      for (ArrowBuf buf : batch.getBuffers()) {
        long size = buf.capacity();
        if (size == 0) {
          plain.add(allocator.getEmpty());
          continue;
        }
        long length = buf.getLong(0);
        if (length == -1) { // stored raw after the prefix
          ArrowBuf raw = buf.slice(8, size - 8);
          raw.getReferenceManager().retain();
          plain.add(raw);
        } else if (length == 0) {
          plain.add(allocator.getEmpty());
        } else {
          ArrowBuf out = allocator.buffer(length);
          plain.add(out);
          long n = Zstd.decompressDirectByteBuffer(
              out.nioBuffer(0, (int) length), 0, (int) length, buf.nioBuffer(8, (int) (size - 8)), 0, (int) (size - 8));
          if (Zstd.isError(n) || n != length) {
            throw IpcMessages.corrupt(at, what + ": a ZSTD buffer does not decompress to its declared " + length
                + " bytes" + (Zstd.isError(n) ? " (" + Zstd.getErrorName(n) + ")" : ""));
          }
          out.writerIndex(length);
        }
      }
      return new ArrowRecordBatch(batch.getLength(), batch.getNodes(), plain,
          NoCompressionCodec.DEFAULT_BODY_COMPRESSION, batch.getVariadicBufferCounts(), false);
    } finally {
      plain.forEach(ArrowBuf::close);
    }
  }
}
