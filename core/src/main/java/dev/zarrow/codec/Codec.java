package dev.zarrow.codec;

import dev.zarrow.metadata.NamedConfig;

/**
 * A Zarr v3 codec: array->array (transpose), array->bytes (the serializer: bytes, sharding, vlen, arrow)
 * or bytes->bytes (compressors, checksums). Codecs are immutable and thread-safe; their options are
 * fixed when they are made from metadata by a {@link CodecFactory}.
 */
public sealed interface Codec permits ArrayToArrayCodec, ArrayToBytesCodec, BytesToBytesCodec {

  /** The {@code codecs} entry that describes this codec. */
  NamedConfig toMetadata();

  default String name() {
    return toMetadata().name();
  }
}
