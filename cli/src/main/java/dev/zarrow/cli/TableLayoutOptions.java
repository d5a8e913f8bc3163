package dev.zarrow.cli;

import dev.zarrow.ZarrOptions;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.table.TableOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** How the commands that write group tables ({@code import}, {@code serve}'s DoPut) lay out their arrays. */
final class TableLayoutOptions {
  @Option(names = "--chunk-rows", paramLabel = "N", description = "Rows per chunk (per inner chunk when sharded); default ${DEFAULT-VALUE}.")
  long chunkRows = TableOptions.DEFAULT_CHUNK_ROWS; // long: a value past int range gets its own message

  @Option(names = "--shard-rows", paramLabel = "N", description = "Rows per shard, a multiple of --chunk-rows; 0 (default) for no sharding.")
  long shardRows;

  @Option(names = "--codec", paramLabel = "CODEC", description = "A bytes->bytes codec after each chunk's serializer (repeat, in order); default zstd:3 crc32c.")
  List<String> codecs = new ArrayList<>();

  @Option(names = "--arrow-only", description = "Store every column as the arrow data type (no native types).")
  boolean arrowOnly;

  /** The table options these say; a value that cannot be used is a usage error made by {@code usage}. */
  TableOptions toTableOptions(ZarrOptions options, Function<String, RuntimeException> usage) {
    if (chunkRows <= 0) {
      throw usage.apply("--chunk-rows " + chunkRows + ": must be positive");
    }
    if (chunkRows > Integer.MAX_VALUE || shardRows > Integer.MAX_VALUE) {
      throw usage.apply((chunkRows > Integer.MAX_VALUE ? "--chunk-rows " + chunkRows : "--shard-rows " + shardRows)
          + ": is more than " + Integer.MAX_VALUE + ", the most rows a chunk or shard can have");
    }
    if (shardRows < 0 || (shardRows > 0 && shardRows % chunkRows != 0)) {
      throw usage.apply("--shard-rows " + shardRows + ": must be 0 or a positive multiple of --chunk-rows (" + chunkRows + ")");
    }
    TableOptions table = TableOptions.defaults().withChunkRows((int) chunkRows).withShardRows((int) shardRows).withNativeTypes(!arrowOnly);
    if (codecs.isEmpty()) {
      return table;
    }
    List<NamedConfig> list;
    try {
      list = CodecSpecs.parse(codecs);
    } catch (IllegalArgumentException e) {
      throw usage.apply(e.getMessage());
    }
    for (NamedConfig c : list) {
      try {
        if (!(options.registry().codec(c, options.codecs()) instanceof BytesToBytesCodec)) {
          throw usage.apply("--codec " + CodecSpecs.format(c) + ": not a bytes->bytes codec (the serializer is chosen per column)");
        }
      } catch (ZarrException e) {
        throw usage.apply("--codec " + CodecSpecs.format(c) + ": " + e.getMessage());
      }
    }
    return table.withCompressors(list);
  }
}
