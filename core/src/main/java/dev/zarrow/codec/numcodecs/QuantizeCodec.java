package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code numcodecs.quantize}: numcodecs' {@code Quantize}, lossy: keeps {@code digits} decimal digits
 * by rounding to a multiple of a power of two, {@code round(scale * x) / scale} in {@code dtype}'s
 * precision (numpy's round half to even), then casts to {@code astype}. Decoding is only the cast back:
 * the identity when the types match. Configuration: {@code {"digits": 3, "dtype": "<f8", "astype": "<f4"}};
 * both types are floats, as numcodecs requires.
 */
final class QuantizeCodec extends NumericFilter {
  static final String NAME = "numcodecs.quantize";

  private final double scale;

  QuantizeCodec(int digits, NumpyType dtype, NumpyType astype) {
    super(NAME, config(digits, dtype, astype), dtype, astype);
    if (!dtype.isFloat() || !astype.isFloat()) {
      throw new MetadataException("/configuration: codec " + NAME + " supports floating-point dtype and astype only, got "
          + dtype.text() + " and " + astype.text());
    }
    this.scale = scale(digits);
  }

  /** numcodecs' scale: 2^bits, the smallest power of two finer than 10^-digits, as it computes it. */
  static double scale(int digits) {
    double precision = Math.pow(10.0, -digits);
    double exp = Math.log(precision) / Math.log(10);
    int e = exp < 0 ? (int) Math.floor(exp) : (int) Math.ceil(exp);
    double bits = Math.ceil(Math.log(Math.pow(10.0, -e)) / Math.log(2));
    return Math.pow(2.0, bits);
  }

  private static ObjectNode config(int digits, NumpyType dtype, NumpyType astype) {
    return JsonNodeFactory.instance.objectNode().put("digits", digits).put("dtype", dtype.text()).put("astype", astype.text());
  }

  @Override
  FieldVector encodeValues(FieldVector chunk, BufferAllocator allocator) {
    int n = chunk.getValueCount();
    int w = dtype.type().byteWidth();
    double s = Lanes.round(scale, w);
    Lanes.In in = new Lanes.In(chunk, dtype.type());
    try (Lanes.Out out = new Lanes.Out(astype.type(), n, allocator)) {
      double[] v = new double[Lanes.BLOCK];
      for (int at = 0; at < n; at += Lanes.BLOCK) {
        int m = Math.min(Lanes.BLOCK, n - at);
        in.doubles(at, v, m);
        for (int i = 0; i < m; i++) {
          v[i] = Lanes.round(Math.rint(Lanes.round(s * v[i], w)) / s, w);
        }
        out.doubles(at, v, m);
      }
      return out.finish();
    }
  }

  @Override
  FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator) {
    return cast(chunk, astype.type(), dtype.type(), allocator);
  }

  /** Makes {@code numcodecs.quantize} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public QuantizeCodec create(NamedConfig metadata, CodecContext context) {
      if (metadata.config().get("digits") == null) {
        throw new MetadataException("/configuration/digits: codec " + NAME + " needs the number of decimal digits to keep");
      }
      int digits = Configs.integer(metadata, "digits", 0, -300, 300);
      NumpyType dtype = Configs.dtype(metadata, "dtype", null);
      return new QuantizeCodec(digits, dtype, Configs.dtype(metadata, "astype", dtype));
    }
  }
}
