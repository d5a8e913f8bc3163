package dev.zarrow.codec.vlen;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.spi.Registry;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/** Shared helpers of the variable-length tests. */
final class VlenTesting {
  private VlenTesting() {}

  /** The codec lists of every layout, as JSON (ZEP7 is the empty list). */
  static final String ZEP7 = "[]";
  static final String VLEN_UTF8 = "[{\"name\": \"vlen-utf8\"}]";
  static final String VLEN_BYTES = "[{\"name\": \"vlen-bytes\"}]";
  static final String VLEN_V2 = "[{\"name\": \"zarrs.vlen_v2\"}]";

  static String zarrsVlen(String indexType, String location) {
    return "[{\"name\": \"zarrs.vlen\", \"configuration\": {"
        + "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}],"
        + "\"data_codecs\": [{\"name\": \"bytes\"}],"
        + "\"index_data_type\": \"" + indexType + "\""
        + (location == null ? "" : ", \"index_location\": \"" + location + "\"")
        + "}}]";
  }

  static String zarrsVlenCompressed(String indexType, String location) {
    return "[{\"name\": \"zarrs.vlen\", \"configuration\": {"
        + "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\", \"configuration\": {\"level\": 3}}, {\"name\": \"crc32c\"}],"
        + "\"data_codecs\": [{\"name\": \"bytes\"}, {\"name\": \"gzip\", \"configuration\": {\"level\": 1}}],"
        + "\"index_data_type\": \"" + indexType + "\", \"index_location\": \"" + location + "\"}}, {\"name\": \"zstd\"}]";
  }

  /** The list's layout name for the text or binary flavour of a type. */
  static String interleaved(VarLenType type) {
    return type.isText() ? VLEN_UTF8 : VLEN_BYTES;
  }

  static List<NamedConfig> codecs(String json) {
    JsonNode list = Json.parse(json, "test");
    List<NamedConfig> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      out.add(NamedConfig.parse(list.get(i), "/codecs/" + i));
    }
    return out;
  }

  static CodecPipeline pipeline(String codecsJson, VarLenType type, CodecOptions options, int... shape) {
    var context = Registry.defaults().context(options);
    return CodecPipeline.of(context.codecs(codecs(codecsJson)), new ChunkSpec(shape, type, type.defaultFill()), context);
  }

  static CodecPipeline pipeline(String codecsJson, VarLenType type, int... shape) {
    return pipeline(codecsJson, type, CodecOptions.DEFAULT, shape);
  }

  static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex.replaceAll("[\\s_]", ""));
  }

  static String hex(ByteBuffer bytes) {
    byte[] out = new byte[bytes.remaining()];
    bytes.duplicate().get(out);
    return HexFormat.of().formatHex(out);
  }

  /** A writable direct buffer holding {@code bytes}: what a file store hands out. */
  static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  private static final String[] ALPHABET = {
    "a", "b", "z", " ", "0", "é", "ß", "ж", "€", "日", "本", "😀", "👍🏽", "\u0000", "\u007f", "\uffff", "𝄞"};

  /** {@code n} random strings: empty ones, ASCII, multi-byte, emoji. */
  static String[] randomStrings(Random random, int n) {
    String[] out = new String[n];
    for (int i = 0; i < n; i++) {
      int len = random.nextInt(5) == 0 ? 0 : random.nextInt(12);
      StringBuilder s = new StringBuilder();
      for (int j = 0; j < len; j++) {
        s.append(ALPHABET[random.nextInt(ALPHABET.length)]);
      }
      out[i] = s.toString();
    }
    return out;
  }

  /** {@code n} random byte strings of every byte value, some empty. */
  static byte[][] randomBytes(Random random, int n) {
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      out[i] = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(40)];
      random.nextBytes(out[i]);
    }
    return out;
  }

  static byte[][] utf8(String[] strings) {
    byte[][] out = new byte[strings.length][];
    for (int i = 0; i < strings.length; i++) {
      out[i] = strings[i].getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }
}
