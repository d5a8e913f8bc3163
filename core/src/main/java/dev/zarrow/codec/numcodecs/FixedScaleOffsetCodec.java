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
 * {@code numcodecs.fixedscaleoffset}: numcodecs' {@code FixedScaleOffset}, encodes
 * {@code round((x - offset) * scale)} cast to {@code astype} and decodes {@code y / scale + offset} cast
 * to {@code dtype}. As numpy does, arithmetic runs in the array's float type (float32 stays float32;
 * integers compute in float64), rounding is half to even, and the final cast truncates into integers.
 * Configuration: {@code {"offset": 0, "scale": 100, "dtype": "<f8", "astype": "<i2"}}.
 */
final class FixedScaleOffsetCodec extends NumericFilter {
  static final String NAME = "numcodecs.fixedscaleoffset";

  private final double offset;
  private final double scale;

  FixedScaleOffsetCodec(ObjectNode config, double offset, double scale, NumpyType dtype, NumpyType astype) {
    super(NAME, config, dtype, astype);
    this.offset = offset;
    this.scale = scale;
  }

  @Override
  FieldVector encodeValues(FieldVector chunk, BufferAllocator allocator) {
    int n = chunk.getValueCount();
    int w = Lanes.floatWidth(dtype.type());
    double o = Lanes.round(offset, w);
    double s = Lanes.round(scale, w);
    Lanes.In in = new Lanes.In(chunk, dtype.type());
    try (Lanes.Out out = new Lanes.Out(astype.type(), n, allocator)) {
      double[] v = new double[Lanes.BLOCK];
      for (int at = 0; at < n; at += Lanes.BLOCK) {
        int m = Math.min(Lanes.BLOCK, n - at);
        in.doubles(at, v, m);
        if (w == 8) {
          for (int i = 0; i < m; i++) {
            v[i] = Math.rint((v[i] - o) * s);
          }
        } else {
          for (int i = 0; i < m; i++) {
            v[i] = Math.rint(Lanes.round(Lanes.round(v[i] - o, w) * s, w));
          }
        }
        out.doubles(at, v, m);
      }
      return out.finish();
    }
  }

  @Override
  FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator) {
    int n = chunk.getValueCount();
    int w = Lanes.floatWidth(astype.type());
    double o = Lanes.round(offset, w);
    double s = Lanes.round(scale, w);
    boolean reciprocal = Lanes.isInteger(astype.type()) && astype.type().byteWidth() <= 4 && Lanes.reciprocalDivides(s);
    double r = 1 / s;
    Lanes.In in = new Lanes.In(chunk, astype.type());
    try (Lanes.Out out = new Lanes.Out(dtype.type(), n, allocator)) {
      double[] v = new double[Lanes.BLOCK];
      for (int at = 0; at < n; at += Lanes.BLOCK) {
        int m = Math.min(Lanes.BLOCK, n - at);
        in.doubles(at, v, m);
        if (w == 8 && reciprocal) {
          for (int i = 0; i < m; i++) {
            v[i] = Lanes.quotient(v[i], s, r) + o;
          }
        } else if (w == 8) {
          for (int i = 0; i < m; i++) {
            v[i] = v[i] / s + o;
          }
        } else {
          for (int i = 0; i < m; i++) {
            v[i] = Lanes.round(Lanes.round(v[i] / s, w) + o, w);
          }
        }
        out.doubles(at, v, m);
      }
      return out.finish();
    }
  }

  /** Makes {@code numcodecs.fixedscaleoffset} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public FixedScaleOffsetCodec create(NamedConfig metadata, CodecContext context) {
      for (String key : List.of("offset", "scale")) {
        if (metadata.config().get(key) == null) {
          throw new MetadataException("/configuration/" + key + ": codec " + NAME + " needs a number");
        }
      }
      double offset = Configs.number(metadata, "offset", 0);
      double scale = Configs.number(metadata, "scale", 1);
      NumpyType dtype = Configs.dtype(metadata, "dtype", null);
      NumpyType astype = Configs.dtype(metadata, "astype", dtype);
      ObjectNode config = JsonNodeFactory.instance.objectNode();
      config.set("offset", metadata.config().get("offset"));
      config.set("scale", metadata.config().get("scale"));
      config.put("dtype", dtype.text()).put("astype", astype.text());
      return new FixedScaleOffsetCodec(config, offset, scale, dtype, astype);
    }
  }
}
