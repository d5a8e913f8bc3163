package dev.zarrow.spark;

import dev.zarrow.ArraySpec;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.table.TableOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The write options: {@code chunkRows} (rows per chunk, default {@value TableOptions#DEFAULT_CHUNK_ROWS}),
 * {@code shardRows} (rows per shard, a multiple of {@code chunkRows}; default 0, no shards) and
 * {@code codecs}, the compressors after each chunk's serializer, comma-separated in {@code zarrow copy
 * --codec}'s short spelling ({@code zstd[:LEVEL]}, {@code gzip[:LEVEL]}, {@code crc32c}, any other
 * codec name without configuration; {@code none} for none; default {@code zstd:3,crc32c}).
 */
final class WriteOptions {
  private WriteOptions() {}

  static TableOptions of(Map<String, String> options) {
    TableOptions out = TableOptions.defaults();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String value = e.getValue().strip();
      switch (e.getKey().toLowerCase(Locale.ROOT)) {
        case "chunkrows" -> out = out.withChunkRows(positive(e.getKey(), value));
        case "shardrows" -> out = out.withShardRows(value.equals("0") ? 0 : positive(e.getKey(), value));
        case "codecs" -> out = out.withCompressors(codecs(value));
        default -> {
          // other options configure Hadoop (see Location)
        }
      }
    }
    return out;
  }

  static List<NamedConfig> codecs(String spec) {
    List<NamedConfig> out = new ArrayList<>();
    if (spec.isEmpty() || spec.equalsIgnoreCase("none")) {
      return out;
    }
    for (String part : spec.split(",")) {
      String s = part.strip();
      int colon = s.indexOf(':');
      String name = colon < 0 ? s : s.substring(0, colon).strip();
      String level = colon < 0 ? null : s.substring(colon + 1).strip();
      if (!name.matches("[A-Za-z0-9_.\\-]+")) {
        throw new IllegalArgumentException("zarr: option codecs: '" + s + "' is not a codec");
      }
      out.add(switch (name) {
        case "zstd" -> ArraySpec.zstd(level == null ? 0 : integer(s, level));
        case "gzip" -> ArraySpec.gzip(level == null ? 5 : integer(s, level));
        default -> {
          if (level != null) {
            throw new IllegalArgumentException("zarr: option codecs: '" + s + "': only zstd and gzip take a level");
          }
          yield NamedConfig.of(name, null);
        }
      });
    }
    return out;
  }

  private static int integer(String spec, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("zarr: option codecs: '" + spec + "': '" + text + "' is not a level");
    }
  }

  private static int positive(String key, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("zarr: option " + key + " must be a positive integer, got '" + value + "'");
  }
}
