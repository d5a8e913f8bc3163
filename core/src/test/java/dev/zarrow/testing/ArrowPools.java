package dev.zarrow.testing;

import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Gather;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.Range;
import dev.zarrow.vector.ValueEquals;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Columns of Arrow JSON-integration files as pools of values of every type, dictionaries decoded:
 * the raw material of randomized tests of arrays of the arrow data type.
 */
public final class ArrowPools {
  private ArrowPools() {}

  /** One column's values (decoded form), with its stored field. Closing it frees the vector. */
  public record Pool(String name, Field stored, FieldVector values) implements AutoCloseable {
    @Override
    public void close() {
      values.close();
    }
  }

  /** The first batch of every column of {@code file} that has rows. The caller closes the pools. */
  public static List<Pool> of(Path file, Path tmp, BufferAllocator allocator) throws IOException {
    Path plain = file.toString().endsWith(".gz") ? ArrowJsonFiles.plain(file, Files.createTempDirectory(tmp, "p")) : file;
    JsonNode fields = ArrowJsonFiles.read(file).get("schema").get("fields");
    List<Pool> out = new ArrayList<>();
    try (JsonFileReader reader = new JsonFileReader(plain.toFile(), allocator)) {
      org.apache.arrow.vector.types.pojo.Schema memory = reader.start();
      for (VectorSchemaRoot next = ArrowJsonFiles.nextBatch(reader, memory, allocator); next != null;
          next = ArrowJsonFiles.nextBatch(reader, memory, allocator)) {
        try (VectorSchemaRoot batch = next) {
          if (batch.getRowCount() == 0 || !out.isEmpty()) {
            continue;
          }
          for (int c = 0; c < fields.size(); c++) {
            Field stored = FieldJson.parse(fields.get(c));
            Map<Long, FieldVector> dictionaries = new HashMap<>();
            for (long id : Dictionaries.valueFields(stored).keySet()) {
              dictionaries.put(id, reader.lookup(id).getVector());
            }
            FieldVector values = Dictionaries.decode(batch.getVector(c), stored, dictionaries, allocator);
            out.add(new Pool(file.getFileName() + ":" + stored.getName(), stored, values));
          }
        }
      }
    }
    return out;
  }

  /** {@code n} values drawn at random from the pool, in a new vector of the pool's memory field. */
  public static FieldVector sample(Pool pool, int n, Random random, BufferAllocator allocator) {
    List<Gather.Run> runs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      runs.add(new Gather.Run(pool.values(), random.nextInt(pool.values().getValueCount()), 1));
    }
    return Gather.gather(Dictionaries.decodedField(pool.stored()), runs, allocator);
  }

  /** Element {@code i} of {@code a} equals element {@code j} of {@code b} (field names aside). */
  public static boolean same(FieldVector a, int i, FieldVector b, int j) {
    return new ValueEquals(a, b, (x, y) -> true).rangeEquals(new Range(i, j, 1));
  }
}
