package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * {@code numcodecs.zlib}: numcodecs' {@code Zlib}, a zlib stream (RFC 1950: deflate with a two-byte
 * header and an Adler-32 trailer) as Python's {@code zlib.compress} writes it, with the JDK's zlib.
 * Configuration: {@code {"level": 0..9}} (numcodecs' default 1; -1 is zlib's default level). Also read
 * under zarrita's name {@code zlib} (the same stream and configuration; <a
 * href="https://github.com/manzt/zarrita.js">zarrita.js</a> writes {@code {"name": "zlib", "configuration":
 * {"level": 1}}}), whose metadata keeps that name.
 */
final class ZlibCodec implements BytesToBytesCodec {
  static final String NAME = "numcodecs.zlib";
  /** zarrita's name for the same codec. */
  static final String ZARRITA_NAME = "zlib";
  /** Deflate's largest expansion is 1032:1; 1040 leaves room for the header and trailer. */
  private static final long MAX_RATIO = 1040;

  private final String name;
  private final int level;

  ZlibCodec(String name, int level) {
    this.name = name;
    this.level = level;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(name, JsonNodeFactory.instance.objectNode().put("level", level));
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    Deflater deflater = new Deflater(level);
    try {
      deflater.setInput(bytes.duplicate());
      deflater.finish();
      // zlib's deflateBound for the default settings, plus the header and trailer.
      long bound = bytes.remaining() + (bytes.remaining() >> 12) + (bytes.remaining() >> 14) + (bytes.remaining() >> 25) + 64;
      ByteBuffer out = ByteBuffer.allocateDirect((int) Math.min(Sizes.MAX_BUFFER, bound));
      while (!deflater.finished()) {
        out = Sizes.room(out, 1 << 16, Sizes.MAX_BUFFER, NAME, "one buffer holds");
        deflater.deflate(out);
      }
      return out.flip();
    } finally {
      deflater.end();
    }
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return OptionalLong.of(BytesToBytesCodec.compressedBound(decodedSize));
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    long cap = Sizes.cap(NAME, bytes.remaining(), MAX_RATIO * bytes.remaining() + 64, expectedSize, maxSize);
    String what = expectedSize >= 0 ? "expected" : "allowed";
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes.duplicate());
      ByteBuffer out = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(cap, expectedSize >= 0 ? expectedSize : 4L * bytes.remaining() + 64)));
      while (!inflate(inflater, out)) {
        if (out.position() < cap) {
          out = Sizes.grow(out, cap);
        } else {
          endsHere(inflater, cap, what);
        }
      }
      if (expectedSize >= 0 && out.position() != expectedSize) {
        throw new CorruptChunkException("codec " + NAME + ": decompressed to " + out.position() + " bytes, expected " + expectedSize);
      }
      return out.flip();
    } catch (DataFormatException e) {
      throw new CorruptChunkException("codec " + NAME + ": not a valid zlib stream: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  /** A stream decompresses into memory of its own: the stored bytes may go as soon as it is decoded. */
  @Override
  public boolean decodesToNewMemory() {
    return true;
  }

  /**
   * Inflates straight into {@code target} (Arrow memory of the chunk, when zlib is the bytes codec next
   * to the serializer): no buffer of its own, which would be zeroed, copied from and left for a GC to free.
   */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    int size = target.remaining();
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes.duplicate());
      ByteBuffer out = target.duplicate();
      if (!inflate(inflater, out)) {
        endsHere(inflater, size, "expected");
      }
      int written = out.position() - target.position();
      if (written != size) {
        throw new CorruptChunkException("codec " + NAME + ": decompressed to " + written + " bytes, expected " + size);
      }
    } catch (DataFormatException e) {
      throw new CorruptChunkException("codec " + NAME + ": not a valid zlib stream: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  /**
   * Inflates into {@code out} until the stream ends (true) or {@code out} is full (false); a stream that
   * needs more input than there is, or a preset dictionary, is corrupt.
   */
  private static boolean inflate(Inflater inflater, ByteBuffer out) throws DataFormatException {
    while (!inflater.finished()) {
      if (!out.hasRemaining()) {
        return false;
      }
      if (inflater.inflate(out) == 0 && !inflater.finished()) {
        stalled(inflater);
      }
    }
    return true;
  }

  /** With the output full at {@code cap} bytes, the stream must end here: one byte more is too many. */
  private static void endsHere(Inflater inflater, long cap, String what) throws DataFormatException {
    byte[] one = new byte[1];
    while (!inflater.finished()) {
      if (inflater.inflate(one) > 0) {
        throw new CorruptChunkException("codec " + NAME + ": decompresses to more than the " + cap + " bytes " + what);
      }
      if (!inflater.finished()) {
        stalled(inflater);
      }
    }
  }

  /** After an inflate that gave nothing and did not finish: a stream that needs what it cannot have is corrupt. */
  private static void stalled(Inflater inflater) {
    if (inflater.needsDictionary()) {
      throw new CorruptChunkException("codec " + NAME + ": the stream needs a preset dictionary, which numcodecs never uses");
    }
    if (inflater.needsInput()) {
      throw new CorruptChunkException("codec " + NAME + ": the zlib stream is truncated after " + inflater.getBytesWritten() + " bytes");
    }
  }

  /** Makes {@code numcodecs.zlib} codecs, and {@code zlib} ones (zarrita's name). */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME, ZARRITA_NAME);
    }

    @Override
    public ZlibCodec create(NamedConfig metadata, CodecContext context) {
      return new ZlibCodec(metadata.name(), Configs.integer(metadata, "level", 1, -1, 9));
    }
  }
}
