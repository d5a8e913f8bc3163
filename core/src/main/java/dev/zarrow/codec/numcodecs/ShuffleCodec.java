package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;

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
    if (expectedSize >= 0 && bytes.remaining() != expectedSize) {
      throw new CorruptChunkException("codec " + NAME + ": " + bytes.remaining() + " bytes, expected " + expectedSize);
    }
    if (elementSize > 1 && bytes.remaining() % elementSize != 0) {
      throw new CorruptChunkException("codec " + NAME + ": " + bytes.remaining() + " bytes are not whole elements of " + elementSize);
    }
    return permute(bytes, false);
  }

  /** Shuffles (or unshuffles) into a new direct buffer, one byte plane at a time through heap arrays. */
  private ByteBuffer permute(ByteBuffer bytes, boolean shuffle) {
    int size = bytes.remaining();
    byte[] in = new byte[size];
    bytes.duplicate().get(in);
    if (elementSize <= 1) {
      return ByteBuffer.allocateDirect(size).put(in).flip();
    }
    byte[] out = new byte[size];
    int count = size / elementSize;
    for (int k = 0; k < elementSize; k++) {
      int plane = k * count;
      if (shuffle) {
        for (int i = 0, j = k; i < count; i++, j += elementSize) {
          out[plane + i] = in[j];
        }
      } else {
        for (int i = 0, j = k; i < count; i++, j += elementSize) {
          out[j] = in[plane + i];
        }
      }
    }
    return ByteBuffer.allocateDirect(size).put(out).flip();
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
