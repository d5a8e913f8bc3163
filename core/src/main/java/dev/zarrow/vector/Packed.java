package dev.zarrow.vector;

import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/** Fields of packed fixed-size records (numpy structured arrays, Zarr {@code struct}): split out and put back. */
public final class Packed {
  private Packed() {}

  /**
   * The {@code width} bytes at {@code offset} of each of {@code count} records of {@code recordWidth}
   * bytes in {@code data}, one after another in a new buffer the caller owns.
   */
  public static ArrowBuf gather(ArrowBuf data, int count, int recordWidth, int offset, int width, BufferAllocator allocator) {
    ArrowBuf out = allocator.buffer(Math.max(1, (long) count * width));
    try {
      if (width == recordWidth) {
        out.setBytes(0, data, 0, (long) count * width);
        return out;
      }
      for (int i = 0; i < count; i++) {
        out.setBytes((long) i * width, data, (long) i * recordWidth + offset, width);
      }
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** Writes {@code field}'s consecutive elements of {@code width} bytes at {@code offset} of each record of {@code out}. */
  public static void scatter(ByteBuffer field, int count, int width, ByteBuffer out, int recordWidth, int offset) {
    int base = field.position();
    for (int i = 0; i < count; i++) {
      out.put(i * recordWidth + offset, field, base + i * width, width);
    }
  }
}
