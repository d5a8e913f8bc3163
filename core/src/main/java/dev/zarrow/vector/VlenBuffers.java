package dev.zarrow.vector;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.internal.Utf8;
import dev.zarrow.memory.Buffers;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The memory of variable-width vectors (Utf8, Binary, LargeUtf8, LargeBinary): their offsets and data
 * read as {@link Parts}, and vectors assembled over offsets and data buffers after checking the offsets.
 * What the variable-length layouts (vlen-utf8, ZEP7, zarrs.vlen) and the variable-length data types
 * share; {@code what} in messages names the data type.
 */
public final class VlenBuffers {
  private VlenBuffers() {}

  /**
   * The offsets and data of a vector. {@code offsets} holds {@code count + 1} native (little-endian)
   * offsets of {@code offsetWidth} bytes, or nothing when count is 0; element i is the data bytes
   * [offset(i), offset(i + 1)). A view: valid while the vector is open and unchanged.
   */
  public record Parts(ArrowBuf offsets, ArrowBuf data, int count, int offsetWidth) {
    /** Offset {@code i} ({@code 0 <= i <= count}). */
    public long offset(int i) {
      if (count == 0) {
        return 0;
      }
      return Buffers.offsetAt(offsets.memoryAddress(), i, offsetWidth);
    }

    public long first() {
      return offset(0);
    }

    public long last() {
      return offset(count);
    }

    /** The bytes of all elements together: last - first. */
    public long dataLength() {
      return last() - first();
    }
  }

  /** Bytes per offset of vectors of {@code type}: 8 for the large types, 4 for Utf8 and Binary. */
  public static int offsetWidth(ArrowType type) {
    return type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.LargeBinary ? 8 : 4;
  }

  /** The parts of a variable-width {@code vector} (borrowed), as they are: nothing is checked. */
  public static Parts parts(FieldVector vector) {
    return new Parts(vector.getOffsetBuffer(), vector.getDataBuffer(), vector.getValueCount(),
        offsetWidth(vector.getField().getType()));
  }

  /**
   * The parts of {@code vector} (borrowed) for reading by address, after checking that its buffers agree:
   * enough offset bytes, offsets that start at 0 or more, never decrease and end within the data. A vector
   * built from inconsistent buffers is an {@link IllegalArgumentException}: encoders must not be sent astray.
   */
  public static Parts checkedParts(FieldVector vector, String what) {
    Parts parts = parts(vector);
    int count = parts.count();
    if (count == 0) {
      return parts;
    }
    long needed = (long) (count + 1) * parts.offsetWidth();
    if (parts.offsets().capacity() < needed) {
      throw new IllegalArgumentException("a " + what + " vector of " + count + " elements has only "
          + parts.offsets().capacity() + " bytes of offsets");
    }
    String problem = offsetsProblem(parts.offsets().memoryAddress(), count, parts.offsetWidth(), parts.data().capacity());
    if (problem != null) {
      throw new IllegalArgumentException("a malformed " + what + " vector: " + problem);
    }
    return parts;
  }

  /**
   * A vector of {@code field} with {@code count} elements over {@code offsets} ({@code count + 1}
   * little-endian offsets of the field's width) and {@code data}, after checking the offsets: the first
   * is not negative, none decreases, the last is within {@code dataLength} bytes of data (at most
   * {@code data}'s capacity). The vector shares both buffers (it takes its own references; the caller's
   * stay the caller's to close) and is owned by the caller. Bad offsets are a
   * {@link CorruptChunkException} naming {@code what} and the element.
   */
  public static FieldVector fromBuffers(
      Field field, ArrowBuf offsets, ArrowBuf data, long dataLength, int count, BufferAllocator allocator, String what) {
    int width = offsetWidth(field.getType());
    if (offsets.capacity() < (long) (count + 1) * width) {
      throw new CorruptChunkException(what + ": " + offsets.capacity() + " bytes cannot hold the " + (count + 1)
          + " offsets of " + count + " elements");
    }
    String problem = offsetsProblem(offsets.memoryAddress(), count, width, Math.min(dataLength, data.capacity()));
    if (problem != null) {
      throw new CorruptChunkException(what + ": " + problem);
    }
    return load(field, offsets, data, count, allocator);
  }

  /**
   * {@link #fromBuffers} for offsets the caller has just built itself from checked lengths, so that
   * they are known to start at 0 or more, never decrease and end within {@code data}: nothing is
   * checked again (a decoder that checks every length as it writes the offsets need not pay for a
   * second pass over them).
   */
  public static FieldVector fromBuiltBuffers(
      Field field, ArrowBuf offsets, ArrowBuf data, int count, BufferAllocator allocator) {
    return load(field, offsets, data, count, allocator);
  }

  private static FieldVector load(Field field, ArrowBuf offsets, ArrowBuf data, int count, BufferAllocator allocator) {
    FieldVector vector = field.createVector(allocator);
    try {
      vector.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty(), offsets, data));
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** What is wrong with {@code count + 1} offsets of {@code width} bytes at {@code address} over {@code dataLength} bytes, or null. */
  public static String offsetsProblem(long address, int count, int width, long dataLength) {
    String order = Buffers.offsetsOrderProblem(address, count, width);
    if (order != null) {
      return order;
    }
    long last = Buffers.offsetAt(address, count, width);
    if (last > dataLength) {
      return "the last offset (" + last + ") is past the end of the " + dataLength + " bytes of data";
    }
    return null;
  }

  /**
   * Checks that every element of a Utf8 or LargeUtf8 {@code vector} is valid UTF-8; the first invalid
   * one is a {@link CorruptChunkException} naming {@code what} and the element. ASCII data is checked
   * eight bytes at a time.
   */
  public static void checkUtf8(FieldVector vector, String what) {
    Parts parts = parts(vector);
    int count = parts.count();
    if (count == 0) {
      return;
    }
    long first = parts.first();
    if (first < 0 || parts.last() < first || parts.last() > parts.data().capacity()) {
      throw new CorruptChunkException(what + ": offsets [" + first + ", " + parts.last() + "] outside the data");
    }
    long base = parts.data().memoryAddress();
    long result = Utf8.scan(base + first, parts.last() - first);
    if (result >= 0) {
      throw invalidUtf8(parts, first + result, what);
    }
    if (result == Utf8.VALID) {
      // The data as a whole is valid; each element is too unless one starts inside a character.
      for (int i = 1; i < count; i++) {
        long at = parts.offset(i);
        if (at < parts.last() && Utf8.isContinuationByte(base + at)) {
          throw invalidUtf8(parts, at - 1, what);
        }
      }
    }
  }

  private static CorruptChunkException invalidUtf8(Parts parts, long position, String what) {
    // The element holding the byte: the last one starting at or before it that is not empty.
    int lo = 0;
    int hi = parts.count() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (parts.offset(mid) <= position) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (lo > 0 && parts.offset(lo) == parts.offset(lo + 1)) {
      lo--;
    }
    return new CorruptChunkException(what + ": element " + lo + " is not valid UTF-8 (at data byte " + position
        + "); CodecOptions.withValidateUtf8(false) skips this check");
  }

  /** Writes {@code count + 1} offsets {@code 0, step, 2 step, ...} of {@code width} bytes from {@code address}. */
  public static void putEvenOffsets(long address, int count, long step, int width) {
    for (int i = 0; i <= count; i++) {
      if (width == 4) {
        MemoryUtil.putInt(address + 4L * i, (int) (i * step));
      } else {
        MemoryUtil.putLong(address + 8L * i, i * step);
      }
    }
  }
}
