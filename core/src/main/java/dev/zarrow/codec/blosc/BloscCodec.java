package dev.zarrow.codec.blosc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

/**
 * {@code blosc}: chunks in the Blosc 1 container (c-blosc 1.x, header version 2), decoded and encoded in
 * Java. Reads and writes chunks compressed with blosclz, lz4, lz4hc, zlib and zstd (reading, whatever the
 * configuration says: the chunk's header decides, typesize included).
 *
 * <p>Spec: zarr-specs v3 codecs/blosc. Configuration, as zarr-python writes it:
 *
 * <pre>{@code
 * {"typesize": 4, "cname": "lz4", "clevel": 5, "shuffle": "shuffle", "blocksize": 0}
 * }</pre>
 *
 * {@code cname}: lz4, lz4hc, blosclz, zstd or zlib (snappy is refused by name); {@code clevel} 0-9;
 * {@code shuffle}: noshuffle, shuffle or bitshuffle; {@code blocksize} 0 for c-blosc's choice. Left out,
 * they are zstd, 5 and 0 (zarr-python's defaults); {@code typesize} and {@code shuffle} left out are
 * filled in from the data type when the codec is bound to an array (the element size; bitshuffle for
 * one-byte elements, else shuffle), as zarr-python does, and stored so.
 */
public final class BloscCodec implements BytesToBytesCodec {
  public static final String NAME = "blosc";

  private final BloscCompressor cname;
  private final int clevel;
  private final BloscShuffle shuffle; // null: from the data type
  private final int typesize; // 0: from the data type
  private final int blocksize;
  private final BloscDecoder decoder;
  private final Executor executor;

  private BloscCodec(BloscCompressor cname, int clevel, BloscShuffle shuffle, int typesize, int blocksize,
      BloscDecoder decoder, Executor executor) {
    this.cname = cname;
    this.clevel = clevel;
    this.shuffle = shuffle;
    this.typesize = typesize;
    this.blocksize = blocksize;
    this.decoder = decoder;
    this.executor = executor;
  }

  /**
   * A codec with these settings ({@code shuffle} null and {@code typesize} 0 leave them to the data type);
   * blocks of large chunks decode in parallel on {@code executor}.
   */
  public static BloscCodec of(BloscCompressor cname, int clevel, BloscShuffle shuffle, int typesize, int blocksize,
      Executor executor) {
    if (!cname.decodable()) {
      throw new UnsupportedExtensionException("/configuration/cname: blosc with " + cname.cname()
          + " is not supported (supported: " + BloscCompressor.names(BloscCompressor::decodable) + ")");
    }
    if (clevel < 0 || clevel > 9) {
      throw new MetadataException("/configuration/clevel: blosc clevel must be 0..9, got " + clevel);
    }
    if (typesize < 0) {
      throw new MetadataException("/configuration/typesize: blosc typesize must be a positive integer, got " + typesize);
    }
    if (blocksize < 0) {
      throw new MetadataException("/configuration/blocksize: blosc blocksize must be 0 or more, got " + blocksize);
    }
    return new BloscCodec(cname, clevel, shuffle, typesize, blocksize, new BloscDecoder(), executor);
  }

  @Override
  public NamedConfig toMetadata() {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    if (typesize > 0) {
      config.put("typesize", typesize);
    }
    config.put("cname", cname.cname()).put("clevel", clevel);
    if (shuffle != null) {
      config.put("shuffle", shuffle.configName());
    }
    config.put("blocksize", blocksize);
    return NamedConfig.of(NAME, config);
  }

  /** Fills in typesize (the element size; 1 for variable-length data) and shuffle from the data type. */
  @Override
  public BloscCodec bind(ChunkSpec spec) {
    if (typesize > 0 && shuffle != null) {
      return this;
    }
    int width = spec.dataType().byteWidth();
    int ts = typesize > 0 ? typesize : Math.max(1, width);
    BloscShuffle s = shuffle != null ? shuffle : defaultShuffle(ts);
    return new BloscCodec(cname, clevel, s, ts, blocksize, decoder, executor);
  }

  private static BloscShuffle defaultShuffle(int typesize) {
    return typesize == 1 ? BloscShuffle.BITSHUFFLE : BloscShuffle.SHUFFLE;
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    int ts = typesize > 0 ? typesize : 1;
    return new BloscEncoder(cname, clevel, shuffle != null ? shuffle : defaultShuffle(ts), ts, blocksize).encode(bytes);
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return OptionalLong.of(BytesToBytesCodec.compressedBound(decodedSize));
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    return decoder.decode(bytes, expectedSize, maxSize, executor);
  }

  /** Decodes straight into the target (Arrow memory on the read path). */
  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
    decoder.decodeInto(bytes, target, executor);
  }

  /** Every check of {@link #decodeInto}, without unshuffling into the target (see {@link BloscDecoder#verify}). */
  @Override
  public void verifyInto(ByteBuffer bytes, ByteBuffer target) {
    decoder.verify(bytes, target.remaining(), executor);
  }

  /** Makes {@code blosc} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public BloscCodec create(NamedConfig metadata, CodecContext context) {
      ObjectNode config = metadata.config();
      String cnameText = text(config, "cname", "zstd");
      BloscCompressor cname = BloscCompressor.byName(cnameText).orElseThrow(() -> new MetadataException(
          "/configuration/cname: unknown blosc compressor '" + cnameText + "' (known: "
              + BloscCompressor.names(c -> true) + ")"));
      String shuffleText = text(config, "shuffle", null);
      BloscShuffle shuffle = shuffleText == null ? null : BloscShuffle.byConfigName(shuffleText).orElseThrow(() ->
          new MetadataException("/configuration/shuffle: blosc shuffle must be noshuffle, shuffle or bitshuffle, got '"
              + shuffleText + "'"));
      int typesize = integer(config, "typesize", 0);
      if (config.has("typesize") && typesize < 1) {
        throw new MetadataException("/configuration/typesize: blosc typesize must be a positive integer, got " + typesize);
      }
      return BloscCodec.of(cname, integer(config, "clevel", 5), shuffle, typesize, integer(config, "blocksize", 0),
          context.executor());
    }

    private static String text(ObjectNode config, String key, String absent) {
      JsonNode n = config.get(key);
      if (n == null) {
        return absent;
      }
      if (!n.isTextual()) {
        throw new MetadataException("/configuration/" + key + ": codec blosc needs a string, got " + n);
      }
      return n.asText();
    }

    private static int integer(ObjectNode config, String key, int absent) {
      JsonNode n = config.get(key);
      if (n == null) {
        return absent;
      }
      if (!n.isInt()) {
        throw new MetadataException("/configuration/" + key + ": codec blosc needs an integer, got " + n);
      }
      return n.intValue();
    }
  }
}
