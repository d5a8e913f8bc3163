package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.vector.VlenBuffers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.compare.Range;
import dev.zarrow.vector.ValueEquals;

/** Vectors for tests: random ones of a data type, ones from element bytes, and exact comparison. */
public final class Vectors {
  private Vectors() {}

  /** A utf8 vector of {@code values} (a null entry is a null element), owned by the caller. */
  public static VarCharVector utf8(BufferAllocator allocator, String name, String... values) {
    VarCharVector v = new VarCharVector(name, allocator);
    v.allocateNew();
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        v.setNull(i);
      } else {
        v.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  /** A vector of the text type {@code type} holding {@code values} as UTF-8, owned by the caller. */
  public static FieldVector varLen(VarLenType type, BufferAllocator allocator, String... values) {
    if (!type.isText()) {
      throw new IllegalArgumentException("data type " + type.name() + " holds bytes, not strings: pass byte arrays");
    }
    byte[][] utf8 = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      utf8[i] = values[i].getBytes(StandardCharsets.UTF_8);
    }
    return varLen(type, allocator, utf8);
  }

  /** A vector of {@code type} holding {@code values} (UTF-8 for the text types, unchecked), owned by the caller. */
  public static FieldVector varLen(VarLenType type, BufferAllocator allocator, byte[]... values) {
    VariableWidthFieldVector v = (VariableWidthFieldVector) type.field("").createVector(allocator);
    v.allocateNew();
    for (int i = 0; i < values.length; i++) {
      v.setSafe(i, values[i]);
    }
    v.setValueCount(values.length);
    return v;
  }

  /** The elements of a variable-width {@code vector} (borrowed) as byte arrays (null for null elements). */
  public static byte[][] byteArrays(FieldVector vector) {
    VlenBuffers.Parts parts = VlenBuffers.parts(vector);
    byte[][] out = new byte[parts.count()][];
    for (int i = 0; i < out.length; i++) {
      if (!vector.isNull(i)) {
        long start = parts.offset(i);
        out[i] = new byte[Math.toIntExact(parts.offset(i + 1) - start)];
        parts.data().getBytes(start, out[i]);
      }
    }
    return out;
  }

  /** The elements of a Utf8 or LargeUtf8 {@code vector} as Java strings (null for null elements). */
  public static String[] strings(FieldVector vector) {
    byte[][] raw = byteArrays(vector);
    String[] out = new String[raw.length];
    for (int i = 0; i < raw.length; i++) {
      out[i] = raw[i] == null ? null : new String(raw[i], StandardCharsets.UTF_8);
    }
    return out;
  }

  /**
   * A vector of {@code count} random elements of a fixed-width {@code type}: random bits, so floats
   * include NaNs with payloads, infinities and -0.0 (bool elements are 0 or 1).
   */
  public static FieldVector random(DataType type, int count, Random random, BufferAllocator allocator) {
    if (!(type instanceof FixedWidthType fixed)) {
      throw new IllegalArgumentException("no random generator for data type " + type.name() + "; override randomChunk");
    }
    byte[] bytes = new byte[count * fixed.byteWidth()];
    random.nextBytes(bytes);
    if (type.equals(FixedType.BOOL)) {
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] &= 1;
      }
    }
    return fromBytes(fixed, bytes, allocator);
  }

  /** A vector of a fixed-width {@code type} whose elements have the little-endian {@code bytes}. */
  public static FieldVector fromBytes(FixedWidthType type, byte[] bytes, BufferAllocator allocator) {
    int count = bytes.length / type.byteWidth();
    try (ArrowBuf data = allocator.buffer(Math.max(bytes.length, 1))) {
      data.setBytes(0, bytes);
      return type.fromBytes(data, count, allocator);
    }
  }

  /** The little-endian element bytes of a fixed-width vector (bool: one byte 0 or 1 each). */
  public static byte[] bytes(FixedWidthType type, FieldVector vector) {
    return toArray(type.toBytes(vector));
  }

  public static byte[] toArray(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  /** A direct buffer holding {@code bytes}. */
  public static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  public static byte[] unhex(String hex) {
    return HexFormat.of().parseHex(hex.replace(" ", ""));
  }

  /**
   * Fails when any buffer of {@code got} (children included) lies in memory that a buffer of {@code owner}
   * covers, naming both: proof by address that {@code got} does not alias {@code owner}.
   */
  public static void assertNoSharedMemory(ValueVector owner, ValueVector got, String what) {
    List<ArrowBuf> owned = buffers(owner, new ArrayList<>());
    for (ArrowBuf b : buffers(got, new ArrayList<>())) {
      for (ArrowBuf o : owned) {
        long start = Math.max(b.memoryAddress(), o.memoryAddress());
        long end = Math.min(b.memoryAddress() + b.capacity(), o.memoryAddress() + o.capacity());
        if (start < end) {
          fail(what + ": a buffer of " + b.capacity() + " bytes at 0x" + Long.toHexString(b.memoryAddress())
              + " shares memory with the caller's buffer of " + o.capacity() + " bytes at 0x" + Long.toHexString(o.memoryAddress()));
        }
      }
    }
  }

  /** The non-empty buffers of {@code vector} and its children. */
  private static List<ArrowBuf> buffers(ValueVector vector, List<ArrowBuf> out) {
    for (ArrowBuf b : vector.getBuffers(false)) {
      if (b.capacity() > 0) {
        out.add(b);
      }
    }
    if (vector instanceof FieldVector f) {
      for (FieldVector child : f.getChildrenFromFields()) {
        buffers(child, out);
      }
    }
    return out;
  }

  /**
   * Fails unless both vectors hold the same elements: same type, count, validity and bytes (floats
   * compare by bits, so NaN payloads and -0.0 count), naming the first element that differs.
   */
  public static void assertSameValues(FieldVector expected, FieldVector actual, String what) {
    assertEquals(expected.getField().getType(), actual.getField().getType(), what + ": Arrow type");
    assertEquals(expected.getValueCount(), actual.getValueCount(), what + ": element count");
    ValueEquals visitor = new ValueEquals(expected, actual, (a, b) -> true);
    if (visitor.rangeEquals(new Range(0, 0, expected.getValueCount()))) {
      return;
    }
    for (int i = 0; i < expected.getValueCount(); i++) {
      if (!visitor.rangeEquals(new Range(i, i, 1))) {
        fail(what + ": element " + i + " differs: expected " + expected.getObject(i) + ", got " + actual.getObject(i));
      }
    }
    fail(what + ": vectors differ");
  }
}
