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
    int n = chunk.getValueCount();
    Lanes.In in = new Lanes.In(chunk, t);
    try (Lanes.Out out = new Lanes.Out(astype.type(), n, allocator)) {
      if (Lanes.isInteger(t)) {
        int shift = 64 - 8 * t.byteWidth();
        boolean signed = t.kind() == FixedType.Kind.INT;
        boolean unsigned64 = t.equals(FixedType.UINT64);
        long[] v = new long[Lanes.BLOCK];
        long previous = 0;
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.longs(at, v, m);
          long last = v[m - 1];
          // Backwards in place; each difference wraps to dtype's width, as numpy's subtraction does,
          // before any cast to a float astype. The first element of the chunk stays as it is.
          for (int i = m - 1; i >= 1; i--) {
            v[i] = wrap(v[i] - v[i - 1], shift, signed);
          }
          if (at > 0) {
            v[0] = wrap(v[0] - previous, shift, signed);
          }
          previous = last;
          out.longs(at, v, m, unsigned64);
        }
      } else {
        int w = t.byteWidth();
        double[] v = new double[Lanes.BLOCK];
        double previous = 0;
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.doubles(at, v, m);
          double last = v[m - 1];
          for (int i = m - 1; i >= 1; i--) {
            v[i] -= v[i - 1];
          }
          if (at > 0) {
            v[0] -= previous;
          }
          double first = v[0];
          Lanes.round(v, m, w); // each difference of two floats of width w, rounded once to w
          if (at == 0) {
            v[0] = first;
          }
          previous = last;
          out.doubles(at, v, m);
        }
      }
      return out.finish();
    }
  }

  @Override
  FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator) {
    FixedType from = astype.type();
    FixedType to = dtype.type();
    int n = chunk.getValueCount();
    Lanes.In in = new Lanes.In(chunk, from);
    try (Lanes.Out out = new Lanes.Out(to, n, allocator)) {
      if (Lanes.isInteger(from) && Lanes.isInteger(to)) {
        boolean unsigned64 = from.equals(FixedType.UINT64);
        long[] v = new long[Lanes.BLOCK];
        long previous = 0;
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.longs(at, v, m);
          v[0] += previous; // modular: the low bits come out as a sum in any narrower width would give
          for (int i = 1; i < m; i++) {
            v[i] += v[i - 1];
          }
          previous = v[m - 1];
          out.longs(at, v, m, unsigned64);
        }
      } else {
        int w = Math.max(loopWidth(from), loopWidth(to));
        double[] v = new double[Lanes.BLOCK];
        double previous = 0;
        for (int at = 0; at < n; at += Lanes.BLOCK) {
          int m = Math.min(Lanes.BLOCK, n - at);
          in.doubles(at, v, m);
          if (at > 0) {
            v[0] = Lanes.round(v[0] + previous, w);
          }
          if (w == 8) {
            for (int i = 1; i < m; i++) {
              v[i] += v[i - 1];
            }
          } else {
            for (int i = 1; i < m; i++) {
              v[i] = Lanes.round(v[i] + v[i - 1], w);
            }
          }
          previous = v[m - 1];
          out.doubles(at, v, m);
        }
      }
      return out.finish();
    }
  }

  /** {@code d} wrapped to an integer of {@code 64 - shift} bits of that signedness. */
  private static long wrap(long d, int shift, boolean signed) {
    return shift == 0 ? d : signed ? (d << shift) >> shift : (d << shift) >>> shift;
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
