package dev.zarrow.vector;

import dev.zarrow.memory.Buffers;
import dev.zarrow.error.CodecException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Builds a vector from runs of elements of other vectors, for every Arrow type Arrow Java has a
 * vector for (fixed and variable width, views, lists, list views, fixed-size lists, maps, structs,
 * sparse and dense unions, run-end encoded, null). The buffers are written directly (bulk copies of
 * values, offsets rebased) and loaded with {@code loadFieldBuffers}, so nothing depends on Arrow
 * Java's element copiers, which are missing or wrong for several types ({@code NullVector},
 * unions, list views, run-end encoded).
 *
 * <p>A {@linkplain Run#blank blank} run stands for elements that hold nothing: null where the field
 * is nullable, otherwise the zero value of its type (0, false, empty string or list, a struct of
 * blank children, a union whose first member is blank). That is the {@code null} fill value of the
 * {@code arrow} data type.
 */
public final class Gather {
  private Gather() {}

  /**
   * {@code length} consecutive elements of {@code source} from {@code start}, or, when
   * {@code source} is null, {@code length} blank elements.
   */
  public record Run(FieldVector source, int start, int length) {
    public Run {
      if (start < 0 || length < 0) {
        throw new IllegalArgumentException("run from " + start + " of length " + length);
      }
      if (source != null && (long) start + length > source.getValueCount()) {
        throw new IllegalArgumentException("run [" + start + ", " + (start + length)
            + ") outside a vector of " + source.getValueCount() + " elements");
      }
    }

    /** {@code length} blank elements (null where nullable, else zero or empty). */
    public static Run blank(int length) {
      return new Run(null, 0, length);
    }

    /** All of {@code source}. */
    public static Run of(FieldVector source) {
      return new Run(source, 0, source.getValueCount());
    }
  }

  /**
   * A new vector of {@code field} (owned by the caller) holding the elements of {@code runs} in
   * order. Sources are borrowed; their types must be the field's (names may differ).
   */
  public static FieldVector gather(Field field, List<Run> runs, BufferAllocator allocator) {
    FieldVector out = Fields.createVector(field, allocator);
    try {
      fill(out, field, coalesce(runs), allocator);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** {@code count} blank elements of {@code field}: the null fill of the arrow data type. */
  public static FieldVector blank(Field field, int count, BufferAllocator allocator) {
    return gather(field, List.of(Run.blank(count)), allocator);
  }

  /** Fills {@code out}, a fresh vector of {@code field}, with the elements of {@code runs}. */
  static void fillInto(FieldVector out, Field field, List<Run> runs, BufferAllocator allocator) {
    fill(out, field, coalesce(runs), allocator);
  }

  /** Joins runs that continue each other, so that bulk copies stay long. */
  private static List<Run> coalesce(List<Run> runs) {
    List<Run> out = new ArrayList<>(runs.size());
    Run last = null;
    for (Run r : runs) {
      if (r.length == 0) {
        continue;
      }
      if (last != null && last.source == r.source
          && (r.source == null || last.start + last.length == r.start)) {
        last = new Run(r.source, last.start, last.length + r.length);
        out.set(out.size() - 1, last);
      } else {
        last = r;
        out.add(r);
      }
    }
    return out;
  }

  private static long total(List<Run> runs) {
    long n = 0;
    for (Run r : runs) {
      n += r.length;
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(n + " elements do not fit one Arrow vector");
    }
    return n;
  }

  private static void checkSources(FieldVector out, List<Run> runs) {
    for (Run r : runs) {
      if (r.source != null && r.source.getClass() != out.getClass()) {
        throw new IllegalArgumentException("cannot gather a " + r.source.getField().getType()
            + " vector into a " + out.getField().getType() + " vector");
      }
    }
  }

  private static void fill(FieldVector out, Field field, List<Run> runs, BufferAllocator allocator) {
    checkSources(out, runs);
    int total = (int) total(runs);
    boolean nullable = field.isNullable();
    if (out instanceof NullVector) {
      out.loadFieldBuffers(new ArrowFieldNode(total, total), List.of());
    } else if (out instanceof BitVector || out instanceof BaseFixedWidthVector) {
      fixedWidth(out, nullable, runs, total, allocator);
    } else if (out instanceof BaseVariableWidthVector || out instanceof BaseLargeVariableWidthVector) {
      variableWidth(out, nullable, runs, total, out instanceof BaseLargeVariableWidthVector, allocator);
    } else if (out instanceof BaseVariableWidthViewVector) {
      views(out, nullable, runs, total, allocator);
    } else if (out instanceof ListVector || out instanceof LargeListVector) {
      list(out, field, runs, total, out instanceof LargeListVector, allocator);
    } else if (out instanceof ListViewVector || out instanceof LargeListViewVector) {
      listView(out, field, runs, total, out instanceof LargeListViewVector, allocator);
    } else if (out instanceof FixedSizeListVector fsl) {
      fixedSizeList(fsl, field, runs, total, allocator);
    } else if (out instanceof StructVector) {
      struct(out, field, runs, total, allocator);
    } else if (out instanceof UnionVector) {
      sparseUnion(out, field, runs, total, allocator);
    } else if (out instanceof DenseUnionVector) {
      denseUnion((DenseUnionVector) out, field, runs, total, allocator);
    } else if (out instanceof RunEndEncodedVector) {
      runEndEncoded((RunEndEncodedVector) out, field, runs, total, allocator);
    } else {
      throw new IllegalArgumentException("cannot gather vectors of type " + field.getType());
    }
  }

  // ---- validity ----

  /** A validity bitmap for the runs: source bits copied, blank runs valid unless nullable. */
  private static ArrowBuf validity(List<Run> runs, int total, boolean nullable, BufferAllocator allocator) {
    ArrowBuf bits = alloc(allocator, BitVectorHelper.getValidityBufferSize(total));
    bits.setZero(0, bits.capacity());
    Map<FieldVector, Boolean> noNulls = new IdentityHashMap<>();
    long at = 0;
    for (Run r : runs) {
      if (r.source == null) {
        if (!nullable) {
          Regions.setBits(bits, at, r.length);
        }
      } else if (noNulls.computeIfAbsent(r.source, v -> !Buffers.hasNulls(v))) {
        Regions.setBits(bits, at, r.length);
      } else {
        copyBits(r.source.getValidityBuffer(), r.start, bits, at, r.length);
      }
      at += r.length;
    }
    return bits;
  }

  /** Copies {@code n} bits; whole bytes at once when both ends are byte-aligned. */
  static void copyBits(ArrowBuf src, long srcBit, ArrowBuf dst, long dstBit, long n) {
    long i = 0;
    if ((srcBit & 7) == 0 && (dstBit & 7) == 0) {
      long bytes = n >>> 3;
      dst.setBytes(dstBit >>> 3, src, srcBit >>> 3, bytes);
      i = bytes << 3;
    }
    for (; i < n; i++) {
      if (BitVectorHelper.get(src, (int) (srcBit + i)) != 0) {
        BitVectorHelper.setBit(dst, dstBit + i);
      }
    }
  }

  /** A new buffer whose writer index marks {@code size} bytes as its content (what IPC writes). */
  private static ArrowBuf alloc(BufferAllocator allocator, long size) {
    ArrowBuf buf = allocator.buffer(size);
    buf.writerIndex(size);
    return buf;
  }

  /** {@link #alloc} for a buffer the caller writes whole: exact size, not zeroed (see {@link Buffers#allocateUninitialized}). */
  private static ArrowBuf allocOverwritten(BufferAllocator allocator, long size) {
    ArrowBuf buf = Buffers.allocateUninitialized(allocator, size);
    buf.writerIndex(size);
    return buf;
  }

  /**
   * Offsets {@code from .. from + count - 1} of {@code src} plus {@code delta} into {@code dst} from
   * index {@code to}: one loop over addresses, the ranges checked once instead of per element.
   */
  private static void rebase(ArrowBuf src, int from, ArrowBuf dst, int to, int count, long delta, boolean large) {
    int w = large ? 8 : 4;
    if (((long) from + count) * w > src.capacity() || ((long) to + count) * w > dst.capacity()) {
      throw new IllegalArgumentException("offsets [" + from + ", " + (from + count) + ") outside a buffer of " + src.capacity() + " bytes");
    }
    long s = src.memoryAddress() + (long) from * w;
    long d = dst.memoryAddress() + (long) to * w;
    if (large) {
      for (int i = 0; i < count; i++) {
        MemoryUtil.putLong(d + 8L * i, MemoryUtil.getLong(s + 8L * i) + delta);
      }
    } else {
      int shift = (int) delta; // every result fits: the total data was checked against 2^31 - 1
      for (int i = 0; i < count; i++) {
        MemoryUtil.putInt(d + 4L * i, MemoryUtil.getInt(s + 4L * i) + shift);
      }
    }
  }

  private static void load(FieldVector out, int total, List<ArrowBuf> buffers) {
    try {
      // The node's null count only matters for an absent validity buffer, which we never pass.
      out.loadFieldBuffers(new ArrowFieldNode(total, 0), buffers);
    } finally {
      buffers.forEach(ArrowBuf::close);
    }
  }

  // ---- leaves ----

  private static void fixedWidth(FieldVector out, boolean nullable, List<Run> runs, int total, BufferAllocator allocator) {
    ArrowBuf valid = validity(runs, total, nullable, allocator);
    ArrowBuf data;
    if (out instanceof BitVector) {
      data = alloc(allocator, BitVectorHelper.getValidityBufferSize(total));
      data.setZero(0, data.capacity());
      long at = 0;
      for (Run r : runs) {
        if (r.source != null) {
          copyBits(r.source.getDataBuffer(), r.start, data, at, r.length);
        }
        at += r.length;
      }
    } else {
      int width = ((BaseFixedWidthVector) out).getTypeWidth();
      data = alloc(allocator, (long) total * width);
      long at = 0;
      for (Run r : runs) {
        if (r.source == null) {
          data.setZero(at * width, (long) r.length * width);
        } else {
          data.setBytes(at * width, r.source.getDataBuffer(), (long) r.start * width, (long) r.length * width);
        }
        at += r.length;
      }
    }
    load(out, total, List.of(valid, data));
  }

  private static long offset(FieldVector v, int index, boolean large) {
    return large ? v.getOffsetBuffer().getLong((long) index * 8) : v.getOffsetBuffer().getInt((long) index * 4);
  }

  private static void putOffset(ArrowBuf offsets, int index, long value, boolean large) {
    if (large) {
      offsets.setLong((long) index * 8, value);
    } else {
      if (value > Integer.MAX_VALUE) {
        throw new CodecException("more than 2^31 - 1 bytes or children in one vector with 32-bit offsets:"
            + " read a smaller region, or store the data with 64-bit offsets (large_string, large_binary, largelist)");
      }
      offsets.setInt((long) index * 4, (int) value);
    }
  }

  private static void variableWidth(
      FieldVector out, boolean nullable, List<Run> runs, int total, boolean large, BufferAllocator allocator) {
    int w = large ? 8 : 4;
    long bytes = 0;
    for (Run r : runs) {
      if (r.source != null) {
        bytes += offset(r.source, r.start + r.length, large) - offset(r.source, r.start, large);
      }
    }
    if (!large && bytes > Integer.MAX_VALUE) {
      throw new CodecException("the region holds " + bytes + " bytes of variable-length data, more than a vector with"
          + " 32-bit offsets holds (2^31 - 1): read a smaller region, or store the data as large_string or large_binary");
    }
    ArrowBuf valid = validity(runs, total, nullable, allocator);
    // Both are written whole below: no need for the pool's zeroed memory.
    ArrowBuf offsets = allocOverwritten(allocator, (long) (total + 1) * w);
    ArrowBuf data = allocOverwritten(allocator, bytes);
    int at = 0;
    long end = 0;
    putOffset(offsets, 0, 0, large);
    for (Run r : runs) {
      if (r.source == null) {
        for (int i = 0; i < r.length; i++) {
          putOffset(offsets, ++at, end, large);
        }
        continue;
      }
      long first = offset(r.source, r.start, large);
      long last = offset(r.source, r.start + r.length, large);
      data.setBytes(end, r.source.getDataBuffer(), first, last - first);
      rebase(r.source.getOffsetBuffer(), r.start + 1, offsets, at + 1, r.length, end - first, large);
      at += r.length;
      end += last - first;
    }
    load(out, total, List.of(valid, offsets, data));
  }

  private static final int VIEW = 16;
  private static final int INLINE = 12;

  private static void views(FieldVector out, boolean nullable, List<Run> runs, int total, BufferAllocator allocator) {
    long bytes = 0;
    for (Run r : runs) {
      if (r.source == null) {
        continue;
      }
      ArrowBuf views = r.source.getDataBuffer();
      for (int i = r.start; i < r.start + r.length; i++) {
        int length = views.getInt((long) i * VIEW);
        if (!r.source.isNull(i) && length > INLINE) {
          bytes += length;
        }
      }
    }
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(bytes + " bytes do not fit one view data buffer");
    }
    ArrowBuf valid = validity(runs, total, nullable, allocator);
    ArrowBuf views = alloc(allocator, (long) total * VIEW);
    views.setZero(0, (long) total * VIEW);
    ArrowBuf data = alloc(allocator, bytes);
    long at = 0;
    long end = 0;
    for (Run r : runs) {
      if (r.source == null) {
        at += r.length;
        continue;
      }
      BaseVariableWidthViewVector src = (BaseVariableWidthViewVector) r.source;
      ArrowBuf from = src.getDataBuffer();
      for (int i = r.start; i < r.start + r.length; i++, at++) {
        if (src.isNull(i)) {
          continue;
        }
        int length = from.getInt((long) i * VIEW);
        if (length <= INLINE) {
          views.setBytes(at * VIEW, from, (long) i * VIEW, VIEW);
        } else {
          int buffer = from.getInt((long) i * VIEW + 8);
          int offset = from.getInt((long) i * VIEW + 12);
          data.setBytes(end, src.getDataBuffers().get(buffer), offset, length);
          views.setInt(at * VIEW, length);
          views.setInt(at * VIEW + 4, from.getInt((long) i * VIEW + 4)); // the 4-byte prefix
          views.setInt(at * VIEW + 8, 0);
          views.setInt(at * VIEW + 12, (int) end);
          end += length;
        }
      }
    }
    load(out, total, bytes == 0 ? List.of(valid, views) : List.of(valid, views, data));
    if (bytes == 0) {
      data.close();
    }
  }

  // ---- nested ----

  private static Field child(Field field, int i) {
    return field.getChildren().get(i);
  }

  private static FieldVector childOf(FieldVector v, int i) {
    return v.getChildrenFromFields().get(i);
  }

  private static void list(FieldVector out, Field field, List<Run> runs, int total, boolean large, BufferAllocator allocator) {
    int w = large ? 8 : 4;
    ArrowBuf valid = validity(runs, total, field.isNullable(), allocator);
    ArrowBuf offsets = alloc(allocator, (long) (total + 1) * w);
    List<Run> childRuns = new ArrayList<>();
    int at = 0;
    long end = 0;
    putOffset(offsets, 0, 0, large);
    for (Run r : runs) {
      if (r.source == null) {
        for (int i = 0; i < r.length; i++) {
          putOffset(offsets, ++at, end, large);
        }
        continue;
      }
      long first = offset(r.source, r.start, large);
      long last = offset(r.source, r.start + r.length, large);
      for (int i = 1; i <= r.length; i++) {
        putOffset(offsets, ++at, end + offset(r.source, r.start + i, large) - first, large);
      }
      childRuns.add(new Run(childOf(r.source, 0), Math.toIntExact(first), Math.toIntExact(last - first)));
      end += last - first;
    }
    load(out, total, List.of(valid, offsets));
    fill(childOf(out, 0), child(field, 0), coalesce(childRuns), allocator);
  }

  private static void listView(FieldVector out, Field field, List<Run> runs, int total, boolean large, BufferAllocator allocator) {
    int w = large ? 8 : 4;
    ArrowBuf valid = validity(runs, total, field.isNullable(), allocator);
    ArrowBuf offsets = alloc(allocator, (long) total * w);
    ArrowBuf sizes = alloc(allocator, (long) total * w);
    List<Run> childRuns = new ArrayList<>();
    int at = 0;
    long end = 0;
    for (Run r : runs) {
      for (int i = 0; i < r.length; i++, at++) {
        long size = 0;
        if (r.source != null && !r.source.isNull(r.start + i)) {
          long from = large ? r.source.getOffsetBuffer().getLong((long) (r.start + i) * 8)
              : r.source.getOffsetBuffer().getInt((long) (r.start + i) * 4);
          ArrowBuf sourceSizes = sizeBuffer(r.source);
          size = large ? sourceSizes.getLong((long) (r.start + i) * 8) : sourceSizes.getInt((long) (r.start + i) * 4);
          childRuns.add(new Run(childOf(r.source, 0), Math.toIntExact(from), Math.toIntExact(size)));
        }
        putView(offsets, at, end, large);
        putView(sizes, at, size, large);
        end += size;
      }
    }
    load(out, total, List.of(valid, offsets, sizes));
    fill(childOf(out, 0), child(field, 0), coalesce(childRuns), allocator);
  }

  private static ArrowBuf sizeBuffer(FieldVector v) {
    return v instanceof ListViewVector l ? l.getSizeBuffer() : ((LargeListViewVector) v).getSizeBuffer();
  }

  private static void putView(ArrowBuf buf, int index, long value, boolean large) {
    if (large) {
      buf.setLong((long) index * 8, value);
    } else {
      if (value > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("more than 2^31 - 1 children in one list view");
      }
      buf.setInt((long) index * 4, (int) value);
    }
  }

  private static void fixedSizeList(FixedSizeListVector out, Field field, List<Run> runs, int total, BufferAllocator allocator) {
    int size = out.getListSize();
    ArrowBuf valid = validity(runs, total, field.isNullable(), allocator);
    List<Run> childRuns = new ArrayList<>();
    for (Run r : runs) {
      int n = Math.multiplyExact(r.length, size);
      childRuns.add(r.source == null ? Run.blank(n)
          : new Run(childOf(r.source, 0), Math.multiplyExact(r.start, size), n));
    }
    load(out, total, List.of(valid));
    fill(childOf(out, 0), child(field, 0), coalesce(childRuns), allocator);
  }

  private static void struct(FieldVector out, Field field, List<Run> runs, int total, BufferAllocator allocator) {
    ArrowBuf valid = validity(runs, total, field.isNullable(), allocator);
    load(out, total, List.of(valid));
    sameRunsIntoChildren(out, field, runs, allocator);
  }

  private static void sameRunsIntoChildren(FieldVector out, Field field, List<Run> runs, BufferAllocator allocator) {
    List<FieldVector> children = out.getChildrenFromFields();
    for (int c = 0; c < children.size(); c++) {
      List<Run> childRuns = new ArrayList<>(runs.size());
      for (Run r : runs) {
        childRuns.add(r.source == null ? r : new Run(childOf(r.source, c), r.start, r.length));
      }
      fill(children.get(c), child(field, c), childRuns, allocator);
    }
  }

  /** The type id of each member of a union field, by position. */
  private static int[] typeIds(Field field) {
    int[] ids = ((ArrowType.Union) field.getType()).getTypeIds();
    if (ids == null) {
      throw new IllegalArgumentException("union " + field + " has no type ids");
    }
    return ids;
  }

  /**
   * Maps the type ids in a source union's type buffer to member positions. Arrow Java numbers the
   * members of a sparse union built through its writers by its own type ordinals and reports those
   * in {@code getField()}, while vectors made from a field use the field's ids; asking the vector
   * which member an id selects works for both.
   */
  private static final class Members {
    private final FieldVector union;
    private final int[] position = new int[256];

    Members(FieldVector union) {
      this.union = union;
      java.util.Arrays.fill(position, -2);
    }

    int of(byte id) {
      int p = position[id & 0xff];
      if (p == -2) {
        Object member = union instanceof UnionVector u ? u.getVectorByType(id)
            : ((DenseUnionVector) union).getVectorByType(id);
        p = -1;
        for (int i = 0; i < union.getChildrenFromFields().size(); i++) {
          if (union.getChildrenFromFields().get(i) == member) {
            p = i;
          }
        }
        position[id & 0xff] = p;
      }
      if (p < 0) {
        throw new IllegalArgumentException("type id " + id + " selects no member of " + union.getField().getType());
      }
      return p;
    }
  }

  private static void sparseUnion(FieldVector out, Field field, List<Run> runs, int total, BufferAllocator allocator) {
    int[] ids = typeIds(field);
    if (ids.length == 0 && total > 0) {
      throw new IllegalArgumentException("a union without members holds no elements");
    }
    ArrowBuf types = alloc(allocator, total);
    long at = 0;
    Map<FieldVector, Members> members = new IdentityHashMap<>();
    for (Run r : runs) {
      if (r.source == null) {
        for (int i = 0; i < r.length; i++) {
          types.setByte(at + i, ids[0]);
        }
      } else {
        Members m = members.computeIfAbsent(r.source, Members::new);
        ArrowBuf from = ((UnionVector) r.source).getTypeBuffer();
        for (int i = 0; i < r.length; i++) {
          types.setByte(at + i, ids[m.of(from.getByte(r.start + i))]);
        }
      }
      at += r.length;
    }
    load(out, total, List.of(types));
    sameRunsIntoChildren(out, field, runs, allocator);
  }

  private static void denseUnion(DenseUnionVector out, Field field, List<Run> runs, int total, BufferAllocator allocator) {
    int[] ids = typeIds(field);
    if (ids.length == 0 && total > 0) {
      throw new IllegalArgumentException("a union without members holds no elements");
    }
    Map<FieldVector, Members> members = new IdentityHashMap<>();
    List<List<Run>> childRuns = new ArrayList<>();
    int[] childCount = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      childRuns.add(new ArrayList<>());
    }
    ArrowBuf types = alloc(allocator, total);
    ArrowBuf offsets = alloc(allocator, (long) total * 4);
    int at = 0;
    for (Run r : runs) {
      DenseUnionVector src = (DenseUnionVector) r.source;
      for (int i = 0; i < r.length; i++, at++) {
        int c;
        Run piece;
        if (src == null) {
          c = 0;
          piece = Run.blank(1);
        } else {
          c = members.computeIfAbsent(src, Members::new).of(src.getTypeId(r.start + i));
          piece = new Run(childOf(src, c), src.getOffset(r.start + i), 1);
        }
        types.setByte(at, ids[c]);
        offsets.setInt((long) at * 4, childCount[c]++);
        childRuns.get(c).add(piece);
      }
    }
    load(out, total, List.of(types, offsets));
    List<FieldVector> children = out.getChildrenFromFields();
    for (int c = 0; c < children.size(); c++) {
      fill(children.get(c), child(field, c), coalesce(childRuns.get(c)), allocator);
    }
  }

  private static void runEndEncoded(RunEndEncodedVector out, Field field, List<Run> runs, int total, BufferAllocator allocator) {
    Field endsField = child(field, 0);
    int endWidth = ((ArrowType.Int) endsField.getType()).getBitWidth() / 8;
    long max = endWidth == 2 ? Short.MAX_VALUE : endWidth == 4 ? Integer.MAX_VALUE : Long.MAX_VALUE;
    if (total > max) {
      throw new IllegalArgumentException(total + " elements exceed what " + endWidth * 8 + "-bit run ends address");
    }
    List<Long> ends = new ArrayList<>();
    List<Run> valueRuns = new ArrayList<>();
    long at = 0;
    for (Run r : runs) {
      if (r.source == null) {
        at += r.length;
        ends.add(at);
        valueRuns.add(Run.blank(1));
        continue;
      }
      RunEndEncodedVector src = (RunEndEncodedVector) r.source;
      int p = src.getPhysicalIndex(r.start);
      int logical = r.start;
      int stop = r.start + r.length;
      while (logical < stop) {
        long runEnd = runEnd(src.getRunEndsVector(), p);
        long next = Math.min(runEnd, stop);
        at += next - logical;
        ends.add(at);
        valueRuns.add(new Run(src.getValuesVector(), p, 1));
        logical = (int) next;
        p++;
      }
    }
    ArrowBuf endBuf = alloc(allocator, (long) ends.size() * endWidth);
    for (int i = 0; i < ends.size(); i++) {
      switch (endWidth) {
        case 2 -> endBuf.setShort((long) i * 2, ends.get(i).shortValue());
        case 4 -> endBuf.setInt((long) i * 4, ends.get(i).intValue());
        default -> endBuf.setLong((long) i * 8, ends.get(i));
      }
    }
    load(out, total, List.of());
    FieldVector endVector = out.getRunEndsVector();
    ArrowBuf allValid = alloc(allocator, BitVectorHelper.getValidityBufferSize(ends.size()));
    allValid.setZero(0, allValid.capacity());
    Regions.setBits(allValid, 0, ends.size());
    load(endVector, ends.size(), List.of(allValid, endBuf));
    fill(out.getValuesVector(), child(field, 1), coalesce(valueRuns), allocator);
  }

  private static long runEnd(FieldVector ends, int index) {
    ArrowBuf b = ends.getDataBuffer();
    int width = ((BaseFixedWidthVector) ends).getTypeWidth();
    return switch (width) {
      case 2 -> b.getShort((long) index * 2);
      case 4 -> b.getInt((long) index * 4);
      default -> b.getLong((long) index * 8);
    };
  }
}
