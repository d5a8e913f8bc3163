package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.CodecException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * What numcodecs' numeric filters share: chunks of {@code dtype} encode to chunks of {@code astype} (the
 * data type changes, as in numcodecs), element by element in flat order. Subclasses compute on blocks of
 * values ({@link Lanes}); this class checks the chunk's type and maps the spec, fill value included.
 */
abstract class NumericFilter implements ArrayToArrayCodec {
  private final NamedConfig metadata;
  final NumpyType dtype;
  final NumpyType astype;

  NumericFilter(String name, ObjectNode config, NumpyType dtype, NumpyType astype) {
    this.metadata = NamedConfig.of(name, config);
    this.dtype = dtype;
    this.astype = astype;
  }

  @Override
  public final NamedConfig toMetadata() {
    return metadata;
  }

  /** {@code chunk} (borrowed, of {@code dtype}) encoded as a new vector of {@code astype}. */
  abstract FieldVector encodeValues(FieldVector chunk, BufferAllocator allocator);

  /** {@code chunk} (borrowed, of {@code astype}) decoded as a new vector of {@code dtype}. */
  abstract FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator);

  private void check(ChunkSpec decoded) {
    if (!decoded.dataType().equals(dtype.type())) {
      throw new CodecException("codec " + name() + ": its dtype " + dtype.text() + " (" + dtype.type().name()
          + ") does not match the chunk's data type " + decoded.dataType().name());
    }
  }

  @Override
  public ChunkSpec encodedSpec(ChunkSpec decoded) {
    check(decoded);
    return new ChunkSpec(decoded.shape(), astype.type(), encodedFill(decoded.fillValue()));
  }

  /** The fill value encoded as one element would be. */
  private FillValue encodedFill(FillValue fill) {
    if (fill.isNull()) {
      return fill;
    }
    try (BufferAllocator allocator = new RootAllocator(1 << 16);
        FieldVector one = dtype.type().filled(allocator, 1, fill);
        FieldVector encoded = encodeValues(one, allocator)) {
      ByteBuffer bytes = ((FixedType) astype.type()).toBytes(encoded);
      byte[] raw = new byte[astype.type().byteWidth()];
      bytes.duplicate().get(raw);
      return FillValue.of(raw);
    }
  }

  @Override
  public FieldVector encode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    check(decoded);
    return encodeValues(chunk, allocator);
  }

  @Override
  public FieldVector decode(FieldVector chunk, ChunkSpec decoded, BufferAllocator allocator) {
    check(decoded);
    if (chunk.getValueCount() != decoded.size()) {
      throw new CodecException("codec " + name() + ": " + chunk.getValueCount() + " elements, expected " + decoded.size());
    }
    return decodeValues(chunk, allocator);
  }

  /** {@code chunk} of {@code from} cast to {@code to} as numpy's {@code astype} does. The caller owns the result. */
  static FieldVector cast(FieldVector chunk, FixedType from, FixedType to, BufferAllocator allocator) {
    int n = chunk.getValueCount();
    Lanes.In in = new Lanes.In(chunk, from);
    try (Lanes.Out out = new Lanes.Out(to, n, allocator)) {
      if (Lanes.castDirect(in, out, n)) {
        return out.finish();
      }
      if (Lanes.isInteger(from)) {
        boolean unsigned64 = from.equals(FixedType.UINT64);
        long[] v = new long[Lanes.BLOCK];
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.longs(at, v, m);
          out.longs(at, v, m, unsigned64);
        }
      } else {
        double[] v = new double[Lanes.BLOCK];
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.doubles(at, v, m);
          out.doubles(at, v, m);
        }
      }
      return out.finish();
    }
  }
}
