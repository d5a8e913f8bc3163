package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.internal.Shuffles;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * {@code numcodecs.shuffle}: numcodecs' {@code Shuffle}, byte {@code k} of every {@code elementsize}-byte
 * element together: all first bytes, then all second bytes, and so on. The buffer must be whole elements
 * (numcodecs raises otherwise); an element size of 0 or 1 leaves the bytes as they are. Configuration:
 * {@code {"elementsize": N}} (default 4).
 */
final class ShuffleCodec implements BytesToBytesCodec {
  static final String NAME = "numcodecs.shuffle";

  private final int elementSize;

  ShuffleCodec(int elementSize) {
    this.elementSize = elementSize;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("elementsize", elementSize));
  }

  @Override
  public OptionalLong encodedSize(long decodedSize) {
    return OptionalLong.of(decodedSize);
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    if (elementSize > 1 && bytes.remaining() % elementSize != 0) {
      throw new CodecException("codec " + NAME + ": " + bytes.remaining() + " bytes are not whole elements of " + elementSize);
    }
    return permute(bytes, true);
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    check(bytes, expectedSize);
    return permute(bytes, false);
  }

  private void check(ByteBuffer bytes, long expectedSize) {
    if (expectedSize >= 0 && bytes.remaining() != expectedSize) {
      throw new CorruptChunkException("codec " + NAME + ": " + bytes.remaining() + " bytes, expected " + expectedSize);
    }
    if (elementSize > 1 && bytes.remaining() % elementSize != 0) {
      throw new CorruptChunkException("codec " + NAME + ": " + bytes.remaining() + " bytes are not whole elements of " + elementSize);
    }
  }

  /** Unshuffles straight into {@code target} when it is direct and writable (Arrow memory on the read path). */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    if (!target.isDirect() || target.isReadOnly()) {
      BytesToBytesCodec.super.decodeInto(bytes, target);
      return;
    }
    int size = target.remaining();
    check(bytes, size);
    permute(Sizes.direct(bytes), target, target.position(), false);
  }

  /** Shuffles (or unshuffles) into a new direct buffer. */
  private ByteBuffer permute(ByteBuffer bytes, boolean shuffle) {
    ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining());
    permute(Sizes.direct(bytes), out, 0, shuffle);
    return out;
  }

  /**
   * Shuffles (or unshuffles) the remaining bytes of {@code in} (direct) into {@code out} (direct, room
   * checked by the caller) from {@code at}: whole elements through {@link Shuffles} on raw memory.
   */
  private void permute(ByteBuffer in, ByteBuffer out, int at, boolean shuffle) {
    int size = in.remaining();
    if (elementSize <= 1) {
      out.put(at, in, in.position(), size);
      return;
    }
    int count = size / elementSize;
    long src = MemoryUtil.getByteBufferAddress(in) + in.position();
    long dst = MemoryUtil.getByteBufferAddress(out) + at;
    if (shuffle) {
      Shuffles.shuffle(elementSize, count, src, Shuffles.planes(dst, elementSize, count));
    } else {
      Shuffles.unshuffle(elementSize, count, Shuffles.planes(src, elementSize, count), dst);
    }
  }

  /** Makes {@code numcodecs.shuffle} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public ShuffleCodec create(NamedConfig metadata, CodecContext context) {
      return new ShuffleCodec(Configs.integer(metadata, "elementsize", 4, 0, 1 << 20));
    }
  }
}
