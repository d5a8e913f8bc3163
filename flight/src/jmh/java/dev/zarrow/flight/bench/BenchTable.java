package dev.zarrow.flight.bench;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The table both benchmarks read: {@code rows} rows of id (int64), city (utf8, 5 values, 10% null),
 * amount (float64, quarters), qty (int32, 9% null), written as a group table in 65536-row chunks in
 * 1M-row shards with the defaults' zstd(3) + crc32c; the same data for every run (seed 16).
 */
final class BenchTable {
  static final int CHUNK_ROWS = 1 << 16;
  static final int SHARD_ROWS = 1 << 20;
  private static final String[] CITIES = {"Oslo", "Lima", "Pune", "Kyiv", "Accra"};

  private BenchTable() {}

  static ZarrGroup write(FileSystemStore store, String path, int rows, BufferAllocator allocator) {
    Random random = new Random(16);
    try (BigIntVector id = new BigIntVector("id", allocator);
        VarCharVector city = new VarCharVector("city", allocator);
        Float8Vector amount = new Float8Vector("amount", allocator);
        IntVector qty = new IntVector("qty", allocator);
        VectorSchemaRoot root = VectorSchemaRoot.of(id, city, amount, qty)) {
      id.allocateNew(rows);
      city.allocateNew(rows * 5L, rows);
      amount.allocateNew(rows);
      qty.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        id.set(i, 1_000_000L + i);
        if (random.nextInt(10) != 0) {
          city.setSafe(i, CITIES[random.nextInt(CITIES.length)].getBytes(StandardCharsets.UTF_8));
        }
        amount.set(i, random.nextInt(4000) * 0.25);
        if (random.nextInt(11) != 0) {
          qty.set(i, random.nextInt(100) - 20);
        }
      }
      root.getFieldVectors().forEach(v -> v.setValueCount(rows));
      root.setRowCount(rows);
      return TableWriter.write(Zarr.createGroup(store, path), root,
          TableOptions.defaults().withChunkRows(CHUNK_ROWS).withShardRows(SHARD_ROWS));
    }
  }
}
