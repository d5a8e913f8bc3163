package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code numcodecs.delta}: numcodecs' {@code Delta}, the first element then the differences of
 * neighbours in flat order. Encoding subtracts in {@code dtype} (integers wrap around) and casts to
 * {@code astype}; decoding is numpy's {@code cumsum} into {@code dtype}: integers sum with wrap-around,
 * otherwise the sum runs in the float type numpy promotes the two types to, then casts. Configuration:
 * {@code {"dtype": "<i4", "astype": "<i2"}} ({@code astype} defaults to {@code dtype}).
 */
final class DeltaCodec extends NumericFilter {
  static final String NAME = "numcodecs.delta";

  DeltaCodec(NumpyType dtype, NumpyType astype) {
    super(NAME, JsonNodeFactory.instance.objectNode().put("dtype", dtype.text()).put("astype", astype.text()), dtype, astype);
  }

  @Override
  FieldVector encodeValues(FieldVector chunk, BufferAllocator allocator) {
    FixedType t = dtype.type();
    if (Lanes.isInteger(t)) {
      long[] v = Lanes.longs(chunk, t);
      int shift = 64 - 8 * t.byteWidth();
      boolean signed = t.kind() == FixedType.Kind.INT;
      for (int i = v.length - 1; i > 0; i--) {
        long d = v[i] - v[i - 1];
        // Wrap to dtype's width, as numpy's subtraction does, before any cast to a float astype.
        v[i] = shift == 0 ? d : signed ? (d << shift) >> shift : (d << shift) >>> shift;
      }
      return Lanes.fromLongs(v, t, astype.type(), allocator);
    }
    double[] v = Lanes.doubles(chunk, t);
    int w = t.byteWidth();
    for (int i = v.length - 1; i > 0; i--) {
      v[i] = Lanes.round(v[i] - v[i - 1], w);
    }
    return Lanes.fromDoubles(v, astype.type(), allocator);
  }

  @Override
  FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator) {
    FixedType from = astype.type();
    FixedType to = dtype.type();
    if (Lanes.isInteger(from) && Lanes.isInteger(to)) {
      long[] v = Lanes.longs(chunk, from);
      for (int i = 1; i < v.length; i++) {
        v[i] += v[i - 1]; // modular: the low bits come out as a sum in any narrower width would give
      }
      return Lanes.fromLongs(v, from, to, allocator);
    }
    double[] v = Lanes.doubles(chunk, from);
    int w = Math.max(loopWidth(from), loopWidth(to));
    for (int i = 1; i < v.length; i++) {
      v[i] = Lanes.round(v[i] + v[i - 1], w);
    }
    return Lanes.fromDoubles(v, to, allocator);
  }

  /** The float width numpy's promotion needs for {@code type}: its own for floats, wide enough for integers. */
  private static int loopWidth(FixedType type) {
    if (type.kind() == FixedType.Kind.FLOAT) {
      return type.byteWidth();
    }
    return switch (type.byteWidth()) {
      case 1 -> 2;
      case 2 -> 4;
      default -> 8;
    };
  }

  /** Makes {@code numcodecs.delta} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public DeltaCodec create(NamedConfig metadata, CodecContext context) {
      NumpyType dtype = Configs.dtype(metadata, "dtype", null);
      return new DeltaCodec(dtype, Configs.dtype(metadata, "astype", dtype));
    }
  }
}
