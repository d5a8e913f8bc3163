package dev.zarrow.table;

import dev.zarrow.ArraySpec;
import dev.zarrow.metadata.NamedConfig;
import java.util.List;

/**
 * How {@link TableWriter} lays out the arrays of a table.
 *
 * @param chunkRows rows per chunk (per inner chunk when sharded); positive
 * @param shardRows rows per shard, a multiple of {@code chunkRows}; 0 for no sharding
 * @param compressors the bytes->bytes codecs after each chunk's serializer (e.g. zstd, crc32c)
 * @param nativeTypes store a column as a native Zarr data type when it has one and no nulls; false
 *     stores every column as the {@code arrow} data type
 */
public record TableOptions(int chunkRows, int shardRows, List<NamedConfig> compressors, boolean nativeTypes) {
  /** Rows per chunk unless told otherwise: 256K rows, 1 MB of int32 or 2 MB of float64 per chunk. */
  public static final int DEFAULT_CHUNK_ROWS = 1 << 18;

  public TableOptions {
    if (chunkRows <= 0) {
      throw new IllegalArgumentException("chunkRows must be positive, got " + chunkRows);
    }
    if (shardRows < 0 || (shardRows > 0 && shardRows % chunkRows != 0)) {
      throw new IllegalArgumentException("shardRows must be 0 (no sharding) or a positive multiple of chunkRows ("
          + chunkRows + "), got " + shardRows);
    }
    compressors = List.copyOf(compressors);
  }

  /** 256K-row chunks, no sharding, {@code zstd} level 3 then {@code crc32c}, native types. */
  public static TableOptions defaults() {
    return new TableOptions(DEFAULT_CHUNK_ROWS, 0, List.of(ArraySpec.zstd(3), ArraySpec.crc32c()), true);
  }

  public TableOptions withChunkRows(int rows) {
    return new TableOptions(rows, shardRows, compressors, nativeTypes);
  }

  /** Shards of {@code rows} rows (a multiple of the chunk rows), or 0 for none. */
  public TableOptions withShardRows(int rows) {
    return new TableOptions(chunkRows, rows, compressors, nativeTypes);
  }

  public TableOptions withCompressors(List<NamedConfig> codecs) {
    return new TableOptions(chunkRows, shardRows, codecs, nativeTypes);
  }

  public TableOptions withNativeTypes(boolean on) {
    return new TableOptions(chunkRows, shardRows, compressors, on);
  }

  /** The rows a writer writes at once: a shard when sharded, else a chunk. */
  int writeRows() {
    return shardRows > 0 ? shardRows : chunkRows;
  }
}
