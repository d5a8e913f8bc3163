package dev.zarrow.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.util.Set;

/**
 * numcodecs codec configurations of Zarr v2 ({@code {"id": X, ...}}, a compressor or a filter) to and from
 * v3 codec metadata, as zarr-python 3 converts them: {@code blosc} (shuffle {@code -1/0/1/2} to its names,
 * {@code typesize} from the dtype), {@code gzip} and {@code zstd} keep their names, {@code vlen-utf8},
 * {@code vlen-bytes} and {@code vlen-array} are the object array's serializer, and any other id {@code X}
 * becomes {@code numcodecs.X} with the rest of its configuration. Whether a codec exists is the
 * registry's question, asked when the array is opened.
 */
final class V2Codecs {
  static final String PREFIX = "numcodecs.";

  /** Object codecs: the serializer of an {@code |O} array. */
  static final Set<String> OBJECT_CODECS = Set.of("vlen-utf8", "vlen-bytes", "vlen-array");

  /** numcodecs' other object codecs, whose encodings (JSON, pickles, MessagePack) zarrow does not read. */
  static final Set<String> FOREIGN_OBJECT_CODECS = Set.of("json", "json2", "pickle", "msgpack", "msgpack2");

  /** Serializers (array->bytes) a v2 chain may hold. */
  static final Set<String> SERIALIZERS = Set.of("bytes", "vlen-utf8", "vlen-bytes", "vlen-array");

  /** numcodecs ids whose codecs work on bytes (a filter of these comes after the serializer in v3). */
  private static final Set<String> BYTES_IDS = Set.of(
      "blosc", "gzip", "zstd", "zlib", "bz2", "lz4", "lzma", "shuffle", "crc32", "adler32", "fletcher32",
      "jenkins_lookup3", "crc32c", "zfpy", "pcodec");

  private static final String[] SHUFFLES = {"noshuffle", "shuffle", "bitshuffle"};

  private V2Codecs() {}

  /** The id of a v2 codec configuration; {@code pointer} names it in errors. */
  static String id(JsonNode codec, String pointer) {
    if (codec == null || !codec.isObject()) {
      throw new MetadataException(pointer + ": expected an object with an \"id\", got " + Json.kind(codec));
    }
    JsonNode id = codec.get("id");
    if (id == null || !id.isTextual() || id.textValue().isEmpty()) {
      throw new MetadataException(pointer + "/id: expected a codec id string, got " + Json.kind(id));
    }
    return id.textValue();
  }

  /** True when the codec of {@code id} works on bytes, false when on arrays. */
  static boolean onBytes(String id) {
    return BYTES_IDS.contains(id);
  }

  /** The v3 codec of a v2 configuration; {@code itemSize} (0 when unknown) fills blosc's typesize. */
  static NamedConfig toV3(JsonNode codec, int itemSize, String pointer) {
    String id = id(codec, pointer);
    ObjectNode config = ((ObjectNode) codec).deepCopy();
    config.remove("id");
    switch (id) {
      case "blosc" -> {
        JsonNode shuffle = config.get("shuffle");
        int s = shuffle == null ? 1 : shuffle.asInt(Integer.MIN_VALUE);
        if (shuffle != null && (!shuffle.isIntegralNumber() || s < -1 || s > 2)) {
          throw new MetadataException(pointer + "/shuffle: expected -1, 0, 1 or 2, got " + Json.kind(shuffle));
        }
        if (s == -1) { // numcodecs' AUTOSHUFFLE
          s = itemSize == 1 ? 2 : 1;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("cname", config.path("cname").isMissingNode() ? JsonNodeFactory.instance.textNode("lz4") : config.get("cname"));
        out.set("clevel", config.path("clevel").isMissingNode() ? JsonNodeFactory.instance.numberNode(5) : config.get("clevel"));
        out.put("shuffle", SHUFFLES[s]);
        if (itemSize > 0) {
          out.put("typesize", itemSize);
        }
        out.set("blocksize", config.path("blocksize").isMissingNode() ? JsonNodeFactory.instance.numberNode(0) : config.get("blocksize"));
        return NamedConfig.of("blosc", out);
      }
      case "gzip" -> {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("level", config.path("level").isMissingNode() ? JsonNodeFactory.instance.numberNode(1) : config.get("level"));
        return NamedConfig.of("gzip", out);
      }
      case "zstd" -> {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("level", config.path("level").isMissingNode() ? JsonNodeFactory.instance.numberNode(0) : config.get("level"));
        out.put("checksum", config.path("checksum").asBoolean(false));
        return NamedConfig.of("zstd", out);
      }
      default -> {
        return NamedConfig.of(OBJECT_CODECS.contains(id) ? id : PREFIX + id, config);
      }
    }
  }

  /** The v2 configuration of a v3 codec; one v2 cannot name is an {@link UnsupportedExtensionException}. */
  static ObjectNode toV2(NamedConfig codec, String pointer) {
    ObjectNode config = codec.config();
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    switch (codec.name()) {
      case "blosc" -> {
        out.put("id", "blosc");
        out.set("cname", config.get("cname"));
        out.set("clevel", config.get("clevel"));
        String shuffle = config.path("shuffle").asText("noshuffle");
        out.put("shuffle", java.util.Arrays.asList(SHUFFLES).indexOf(shuffle));
        out.set("blocksize", config.path("blocksize").isMissingNode() ? JsonNodeFactory.instance.numberNode(0) : config.get("blocksize"));
        return out;
      }
      case "gzip" -> {
        return out.put("id", "gzip").put("level", config.path("level").asInt(1));
      }
      case "zlib" -> { // zarrita's name for numcodecs' zlib
        return out.put("id", "zlib").put("level", config.path("level").asInt(1));
      }
      case "zstd" -> {
        if (config.path("checksum").asBoolean(false)) {
          throw new UnsupportedExtensionException(pointer + ": zstd with a checksum has no Zarr v2 (numcodecs 0.11) form");
        }
        return out.put("id", "zstd").put("level", config.path("level").asInt(0));
      }
      default -> {
        String id;
        if (OBJECT_CODECS.contains(codec.name())) {
          id = codec.name();
        } else if (codec.name().startsWith(PREFIX) && codec.name().length() > PREFIX.length()) {
          id = codec.name().substring(PREFIX.length());
        } else {
          throw new UnsupportedExtensionException(pointer + ": codec " + codec.name()
              + " cannot be stored in Zarr v2 (v2 takes numcodecs filters and one compressor)");
        }
        out.put("id", id);
        config.fields().forEachRemaining(e -> out.set(e.getKey(), e.getValue().deepCopy()));
        return out;
      }
    }
  }
}
