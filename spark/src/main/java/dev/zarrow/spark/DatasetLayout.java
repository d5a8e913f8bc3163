package dev.zarrow.spark;

import dev.zarrow.dataset.DatasetTable;
import dev.zarrow.vector.Dictionaries;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * What planning knows of a dataset's grid that its tasks need, sent to them with the reader factory: the
 * read options, the grid's dimensions, and the values of the dimensions whose
 * columns the scan wants (each in the Arrow IPC stream format: Arrow vectors are not serializable). A
 * task computes those columns from them ({@link DimensionColumnVector}) and reads only the other ones.
 *
 * @param read the dataset's read options
 * @param dimensions the grid's dimensions, in order
 * @param values the values of the scanned dimension columns, by name, as their columns hold them
 */
record DatasetLayout(DatasetRead read, List<String> dimensions, Map<String, byte[]> values)
    implements Serializable {
  /**
   * The longest dimension whose values travel to the tasks (8 MB of int64s): every task receives all of
   * them with the reader factory, so a longer one (a million-row dimension without coordinate, say) is
   * read per chunk, as other columns are.
   */
  static final int MAX_VALUES = 1 << 20;

  DatasetLayout {
    dimensions = List.copyOf(dimensions);
    values = new LinkedHashMap<>(values);
  }

  /**
   * The layout of {@code table}'s grid, with the values of its dimensions among {@code columns} (but
   * dictionary-encoded ones and those longer than {@code maxValues}, read as stored), read with {@code
   * allocator}.
   */
  static DatasetLayout of(DatasetRead read, DatasetTable table, List<String> columns, BufferAllocator allocator, int maxValues) {
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (String dim : table.dimensions()) {
      long length = table.shape()[table.dimensions().indexOf(dim)];
      if (columns.contains(dim) && length <= maxValues && !Dictionaries.isEncoded(table.schema().findField(dim))) {
        try (FieldVector v = table.dimensionValues(dim, allocator)) {
          values.put(dim, write(v));
        }
      }
    }
    return new DatasetLayout(read, table.dimensions(), values);
  }

  /** Whether column {@code name} is a dimension whose values this carries (so computed, not read). */
  boolean computes(String name) {
    return values.containsKey(name);
  }

  /** The values of dimension column {@code name}, a new vector the caller owns. */
  FieldVector values(String name, BufferAllocator allocator) {
    try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(values.get(name)), allocator)) {
      reader.loadNextBatch();
      FieldVector stored = reader.getVectorSchemaRoot().getVector(0);
      var transfer = stored.getTransferPair(allocator);
      transfer.transfer();
      return (FieldVector) transfer.getTo();
    } catch (IOException e) {
      throw new UncheckedIOException("zarr: the values of dimension " + name + " did not reach the task", e);
    }
  }

  private static byte[] write(FieldVector vector) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(vector.getField()), List.of(vector), vector.getValueCount());
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
