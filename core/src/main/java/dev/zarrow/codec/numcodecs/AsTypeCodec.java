package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code numcodecs.astype}: numcodecs' {@code AsType}, a cast from {@code decode_dtype} to
 * {@code encode_dtype} and back (numpy's {@code astype}: integers keep their low bits, floats truncate
 * toward zero into integers). Configuration: {@code {"encode_dtype": "<f4", "decode_dtype": "<f8"}}.
 */
final class AsTypeCodec extends NumericFilter {
  static final String NAME = "numcodecs.astype";

  AsTypeCodec(NumpyType encodeType, NumpyType decodeType) {
    super(NAME, config(encodeType, decodeType), decodeType, encodeType);
  }

  private static ObjectNode config(NumpyType encodeType, NumpyType decodeType) {
    return JsonNodeFactory.instance.objectNode().put("encode_dtype", encodeType.text()).put("decode_dtype", decodeType.text());
  }

  @Override
  FieldVector encodeValues(FieldVector chunk, BufferAllocator allocator) {
    return cast(chunk, dtype.type(), astype.type(), allocator);
  }

  @Override
  FieldVector decodeValues(FieldVector chunk, BufferAllocator allocator) {
    return cast(chunk, astype.type(), dtype.type(), allocator);
  }

  /** Makes {@code numcodecs.astype} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public AsTypeCodec create(NamedConfig metadata, CodecContext context) {
      return new AsTypeCodec(Configs.dtype(metadata, "encode_dtype", null), Configs.dtype(metadata, "decode_dtype", null));
    }
  }
}
