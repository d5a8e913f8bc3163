package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code numcodecs.bitround}: numcodecs' {@code BitRound} (Klöwer et al. 2021), lossy: keeps the top
 * {@code keepbits} bits of each float's mantissa, rounding the rest away to nearest, ties to even, on the
 * float's bits as an integer of the same width (so the result is what numcodecs computes, byte for byte,
 * NaN and infinities included). Decoding is the identity. Floats only (float16, float32, float64);
 * {@code keepbits} 0 up to the type's mantissa bits (10, 23, 52; all of them: no change). Configuration:
 * {@code {"keepbits": 7}}.
 */
final class BitRoundCodec implements ArrayToArrayCodec {
  static final String NAME = "numcodecs.bitround";

  private final int keepbits;

  BitRoundCodec(int keepbits) {
    this.keepbits = keepbits;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("keepbits", keepbits));
  }

  /** The mantissa bits of {@code spec}'s float type; other types are refused. */
  private int mantissaBits(ChunkSpec spec) {
    int bits;
    if (spec.dataType() == FixedType.FLOAT16) {
      bits = 10;
    } else if (spec.dataType() == FixedType.FLOAT32) {
      bits = 23;
    } else if (spec.dataType() == FixedType.FLOAT64) {
      bits = 52;
    } else {
      throw new CodecException("codec " + NAME + " rounds float16, float32 and float64, not " + spec.dataType().name());
    }
    if (keepbits > bits) {
      throw new CodecException("codec " + NAME + ": keepbits " + keepbits + " is more than the " + bits + " mantissa bits of "
          + spec.dataType().name());
    }
    return bits;
  }

  @Override
  public ChunkSpec encodedSpec(ChunkSpec decoded) {
    int width = decoded.dataType().byteWidth();
    int drop = mantissaBits(decoded) - keepbits;
    FillValue fill = decoded.fillValue();
    if (fill.isNull() || drop == 0 || fill.length() != width) {
      return decoded;
    }
    byte[] raw = fill.bytes();
    long bits = 0;
    for (int i = width - 1; i >= 0; i--) {
      bits = bits << 8 | (raw[i] & 0xff); // little-endian
    }
    long rounded = round(bits, width, drop);
    for (int i = 0; i < width; i++) {
      raw[i] = (byte) (rounded >>> (8 * i));
    }
    return new ChunkSpec(decoded.shape(), decoded.dataType(), FillValue.of(raw));
  }

  /** numcodecs' rounding of the bits of one float of {@code width} bytes, in that width's two's complement. */
  private static long round(long bits, int width, int drop) {
    return switch (width) {
      case 2 -> {
        short b = (short) bits;
        short mask = (short) ((short) -1 >> drop << drop);
        b += (short) (((b >> drop) & 1) + (1 << (drop - 1)) - 1);
        yield (b & mask) & 0xffffL;
      }
      case 4 -> {
        int b = (int) bits;
        b += ((b >> drop) & 1) + (1 << (drop - 1)) - 1;
        yield (b & (-1 << drop)) & 0xffffffffL;
      }
      default -> {
        long b = bits + ((bits >> drop) & 1) + (1L << (drop - 1)) - 1;
        yield b & (-1L << drop);
      }
    };
  }

  @Override
  public FieldVector encode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    int drop = mantissaBits(decoded) - keepbits;
    FieldVector out = copy(chunk, decoded, allocator);
    if (drop == 0) {
      return out;
    }
    int width = decoded.dataType().byteWidth();
    ArrowBuf data = out.getDataBuffer();
    int n = out.getValueCount();
    switch (width) {
      case 2 -> {
        for (int i = 0; i < n; i++) {
          data.setShort(2L * i, (short) round(data.getShort(2L * i), 2, drop));
        }
      }
      case 4 -> {
        for (int i = 0; i < n; i++) {
          data.setInt(4L * i, (int) round(data.getInt(4L * i), 4, drop));
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          data.setLong(8L * i, round(data.getLong(8L * i), 8, drop));
        }
      }
    }
    return out;
  }

  @Override
  public FieldVector decode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    mantissaBits(decoded);
    if (chunk.getValueCount() != decoded.size()) {
      throw new CodecException("codec " + NAME + ": " + chunk.getValueCount() + " elements, expected " + decoded.size());
    }
    return copy(chunk, decoded, allocator);
  }

  /** A copy of {@code chunk} (a float vector of {@code spec}'s type), nulls included; the caller owns it. */
  private static FieldVector copy(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    if (!(chunk instanceof BaseFixedWidthVector from) || from.getTypeWidth() != spec.dataType().byteWidth()) {
      throw new IllegalArgumentException("codec " + NAME + ": expected a vector of " + spec.dataType().name() + ", got "
          + chunk.getField().getType());
    }
    int n = from.getValueCount();
    BaseFixedWidthVector out = (BaseFixedWidthVector) from.getField().createVector(allocator);
    try {
      out.allocateNew(n);
      out.getDataBuffer().setBytes(0, from.getDataBuffer(), 0, (long) n * from.getTypeWidth());
      out.getValidityBuffer().setBytes(0, from.getValidityBuffer(), 0, BitVectorHelper.getValidityBufferSize(n));
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** Makes {@code numcodecs.bitround} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public BitRoundCodec create(NamedConfig metadata, CodecContext context) {
      if (metadata.config().get("keepbits") == null) {
        throw new MetadataException("/configuration/keepbits: codec " + NAME + " needs the number of mantissa bits to keep");
      }
      return new BitRoundCodec(Configs.integer(metadata, "keepbits", 0, 0, 52));
    }
  }
}
