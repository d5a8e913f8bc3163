package dev.zarrow.codec.vlen;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.VlenBuffers;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;

/**
 * The ZEP7 chunk layout of the variable-length types: Arrow's offsets and data, so it decodes without a
 * copy. ZEP7 makes the data type the final codec, so an array uses this layout when its codec list has
 * no array->bytes codec; the pipeline finds it through the registry under {@link
 * VarLenType#ZEP7_CODEC}, the name {@link VarLenType#implicitSerializer()} gives.
 *
 * <p>Spec: zarr-developers/zeps draft ZEP0007. Grammar of a chunk of n elements, W = 4 (int32 offsets)
 * or 8 (int64, {@code large_string} and {@code large_binary}):
 * <pre>
 * chunk   := offsets padding data
 * offsets := (n + 1) little-endian signed integers of W bytes; 0 &lt;= offsets[0] &lt;= ... &lt;= offsets[n]
 * padding := zero bytes up to the next multiple of 64 (none when (n + 1) * W already is one)
 * data    := bytes; element i is data[offsets[i], offsets[i + 1]); offsets[n] &lt;= its length
 * </pre>
 * Decoding wraps the chunk's memory: the vector's offsets and data buffers point into it (a writable
 * direct buffer, such as a file store or decompressor returns, is not copied at all). The offsets are
 * checked in one pass, and {@code string} data is checked to be UTF-8 unless the options say not to.
 */
public final class Zep7Codec implements ArrayToBytesCodec {
  private static final String NAME = "ZEP7";

  private final CodecOptions options;

  public Zep7Codec(CodecOptions options) {
    this.options = options;
  }

  /** The registered name; never written into a codec list (ZEP7's list simply has no serializer). */
  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.plain(VarLenType.ZEP7_CODEC);
  }

  /** Makes the ZEP7 codec ({@link VarLenType#ZEP7_CODEC}) with the context's options; it takes no configuration. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(VarLenType.ZEP7_CODEC);
    }

    @Override
    public Zep7Codec create(NamedConfig metadata, CodecContext context) {
      if (metadata.configuration() != null && !metadata.configuration().isEmpty()) {
        throw new MetadataException("codec " + VarLenType.ZEP7_CODEC + " takes no configuration");
      }
      return new Zep7Codec(context.options());
    }
  }

  @Override
  public void validate(ChunkSpec spec) {
    VarLenCodecs.type(spec, NAME);
  }

  /** The number of bytes before the data of a chunk of {@code count} elements with {@code width}-byte offsets. */
  public static long dataStart(int count, int width) {
    return VarLenCodecs.pad64((long) (count + 1) * width);
  }

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = VarLenCodecs.type(spec, NAME);
    VlenBuffers.Parts parts = VarLenCodecs.parts(type, chunk);
    int n = parts.count();
    int w = type.offsetWidth();
    long first = parts.first();
    long dataLength = parts.dataLength();
    long start = dataStart(n, w);
    ByteBuffer out = VarLenCodecs.allocate(start + dataLength, NAME);
    long to = VarLenCodecs.address(out);
    if (n > 0 && first == 0 && MemoryUtil.LITTLE_ENDIAN) {
      MemoryUtil.copyMemory(parts.offsets().memoryAddress(), to, (long) (n + 1) * w);
    } else {
      for (int i = 0; i <= n; i++) {
        long offset = parts.offset(i) - first;
        if (w == 4) {
          VarLenCodecs.putIntLE(to + 4L * i, (int) offset);
        } else {
          VarLenCodecs.putLongLE(to + 8L * i, offset);
        }
      }
    }
    // The padding is already zero: direct buffers start zeroed.
    if (dataLength > 0) {
      MemoryUtil.copyMemory(parts.data().memoryAddress() + first, to + start, dataLength);
    }
    return out;
  }

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = VarLenCodecs.type(spec, NAME);
    if (!MemoryUtil.LITTLE_ENDIAN) {
      throw new CodecException("ZEP7 chunks are read on little-endian platforms only");
    }
    int n = spec.size();
    int w = type.offsetWidth();
    long offsetsLength = (long) (n + 1) * w;
    long start = dataStart(n, w);
    int length = bytes.remaining();
    if (length < start) {
      throw new CorruptChunkException("ZEP7 " + type.name() + " chunk: " + length + " bytes cannot hold the " + (n + 1)
          + " offsets and padding of " + n + " elements (" + start + " bytes)");
    }
    try (ArrowBuf all = Buffers.wrap(bytes, allocator)) {
      ArrowBuf offsets = all.slice(0, offsetsLength);
      ArrowBuf data = all.slice(start, length - start);
      FieldVector vector;
      try {
        vector = VlenBuffers.fromBuffers(type.field(""), offsets, data, length - start, n, allocator, type.name());
      } catch (CorruptChunkException e) {
        throw new CorruptChunkException("ZEP7 " + e.getMessage(), e);
      }
      return VarLenCodecs.checked(vector, type, options);
    }
  }

  @Override
  public String toString() {
    return "ZEP7";
  }
}
