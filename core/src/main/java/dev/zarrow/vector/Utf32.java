package dev.zarrow.vector;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.memory.Buffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Fixed-width UTF-32LE strings (numpy {@code <U}: code points NUL-padded to a fixed count) to and
 * from Arrow utf8. Trailing NULs are padding; NULs before the last other code point are kept.
 */
public final class Utf32 {
  private Utf32() {}

  /**
   * A utf8 vector of {@code field} over {@code count} elements of {@code units} code units each in
   * {@code data}. A unit that is no Unicode scalar value (a surrogate, above U+10FFFF) is a
   * {@link CorruptChunkException} naming the element. The caller owns the vector.
   */
  public static FieldVector decode(Field field, ArrowBuf data, int count, int units, BufferAllocator allocator) {
    long total = 0;
    int[] lengths = new int[count];
    for (int i = 0; i < count; i++) {
      long at = (long) i * units * 4;
      int n = units;
      while (n > 0 && data.getInt(at + (n - 1) * 4L) == 0) {
        n--;
      }
      lengths[i] = n;
      for (int k = 0; k < n; k++) {
        total += utf8Length(data.getInt(at + k * 4L), i);
      }
    }
    if (total > Integer.MAX_VALUE) {
      throw new CorruptChunkException("fixed_length_utf32: " + count + " strings take " + total
          + " bytes of UTF-8, more than one Arrow utf8 vector holds");
    }
    try (ArrowBuf offsets = allocator.buffer(4L * (count + 1));
        ArrowBuf utf8 = allocator.buffer(Math.max(1, total))) {
      int pos = 0;
      offsets.setInt(0, 0);
      for (int i = 0; i < count; i++) {
        long at = (long) i * units * 4;
        for (int k = 0; k < lengths[i]; k++) {
          pos = putUtf8(utf8, pos, data.getInt(at + k * 4L));
        }
        offsets.setInt(4L * (i + 1), pos);
      }
      return VlenBuffers.fromBuiltBuffers(field, offsets, utf8, count, allocator);
    }
  }

  /**
   * The UTF-32LE bytes of the strings of {@code vector} (borrowed), each NUL-padded to {@code units}
   * code units, in fresh memory. A string of more code points is an {@link IllegalArgumentException}
   * naming the element; so are nulls and invalid UTF-8.
   */
  public static ByteBuffer encode(VarCharVector vector, int units) {
    int count = vector.getValueCount();
    if (Buffers.hasNulls(vector)) {
      throw new IllegalArgumentException("fixed_length_utf32 cannot store nulls (" + vector.getNullCount() + " found)");
    }
    ByteBuffer out = ByteBuffer.allocateDirect(Math.toIntExact((long) count * units * 4)).order(ByteOrder.LITTLE_ENDIAN);
    ArrowBuf offsets = vector.getOffsetBuffer();
    ArrowBuf data = vector.getDataBuffer();
    for (int i = 0; i < count; i++) {
      int at = offsets.getInt(4L * i);
      int end = offsets.getInt(4L * (i + 1));
      int base = i * units * 4;
      int k = 0;
      while (at < end) {
        int b = data.getByte(at) & 0xff;
        int n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
        if (n == 0 || at + n > end) {
          throw new IllegalArgumentException("fixed_length_utf32: element " + i + " is not valid UTF-8");
        }
        int cp = n == 1 ? b : b & (0xff >> (n + 1));
        for (int j = 1; j < n; j++) {
          int c = data.getByte(at + j) & 0xff;
          if ((c & 0xc0) != 0x80) {
            throw new IllegalArgumentException("fixed_length_utf32: element " + i + " is not valid UTF-8");
          }
          cp = (cp << 6) | (c & 0x3f);
        }
        if (k == units) {
          throw new IllegalArgumentException("fixed_length_utf32: element " + i + " has more than the " + units
              + " code points one element holds (length_bytes " + units * 4 + ")");
        }
        out.putInt(base + 4 * k++, cp);
        at += n;
      }
    }
    return out;
  }

  private static int utf8Length(int cp, int element) {
    if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      throw new CorruptChunkException(String.format(
          "fixed_length_utf32: element %d holds 0x%08x, which is no Unicode code point", element, cp));
    }
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }

  private static int putUtf8(ArrowBuf out, int pos, int cp) {
    if (cp < 0x80) {
      out.setByte(pos, cp);
      return pos + 1;
    }
    if (cp < 0x800) {
      out.setByte(pos, 0xc0 | (cp >> 6));
      out.setByte(pos + 1, 0x80 | (cp & 0x3f));
      return pos + 2;
    }
    if (cp < 0x10000) {
      out.setByte(pos, 0xe0 | (cp >> 12));
      out.setByte(pos + 1, 0x80 | ((cp >> 6) & 0x3f));
      out.setByte(pos + 2, 0x80 | (cp & 0x3f));
      return pos + 3;
    }
    out.setByte(pos, 0xf0 | (cp >> 18));
    out.setByte(pos + 1, 0x80 | ((cp >> 12) & 0x3f));
    out.setByte(pos + 2, 0x80 | ((cp >> 6) & 0x3f));
    out.setByte(pos + 3, 0x80 | (cp & 0x3f));
    return pos + 4;
  }
}
