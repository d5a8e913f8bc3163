package dev.zarrow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The command line's spelling of codecs, one codec per {@code --codec} value, in chain order:
 *
 * <pre>
 * codec := '{' JSON '}'              one codec's metadata, e.g. {"name":"zstd","configuration":{"level":3,"checksum":true}}
 *        | '[' JSON ']'              a whole codec list (then the only --codec)
 *        | NAME                      the codec with its usual configuration (below), else none
 *        | NAME ':' ARGS             short arguments of the codecs below
 *        | NAME ':' '{' JSON '}'     any codec with that configuration object
 *
 * bytes            {"endian":"little"}   bytes:big, bytes:little
 * zstd             level 3, no checksum  zstd:LEVEL, LEVEL in -131072..22 (the zstd spec's range; 0 means
 *                                       libzstd's default, 3, so the default is written as 3, as it is)
 * gzip             level 5               gzip:LEVEL, LEVEL in 0..9
 * zarrs.vlen       index uint32 at the start, both parts plain bytes (compress with codecs after it)
 * transpose        (needs an order)      transpose:2,0,1
 * blosc            lz4, level 5          blosc:CNAME[:CLEVEL[:SHUFFLE]], e.g. blosc:zstd:3:bitshuffle
 *                  CNAME lz4, lz4hc, blosclz, zstd or zlib; SHUFFLE noshuffle, shuffle or bitshuffle,
 *                  by default bitshuffle for 1-byte elements, else shuffle; typesize is the element size
 * crc32c, vlen-utf8, vlen-bytes, ...     no configuration
 * zep7             not a codec: the place of the serializer left empty, so that string and binary
 *                  chunks take the ZEP7 layout (offsets, padding, data); see {@link #ZEP7}
 * </pre>
 *
 * {@link #format} prints a codec back in this grammar (for {@code ls}).
 */
final class CodecSpecs {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * The name that stands for "no array->bytes codec": ZEP7 makes a variable-length data type its own
   * serializer when the codec list has none, and without this word {@code copy} would put the data
   * type's default serializer ({@code vlen-utf8}, {@code vlen-bytes}) in that place.
   */
  static final String ZEP7 = "zep7";

  private CodecSpecs() {}

  /** zstd's levels (zarr-specs v3 codecs/zstd): negative ones are the fast modes. */
  static final int ZSTD_MIN_LEVEL = -131072;
  static final int ZSTD_MAX_LEVEL = 22;
  /** What {@code zstd} without a level writes: libzstd's default, the level 0 stands for. */
  static final int ZSTD_DEFAULT_LEVEL = 3;

  /** Parses the values of repeated {@code --codec} options; bad ones are an {@link IllegalArgumentException}. */
  static List<NamedConfig> parse(List<String> specs) {
    List<NamedConfig> out = new ArrayList<>();
    for (String spec : specs) {
      int from = out.size();
      parseOne(spec, specs.size(), out);
      for (int i = from; i < out.size(); i++) {
        checkLevels(out.get(i), spec.strip());
      }
    }
    return out;
  }

  /** Levels out of their codec's range, in any spelling, are refused here rather than clamped by a library. */
  private static void checkLevels(NamedConfig codec, String spec) {
    ObjectNode c = codec.config();
    if (c == null || !c.path("level").isIntegralNumber()) {
      return;
    }
    long level = c.get("level").asLong();
    boolean zstd = codec.name().equals("zstd");
    if (zstd && (!c.get("level").canConvertToInt() || level < ZSTD_MIN_LEVEL || level > ZSTD_MAX_LEVEL)) {
      throw new IllegalArgumentException("--codec " + spec + ": zstd's level is " + ZSTD_MIN_LEVEL + ".." + ZSTD_MAX_LEVEL
          + " (0 means the default, " + ZSTD_DEFAULT_LEVEL + "), got " + c.get("level").asText());
    }
    if (codec.name().equals("gzip") && (level < 0 || level > 9)) {
      throw new IllegalArgumentException("--codec " + spec + ": gzip's level is 0..9, got " + c.get("level").asText());
    }
  }

  private static void parseOne(String spec, int count, List<NamedConfig> out) {
    String s = spec.strip();
    if (s.startsWith("[")) {
      if (count != 1) {
        throw new IllegalArgumentException("--codec " + s + ": a JSON codec list must be the only --codec, got " + count + " values");
      }
      JsonNode list = json(s);
      if (!list.isArray()) {
        throw new IllegalArgumentException("--codec " + s + ": expected a JSON array of codecs");
      }
      for (int i = 0; i < list.size(); i++) {
        out.add(named(list.get(i), "--codec " + s + " [" + i + "]"));
      }
    } else if (s.startsWith("{")) {
      out.add(named(json(s), "--codec " + s));
    } else {
      out.add(shortForm(s));
    }
  }

  private static NamedConfig shortForm(String s) {
    int colon = s.indexOf(':');
    String name = (colon < 0 ? s : s.substring(0, colon)).strip();
    String args = colon < 0 ? null : s.substring(colon + 1).strip();
    if (!name.matches("[A-Za-z0-9_.\\-]+")) {
      throw new IllegalArgumentException("--codec " + s + ": '" + name + "' is not a codec name");
    }
    if (name.equals(ZEP7) && args != null) {
      throw new IllegalArgumentException("--codec " + s + ": zep7 takes no arguments (it stands for no serializer)");
    }
    if (args != null && args.startsWith("{")) {
      JsonNode config = json(args);
      if (!config.isObject()) {
        throw new IllegalArgumentException("--codec " + s + ": the configuration must be a JSON object");
      }
      return NamedConfig.of(name, (ObjectNode) config);
    }
    ObjectNode config = NODES.objectNode();
    switch (name) {
      case "bytes" -> {
        String endian = args == null ? "little" : args;
        if (!endian.equals("little") && !endian.equals("big")) {
          throw new IllegalArgumentException("--codec " + s + ": bytes takes little or big");
        }
        return NamedConfig.of(name, config.put("endian", endian));
      }
      case "zstd" -> {
        return NamedConfig.of(name, config.put("level", args == null ? ZSTD_DEFAULT_LEVEL : integer(args, s)).put("checksum", false));
      }
      case "gzip" -> {
        return NamedConfig.of(name, config.put("level", args == null ? 5 : integer(args, s)));
      }
      case "blosc" -> {
        return blosc(args, s);
      }
      case "zarrs.vlen" -> {
        if (args != null) {
          throw new IllegalArgumentException("--codec " + s + ": zarrs.vlen has no short arguments; give its configuration as JSON,"
              + " e.g. zarrs.vlen:{\"index_codecs\":[...],\"data_codecs\":[...],\"index_data_type\":\"uint32\"}");
        }
        // The index at the start (zarrs' first form, which every version reads), both parts plain.
        config.putArray("index_codecs").add(ArraySpec.bytes("little").toJson());
        config.putArray("data_codecs").add(NamedConfig.of("bytes", null).toJson());
        config.put("index_data_type", "uint32");
        return NamedConfig.of(name, config);
      }
      case "transpose" -> {
        if (args == null || args.isEmpty()) {
          throw new IllegalArgumentException("--codec " + s + ": transpose needs an order, e.g. transpose:1,0");
        }
        ArrayNode order = config.putArray("order");
        for (String part : args.split(",", -1)) {
          order.add(integer(part.strip(), s));
        }
        return NamedConfig.of(name, config);
      }
      default -> {
        if (args != null) {
          throw new IllegalArgumentException("--codec " + s + ": codec " + name
              + " has no short arguments; give its configuration as JSON, e.g. " + name + ":{\"key\":1}");
        }
        return NamedConfig.of(name, null);
      }
    }
  }

  /** {@code blosc[:CNAME[:CLEVEL[:SHUFFLE]]]}; what is left out is zarr-python 2's default or the data type's. */
  private static NamedConfig blosc(String args, String spec) {
    String[] parts = args == null ? new String[0] : args.split(":", -1);
    if (parts.length > 3) {
      throw new IllegalArgumentException("--codec " + spec + ": blosc takes at most CNAME:CLEVEL:SHUFFLE");
    }
    int clevel = parts.length > 1 ? integer(parts[1], spec) : 5;
    if (clevel < 0 || clevel > 9) {
      throw new IllegalArgumentException("--codec " + spec + ": blosc's level is 0..9, got " + clevel);
    }
    String shuffle = parts.length > 2 ? parts[2] : null;
    if (shuffle != null && !List.of("noshuffle", "shuffle", "bitshuffle").contains(shuffle)) {
      throw new IllegalArgumentException("--codec " + spec + ": blosc's shuffle is noshuffle, shuffle or bitshuffle, got '"
          + shuffle + "'");
    }
    return ArraySpec.blosc(parts.length > 0 ? parts[0] : "lz4", clevel, shuffle);
  }

  private static int integer(String text, String spec) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--codec " + spec + ": '" + text + "' is not an integer");
    }
  }

  private static JsonNode json(String text) {
    try {
      return Json.parse(text, "--codec " + text);
    } catch (ZarrException e) {
      throw new IllegalArgumentException(Main.oneLine(e.getMessage()));
    }
  }

  private static NamedConfig named(JsonNode node, String what) {
    try {
      return NamedConfig.parse(node, what);
    } catch (ZarrException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  /** A codec list in the short grammar, codecs separated by spaces. */
  static String format(List<NamedConfig> codecs) {
    StringJoiner out = new StringJoiner(" ");
    codecs.forEach(c -> out.add(format(c)));
    return out.toString();
  }

  /** One codec in the short grammar where it has one, else {@code name:{configuration}}. */
  static String format(NamedConfig codec) {
    ObjectNode c = codec.config();
    String name = codec.name();
    if (!codec.mustUnderstand()) {
      return Json.compact(codec.toJson());
    }
    if (c.isEmpty()) {
      return name;
    }
    if (name.equals("bytes") && c.size() == 1 && c.path("endian").isTextual()) {
      return c.get("endian").asText().equals("little") ? "bytes" : "bytes:" + c.get("endian").asText();
    }
    if (name.equals("zstd") && c.size() == 2 && c.path("level").isInt() && c.path("checksum").isBoolean()
        && !c.get("checksum").booleanValue()) {
      return "zstd:" + c.get("level").intValue();
    }
    if (name.equals("gzip") && c.size() == 1 && c.path("level").isInt()) {
      return "gzip:" + c.get("level").intValue();
    }
    if (name.equals("blosc") && c.path("cname").isTextual() && c.path("clevel").isInt() && c.path("blocksize").asInt(-1) == 0
        && c.path("shuffle").isTextual() && c.size() == (c.has("typesize") ? 5 : 4)) {
      // typesize is the element size when zarrow or zarr-python wrote it: not part of the short form
      return "blosc:" + c.get("cname").asText() + ":" + c.get("clevel").intValue() + ":" + c.get("shuffle").asText();
    }
    if (name.equals("transpose") && c.size() == 1 && c.path("order").isArray()) {
      StringJoiner order = new StringJoiner(",");
      c.get("order").forEach(o -> order.add(o.asText()));
      return "transpose:" + order;
    }
    if (name.equals(Layout.SHARDING) && c.path("chunk_shape").isArray() && c.path("codecs").isArray()) {
      StringJoiner inner = new StringJoiner(",");
      c.get("chunk_shape").forEach(n -> inner.add(n.asText()));
      try {
        return Layout.SHARDING + "(chunks " + inner + ": " + format(Layout.codecList(c.get("codecs"), "codecs")) + ")";
      } catch (ZarrException e) {
        return name + ":" + Json.compact(c);
      }
    }
    return name + ":" + Json.compact(c);
  }
}
