package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * {@code numcodecs.gzip}, {@code numcodecs.zstd}, {@code numcodecs.blosc}: the names zarr-python 3 writes
 * into v3 metadata for numcodecs' {@code GZip}, {@code Zstd} and {@code Blosc}, whose bytes are those of
 * the v3 codecs {@code gzip}, {@code zstd} and {@code blosc}. The configuration (numcodecs' spelling) is
 * translated to the v3 codec's, which does the work; the metadata keeps the numcodecs name and spelling.
 */
final class AliasCodec implements BytesToBytesCodec {
  private final NamedConfig metadata;
  private final BytesToBytesCodec target;

  private AliasCodec(NamedConfig metadata, BytesToBytesCodec target) {
    this.metadata = metadata;
    this.target = target;
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  @Override
  public ByteBuffer encode(ByteBuffer bytes) {
    return target.encode(bytes);
  }

  @Override
  public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
    return target.decode(bytes, expectedSize, maxSize);
  }

  @Override
  public void decodeInto(ByteBuffer bytes, ByteBuffer into) {
    target.decodeInto(bytes, into);
  }

  @Override
  public void verifyInto(ByteBuffer bytes, ByteBuffer into) {
    target.verifyInto(bytes, into);
  }

  @Override
  public OptionalLong decodedSize(ByteBuffer bytes) {
    return target.decodedSize(bytes);
  }

  @Override
  public boolean decodesToNewMemory() {
    return target.decodesToNewMemory();
  }

  @Override
  public BytesToBytesCodec bind(ChunkSpec spec) {
    BytesToBytesCodec bound = target.bind(spec);
    return bound == target ? this : new AliasCodec(metadata, bound);
  }

  @Override
  public OptionalLong encodedSize(long decodedSize) {
    return target.encodedSize(decodedSize);
  }

  @Override
  public OptionalLong maxEncodedSize(long decodedSize) {
    return target.maxEncodedSize(decodedSize);
  }

  /** numcodecs' GZip: {@code {"level": 0..9}} (default 1), the v3 gzip stream. */
  static CodecFactory gzip() {
    return new Factory("numcodecs.gzip", m -> {
      ObjectNode c = JsonNodeFactory.instance.objectNode();
      c.put("level", Configs.integer(m, "level", 1, 0, 9));
      return NamedConfig.of("gzip", c);
    });
  }

  /** numcodecs' Zstd: {@code {"level": N, "checksum": bool}} (defaults 1 and false), a zstd frame. */
  static CodecFactory zstd() {
    return new Factory("numcodecs.zstd", m -> {
      ObjectNode c = JsonNodeFactory.instance.objectNode();
      c.put("level", Configs.integer(m, "level", 1, Integer.MIN_VALUE, Integer.MAX_VALUE));
      JsonNode checksum = m.config().get("checksum");
      if (checksum != null && !checksum.isBoolean()) {
        throw new MetadataException("/configuration/checksum: codec numcodecs.zstd needs a boolean, got " + checksum);
      }
      c.put("checksum", checksum != null && checksum.booleanValue());
      return NamedConfig.of("zstd", c);
    });
  }

  /**
   * numcodecs' Blosc: {@code {"cname", "clevel", "shuffle": -1|0|1|2, "blocksize", "typesize"}}; the
   * shuffle number becomes v3's name (-1, numcodecs' AUTOSHUFFLE, is bitshuffle for one-byte items and
   * byte shuffle otherwise: the v3 codec's choice when it is left out).
   */
  static CodecFactory blosc() {
    return new Factory("numcodecs.blosc", m -> {
      ObjectNode c = JsonNodeFactory.instance.objectNode();
      JsonNode cname = m.config().get("cname");
      c.put("cname", cname == null ? "lz4" : cname.asText());
      c.put("clevel", Configs.integer(m, "clevel", 5, 0, 9));
      int shuffle = Configs.integer(m, "shuffle", 1, -1, 2);
      if (shuffle >= 0) {
        c.put("shuffle", switch (shuffle) {
          case 0 -> "noshuffle";
          case 1 -> "shuffle";
          default -> "bitshuffle";
        });
      }
      if (m.config().has("typesize")) {
        c.put("typesize", Configs.integer(m, "typesize", 1, 1, Integer.MAX_VALUE));
      }
      c.put("blocksize", Configs.integer(m, "blocksize", 0, 0, Integer.MAX_VALUE));
      return NamedConfig.of("blosc", c);
    });
  }

  private static final class Factory implements CodecFactory {
    private final String name;
    private final Function<NamedConfig, NamedConfig> translate;

    Factory(String name, Function<NamedConfig, NamedConfig> translate) {
      this.name = name;
      this.translate = translate;
    }

    @Override
    public List<String> names() {
      return List.of(name);
    }

    @Override
    public Codec create(NamedConfig metadata, CodecContext context) {
      Codec target = context.codec(translate.apply(metadata));
      if (!(target instanceof BytesToBytesCodec bytes)) {
        throw new MetadataException("codec " + name + ": " + target.name() + " is not a bytes->bytes codec");
      }
      return new AliasCodec(NamedConfig.of(name, metadata.config().deepCopy()), bytes);
    }
  }
}
