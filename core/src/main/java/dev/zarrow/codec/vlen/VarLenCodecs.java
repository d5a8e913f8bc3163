package dev.zarrow.codec.vlen;

import dev.zarrow.error.CodecException;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.VlenBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** What the variable-length layouts share: type checks, raw little-endian access, UTF-8 checking. */
final class VarLenCodecs {
  private VarLenCodecs() {}

  /** The variable-length type of {@code spec}, or a {@link CodecException} naming {@code codec}. */
  static VarLenType type(ChunkSpec spec, String codec) {
    if (spec.dataType() instanceof VarLenType t) {
      return t;
    }
    throw new CodecException("codec " + codec + " serializes the variable-length data types (string, bytes, large_string, "
        + "large_binary), not " + spec.dataType().name());
  }

  /** {@code bytes} in direct memory, so that it can be read by address: heap input is copied once. */
  static ByteBuffer direct(ByteBuffer bytes) {
    if (bytes.isDirect()) {
      return bytes;
    }
    return ByteBuffer.allocateDirect(bytes.remaining()).put(bytes.duplicate()).flip();
  }

  /** The address of the first remaining byte of direct {@code bytes}. */
  static long address(ByteBuffer bytes) {
    return MemoryUtil.getByteBufferAddress(bytes) + bytes.position();
  }

  /** A new zeroed little-endian direct buffer of {@code size} bytes, or a refusal past what one buffer holds. */
  static ByteBuffer allocate(long size, String codec) {
    if (size > Integer.MAX_VALUE - 16) {
      throw new CodecException("codec " + codec + ": the chunk encodes to " + size
          + " bytes, more than one buffer holds (2 GiB); use smaller chunks");
    }
    return ByteBuffer.allocateDirect((int) size).order(ByteOrder.LITTLE_ENDIAN);
  }

  static int getIntLE(long address) {
    int v = MemoryUtil.getInt(address);
    return MemoryUtil.LITTLE_ENDIAN ? v : Integer.reverseBytes(v);
  }

  static void putIntLE(long address, int value) {
    MemoryUtil.putInt(address, MemoryUtil.LITTLE_ENDIAN ? value : Integer.reverseBytes(value));
  }

  static long getLongLE(long address) {
    long v = MemoryUtil.getLong(address);
    return MemoryUtil.LITTLE_ENDIAN ? v : Long.reverseBytes(v);
  }

  static void putLongLE(long address, long value) {
    MemoryUtil.putLong(address, MemoryUtil.LITTLE_ENDIAN ? value : Long.reverseBytes(value));
  }

  /**
   * The parts of {@code chunk} (borrowed) for encoding as {@code type}. A vector of another Arrow type,
   * one holding nulls (the {@code arrow} data type's job) or one whose buffers disagree is an
   * {@link IllegalArgumentException}: the caller's mistake, not bad data.
   */
  static VlenBuffers.Parts parts(VarLenType type, FieldVector chunk) {
    ArrowType want = type.field("").getType();
    if (!chunk.getField().getType().equals(want)) {
      throw new IllegalArgumentException(
          "data type " + type.name() + " needs an Arrow " + want + " vector, got " + chunk.getField().getType());
    }
    if (Buffers.hasNulls(chunk)) {
      throw new IllegalArgumentException("data type " + type.name() + " cannot store nulls (" + chunk.getNullCount()
          + " found); use the arrow data type ({\"name\": \"arrow\", ...}) for nullable "
          + (type.isText() ? "strings" : "binary values"));
    }
    return VlenBuffers.checkedParts(chunk, type.name());
  }

  /** {@code vector}, after its UTF-8 check when the type is text and {@code options} ask for it; closed on failure. */
  static FieldVector checked(FieldVector vector, VarLenType type, CodecOptions options) {
    if (type.isText() && options.validateUtf8()) {
      try {
        VlenBuffers.checkUtf8(vector, type.name());
      } catch (RuntimeException e) {
        vector.close();
        throw e;
      }
    }
    return vector;
  }

  /** {@code n} rounded up to a multiple of 64. */
  static long pad64(long n) {
    return (n + 63) & ~63L;
  }
}
