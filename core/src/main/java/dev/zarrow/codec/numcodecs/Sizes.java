package dev.zarrow.codec.numcodecs;

import dev.zarrow.error.CorruptChunkException;
import java.nio.ByteBuffer;

/** What the decompressors share: the size a chunk may decode to, and output buffers that grow within it. */
final class Sizes {
  /** The most bytes one direct buffer holds. */
  static final long MAX_BUFFER = Integer.MAX_VALUE - 8;

  private Sizes() {}

  /**
   * The most bytes a decoding may produce: {@code expectedSize} when known, else {@code maxSize}, never
   * more than {@code possible} (what the format can expand {@code inputSize} bytes to) or one buffer.
   * An expected size past what the input can hold is refused at once.
   */
  static long cap(String codec, long inputSize, long possible, long expectedSize, long maxSize) {
    long limit = Math.min(MAX_BUFFER, possible);
    if (expectedSize > limit) {
      throw new CorruptChunkException("codec " + codec + ": " + inputSize + " bytes cannot decompress to the "
          + expectedSize + " bytes expected");
    }
    return expectedSize >= 0 ? expectedSize : Math.min(Math.max(0, maxSize), limit);
  }

  /** {@code out} with room for {@code more} bytes, grown (at most to {@code cap}) by copying when full. */
  static ByteBuffer room(ByteBuffer out, int more, long cap, String codec, String what) {
    if (out.remaining() >= more) {
      return out;
    }
    long needed = (long) out.position() + more;
    if (needed > cap) {
      throw new CorruptChunkException("codec " + codec + ": decompresses to more than the " + cap + " bytes " + what);
    }
    long grown = Math.min(cap, Math.max(2L * out.capacity(), needed));
    return ByteBuffer.allocateDirect((int) grown).put(out.flip());
  }

  /** A larger copy of full {@code out} (doubled, at most {@code cap} bytes). */
  static ByteBuffer grow(ByteBuffer out, long cap) {
    long grown = Math.min(cap, Math.max(2L * out.capacity(), out.capacity() + 1024L));
    return ByteBuffer.allocateDirect((int) grown).put(out.flip());
  }

  /** A direct copy of {@code bytes} when it is on the heap, else {@code bytes} itself. */
  static ByteBuffer direct(ByteBuffer bytes) {
    return bytes.isDirect() ? bytes : ByteBuffer.allocateDirect(bytes.remaining()).put(bytes.duplicate()).flip();
  }
}
