package dev.zarrow.ipc;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.memory.Buffers;
import org.apache.arrow.memory.ArrowBuf;
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
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Validates a vector loaded from untrusted IPC buffers before anything reads it: every buffer is
 * large enough for the element count, every offset, size, view, type id and run end points inside
 * its buffer or child. After {@link #check} passes, Arrow Java's accessors, {@code
 * dev.zarrow.vector.Gather} and the dictionary decoder stay in bounds (a sparse union's members may still
 * be shorter than the union: {@link BatchLoader} lengthens them). (Arrow Java's own
 * {@code validateFull} misses union type ids, dense union offsets, views and run ends.)
 */
final class VectorChecks {
  private VectorChecks() {}

  /** Checks {@code v}, a vector of {@code field} (whose union type ids are the ones on disk). */
  static void check(FieldVector v, Field field, String path) {
    int n = v.getValueCount();
    if (n < 0) {
      throw bad(path, "negative length " + n);
    }
    if (v instanceof NullVector) {
      return;
    }
    if (!(v instanceof UnionVector || v instanceof DenseUnionVector || v instanceof RunEndEncodedVector)) {
      need(v.getValidityBuffer(), BitVectorHelper.getValidityBufferSize(n), path, "validity bitmap");
    }
    if (v instanceof BitVector) {
      need(v.getDataBuffer(), BitVectorHelper.getValidityBufferSize(n), path, "data");
    } else if (v instanceof BaseFixedWidthVector f) {
      need(v.getDataBuffer(), (long) n * f.getTypeWidth(), path, "data");
    } else if (v instanceof BaseVariableWidthVector) {
      offsets(v, n, false, v.getDataBuffer().capacity(), path, "bytes of data");
    } else if (v instanceof BaseLargeVariableWidthVector) {
      offsets(v, n, true, v.getDataBuffer().capacity(), path, "bytes of data");
    } else if (v instanceof BaseVariableWidthViewVector views) {
      views(views, n, path);
    } else if (v instanceof ListVector || v instanceof LargeListVector) {
      FieldVector child = v.getChildrenFromFields().get(0);
      offsets(v, n, v instanceof LargeListVector, child.getValueCount(), path, "child elements");
      check(child, field.getChildren().get(0), path + " child 0");
    } else if (v instanceof ListViewVector || v instanceof LargeListViewVector) {
      listViews(v, field, n, path);
    } else if (v instanceof FixedSizeListVector list) {
      FieldVector child = list.getDataVector();
      long needed = (long) n * list.getListSize();
      if (child.getValueCount() < needed) {
        throw bad(path, n + " lists of " + list.getListSize() + " need " + needed + " child elements, got "
            + child.getValueCount());
      }
      check(child, field.getChildren().get(0), path + " child 0");
    } else if (v instanceof StructVector) {
      children(v, field, n, path);
    } else if (v instanceof UnionVector union) {
      sparseUnion(union, field, n, path);
    } else if (v instanceof DenseUnionVector union) {
      denseUnion(union, field, n, path);
    } else if (v instanceof RunEndEncodedVector ree) {
      runEnds(ree, field, n, path);
    } else {
      throw bad(path, "vectors of type " + v.getField().getType() + " cannot be read");
    }
  }

  private static CorruptChunkException bad(String path, String what) {
    return new CorruptChunkException("Arrow IPC stream, " + path + ": " + what);
  }

  private static void need(ArrowBuf buf, long bytes, String path, String what) {
    if (bytes > 0 && (buf == null || buf.capacity() < bytes)) {
      throw bad(path, "the " + what + " buffer has " + (buf == null ? 0 : buf.capacity()) + " bytes, "
          + bytes + " needed");
    }
  }

  /** Offsets: n + 1 of them, non-negative, non-decreasing, the last within {@code limit}. */
  private static void offsets(FieldVector v, int n, boolean large, long limit, String path, String what) {
    if (n == 0) {
      return;
    }
    int w = large ? 8 : 4;
    ArrowBuf offsets = v.getOffsetBuffer();
    need(offsets, (long) (n + 1) * w, path, "offsets");
    String order = Buffers.offsetsOrderProblem(offsets.memoryAddress(), n, w);
    if (order != null) {
      throw bad(path, order);
    }
    long last = Buffers.offsetAt(offsets.memoryAddress(), n, w);
    if (last > limit) {
      throw bad(path, "offsets reach " + last + " but there are " + limit + " " + what);
    }
  }

  private static void views(BaseVariableWidthViewVector v, int n, String path) {
    ArrowBuf views = v.getDataBuffer();
    need(views, (long) n * 16, path, "views");
    int buffers = v.getDataBuffers().size();
    for (int i = 0; i < n; i++) {
      if (v.isNull(i)) {
        continue;
      }
      long at = (long) i * 16;
      int length = views.getInt(at);
      if (length < 0) {
        throw bad(path, "element " + i + " has a negative length");
      }
      if (length <= 12) {
        continue;
      }
      int buffer = views.getInt(at + 8);
      int offset = views.getInt(at + 12);
      if (buffer < 0 || buffer >= buffers) {
        throw bad(path, "element " + i + " points to data buffer " + buffer + " of " + buffers);
      }
      if (offset < 0 || (long) offset + length > v.getDataBuffers().get(buffer).capacity()) {
        throw bad(path, "element " + i + " lies outside data buffer " + buffer);
      }
    }
  }

  private static void listViews(FieldVector v, Field field, int n, String path) {
    boolean large = v instanceof LargeListViewVector;
    int w = large ? 8 : 4;
    ArrowBuf offsets = v.getOffsetBuffer();
    ArrowBuf sizes = large ? ((LargeListViewVector) v).getSizeBuffer() : ((ListViewVector) v).getSizeBuffer();
    need(offsets, (long) n * w, path, "offsets");
    need(sizes, (long) n * w, path, "sizes");
    FieldVector child = v.getChildrenFromFields().get(0);
    long children = child.getValueCount();
    for (int i = 0; i < n; i++) {
      if (v.isNull(i)) {
        continue;
      }
      long offset = large ? offsets.getLong((long) i * 8) : offsets.getInt((long) i * 4);
      long size = large ? sizes.getLong((long) i * 8) : sizes.getInt((long) i * 4);
      if (offset < 0 || size < 0 || offset > children - size) {
        throw bad(path, "element " + i + " (offset " + offset + ", size " + size + ") lies outside the "
            + children + " child elements");
      }
    }
    check(child, field.getChildren().get(0), path + " child 0");
  }

  private static void children(FieldVector v, Field field, int n, String path) {
    List<FieldVector> children = v.getChildrenFromFields();
    for (int i = 0; i < children.size(); i++) {
      FieldVector child = children.get(i);
      if (child.getValueCount() < n) {
        throw bad(path, "child " + i + " has " + child.getValueCount() + " elements, " + n + " needed");
      }
      check(child, field.getChildren().get(i), path + " child " + i);
    }
  }

  /** Member position by type id (-1 for ids that are not members). */
  private static int[] members(Field field) {
    int[] position = new int[256];
    java.util.Arrays.fill(position, -1);
    int[] ids = ((ArrowType.Union) field.getType()).getTypeIds();
    for (int i = 0; i < ids.length; i++) {
      position[ids[i]] = i;
    }
    return position;
  }

  /**
   * Type ids of members, and members that hold every element that selects them: a member may be
   * shorter than the union (apache-arrow ends it at its last selected element).
   */
  private static void sparseUnion(UnionVector v, Field field, int n, String path) {
    need(v.getTypeBuffer(), n, path, "type ids");
    int[] members = members(field);
    List<FieldVector> children = v.getChildrenFromFields();
    for (int i = 0; i < n; i++) {
      int member = members[v.getTypeBuffer().getByte(i) & 0xff];
      if (member < 0) {
        throw bad(path, "element " + i + " has type id " + v.getTypeBuffer().getByte(i) + ", not a member of "
            + field.getType());
      }
      if (i >= children.get(member).getValueCount()) {
        throw bad(path, "element " + i + " selects member " + member + ", which has "
            + children.get(member).getValueCount() + " elements");
      }
    }
    for (int i = 0; i < children.size(); i++) {
      check(children.get(i), field.getChildren().get(i), path + " child " + i);
    }
  }

  private static void denseUnion(DenseUnionVector v, Field field, int n, String path) {
    need(v.getTypeBuffer(), n, path, "type ids");
    need(v.getOffsetBuffer(), (long) n * 4, path, "offsets");
    int[] members = members(field);
    List<FieldVector> children = v.getChildrenFromFields();
    for (int i = 0; i < n; i++) {
      int id = v.getTypeBuffer().getByte(i) & 0xff;
      int member = members[id];
      if (member < 0) {
        throw bad(path, "element " + i + " has type id " + (byte) id + ", not a member of " + field.getType());
      }
      int offset = v.getOffsetBuffer().getInt((long) i * 4);
      if (offset < 0 || offset >= children.get(member).getValueCount()) {
        throw bad(path, "element " + i + " points to element " + offset + " of member " + member + ", which has "
            + children.get(member).getValueCount());
      }
    }
    for (int i = 0; i < children.size(); i++) {
      check(children.get(i), field.getChildren().get(i), path + " child " + i);
    }
  }

  private static void runEnds(RunEndEncodedVector v, Field field, int n, String path) {
    FieldVector ends = v.getRunEndsVector();
    FieldVector values = v.getValuesVector();
    check(ends, field.getChildren().get(0), path + " run ends");
    check(values, field.getChildren().get(1), path + " values");
    int runs = ends.getValueCount();
    if (Buffers.hasNulls(ends)) {
      throw bad(path, "run ends contain nulls");
    }
    ArrowBuf data = ends.getDataBuffer();
    int width = ((BaseFixedWidthVector) ends).getTypeWidth();
    long previous = 0;
    for (int i = 0; i < runs; i++) {
      long end = switch (width) {
        case 2 -> data.getShort((long) i * 2);
        case 4 -> data.getInt((long) i * 4);
        default -> data.getLong((long) i * 8);
      };
      if (end <= previous) {
        throw bad(path, "run ends must increase from 1; run " + i + " ends at " + end);
      }
      previous = end;
    }
    if (n > 0 && previous < n) {
      throw bad(path, "runs cover " + previous + " of " + n + " elements");
    }
    if (values.getValueCount() < runs) {
      throw bad(path, runs + " runs but " + values.getValueCount() + " values");
    }
  }
}
