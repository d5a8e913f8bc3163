package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.OptionalLong;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/**
 * {@code numcodecs.lz4}: numcodecs' {@code LZ4} framing, the decoded size as 4 little-endian bytes then
 * one LZ4 block (not the LZ4 frame format). Configuration: {@code {"acceleration": N}} (numcodecs'
 * default 1). lz4-java's compressor runs at acceleration 1 whatever the setting, which only trades ratio
 * for speed: every LZ4 decoder reads the output.
 */
final class Lz4Codec implements BytesToBytesCodec {
  static final String NAME = "numcodecs.lz4";
  /** An LZ4 block expands at most about 255:1 (a literal-less sequence per byte of match length). */
  private static final long MAX_RATIO = 256;
  private static final LZ4Factory FACTORY = load();

  private final int acceleration;

  Lz4Codec(int acceleration) {
    this.acceleration = acceleration;
  }

  private static LZ4Factory load() {
    try {
      return LZ4Factory.nativeInstance();
    } catch (Throwable e) { // no native library for this platform, or it failed to load
      return LZ4Factory.fastestJavaInstance();
    }
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("acceleration", acceleration));
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    int size = bytes.remaining();
    ByteBuffer in = Sizes.direct(bytes);
    long bound = 4L + FACTORY.fastCompressor().maxCompressedLength(size);
    if (bound > Sizes.MAX_BUFFER) {
      throw new CodecException("codec " + NAME + ": a chunk of " + size + " bytes may not fit one buffer compressed; use smaller chunks");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) bound).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(0, size);
    int n = FACTORY.fastCompressor().compress(in, in.position(), size, out, 4, out.capacity() - 4);
    return out.limit(4 + n);
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return OptionalLong.of(BytesToBytesCodec.compressedBound(decodedSize));
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    int declared = declaredSize(bytes, expectedSize, maxSize);
    ByteBuffer out = ByteBuffer.allocateDirect(declared);
    decompress(bytes, out, 0, declared);
    return out;
  }

  /** Straight into the target when it is direct and writable (Arrow memory on the read path): no chunk buffer, no copy. */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    if (!target.isDirect() || target.isReadOnly()) {
      BytesToBytesCodec.super.decodeInto(bytes, target);
      return;
    }
    int size = target.remaining();
    decompress(bytes, target, target.position(), declaredSize(bytes, size, size));
  }

  /** The size the 4-byte header declares, checked against what the block can hold and the caller expects. */
  private static int declaredSize(ByteBuffer bytes, long expectedSize, long maxSize) {
    if (bytes.remaining() < 4) {
      throw new CorruptChunkException("codec " + NAME + ": " + bytes.remaining() + " bytes hold no 4-byte size header");
    }
    long declared = Integer.toUnsignedLong(bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.position()));
    int compressed = bytes.remaining() - 4;
    if (expectedSize >= 0 && declared != expectedSize) {
      throw new CorruptChunkException("codec " + NAME + ": the header declares " + declared + " bytes, expected " + expectedSize);
    }
    long cap = Sizes.cap(NAME, compressed, MAX_RATIO * compressed + 16, expectedSize, maxSize);
    if (declared > cap) {
      throw new CorruptChunkException("codec " + NAME + ": the header declares " + declared + " bytes, more than the "
          + cap + " bytes " + compressed + " compressed bytes may hold" + (expectedSize < 0 ? " or the chunk limit allows" : ""));
    }
    return (int) declared;
  }

  /** Decompresses the block after the header into {@code out} from {@code at}; it must fill exactly {@code declared} bytes. */
  private static void decompress(ByteBuffer bytes, ByteBuffer out, int at, int declared) {
    ByteBuffer in = Sizes.direct(bytes);
    int n;
    try {
      n = FACTORY.safeDecompressor().decompress(in, in.position() + 4, in.remaining() - 4, out, at, declared);
    } catch (LZ4Exception e) {
      throw new CorruptChunkException("codec " + NAME + ": not a valid LZ4 block: " + e.getMessage(), e);
    }
    if (n != declared) {
      throw new CorruptChunkException("codec " + NAME + ": the block decodes to " + n + " bytes, the header declares " + declared);
    }
  }

  /** Makes {@code numcodecs.lz4} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public Lz4Codec create(NamedConfig metadata, CodecContext context) {
      return new Lz4Codec(Configs.integer(metadata, "acceleration", 1, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }
  }
}
