package dev.zarrow.grid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.NamedConfig;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How chunk coordinates become store keys (relative to the array's path): {@code default}
 * ({@code c/1/2}, or {@code c.1.2} with separator {@code .}; {@code c} for a 0-d array) or {@code v2}
 * ({@code 1.2}, or {@code 1/2}; {@code 0} for a 0-d array).
 */
public record ChunkKeyEncoding(boolean v2, char separator) {

  public static final ChunkKeyEncoding DEFAULT = new ChunkKeyEncoding(false, '/');

  public ChunkKeyEncoding {
    if (separator != '/' && separator != '.') {
      throw new MetadataException("/chunk_key_encoding/configuration/separator: must be \"/\" or \".\"");
    }
  }

  public static ChunkKeyEncoding parse(NamedConfig config) {
    boolean v2 =
        switch (config.name()) {
          case "default" -> false;
          case "v2" -> true;
          default -> throw new UnsupportedExtensionException(
              "/chunk_key_encoding: unsupported encoding '" + config.name() + "' (supported: default, v2)");
        };
    JsonNode sep = config.config().get("separator");
    char separator = v2 ? '.' : '/';
    if (sep != null) {
      if (!sep.isTextual() || sep.textValue().length() != 1) {
        throw new MetadataException("/chunk_key_encoding/configuration/separator: must be \"/\" or \".\"");
      }
      separator = sep.textValue().charAt(0);
    }
    return new ChunkKeyEncoding(v2, separator);
  }

  public NamedConfig toMetadata() {
    return NamedConfig.of(
        v2 ? "v2" : "default", JsonNodeFactory.instance.objectNode().put("separator", String.valueOf(separator)));
  }

  /** The key of chunk {@code coords}, relative to the array. */
  public String key(long[] coords) {
    StringBuilder out = new StringBuilder();
    if (!v2) {
      out.append('c');
      for (long c : coords) {
        out.append(separator).append(c);
      }
      return out.toString();
    }
    if (coords.length == 0) {
      return "0";
    }
    for (int i = 0; i < coords.length; i++) {
      out.append(i == 0 ? "" : String.valueOf(separator)).append(coords[i]);
    }
    return out.toString();
  }

  /**
   * The coordinates that {@code relative} (a key relative to the array) names within a grid of
   * {@code gridShape} chunks per dimension, or empty when it names none: another encoding, a number
   * with a leading zero or past the grid. {@code key(coords(k))} is {@code k} for every key found.
   */
  public Optional<long[]> coords(String relative, long[] gridShape) {
    String sep = String.valueOf(separator);
    String rest;
    if (v2) {
      if (gridShape.length == 0) {
        return relative.equals("0") ? Optional.of(new long[0]) : Optional.empty();
      }
      rest = relative;
    } else {
      if (gridShape.length == 0) {
        return relative.equals("c") ? Optional.of(new long[0]) : Optional.empty();
      }
      if (!relative.startsWith("c" + sep)) {
        return Optional.empty();
      }
      rest = relative.substring(2);
    }
    String[] parts = rest.split(Pattern.quote(sep), -1);
    if (parts.length != gridShape.length) {
      return Optional.empty();
    }
    long[] out = new long[gridShape.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 19 || !p.chars().allMatch(ch -> ch >= '0' && ch <= '9')
          || (p.length() > 1 && p.charAt(0) == '0')) {
        return Optional.empty();
      }
      try {
        out[i] = Long.parseLong(p);
      } catch (NumberFormatException e) { // 19 digits beyond 2^63 - 1
        return Optional.empty();
      }
      if (out[i] >= gridShape[i]) {
        return Optional.empty();
      }
    }
    return Optional.of(out);
  }
}
