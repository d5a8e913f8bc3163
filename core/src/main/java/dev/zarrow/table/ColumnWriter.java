package dev.zarrow.table;

import dev.zarrow.NodeWriter;
import dev.zarrow.ZarrArray;
import dev.zarrow.grid.Box;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Gather;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.error.ZarrException;
import dev.zarrow.dtype.DataType;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.metadata.ArrayMetadata;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Appends the values of one column to its 1-D array, a write unit (a chunk, or a shard when sharded)
 * at a time: rows wait in a small buffer until they fill a unit, so that every unit is encoded once,
 * whole, never read back and merged; only the last, partial unit is written at {@link #finish}.
 * Units that arrive together are encoded in parallel. The array's metadata is kept in memory as it
 * grows and written once, by {@link #finish}, after its last chunk. Not thread-safe.
 *
 * <p>A column of a native data type that meets a null is converted to the {@code arrow} data type
 * first: every stored chunk is re-encoded (native types hold no nulls).
 */
final class ColumnWriter implements AutoCloseable {
  /** Chunks converted per round of parallel tasks (bounded memory for any grid). */
  private static final int CONVERT_BATCH = 1024;
  private final NodeWriter write;
  private final String node;
  private final Field stored;
  private final TableOptions options;
  private final BufferAllocator allocator;
  private final int unit;
  private final EncodeQueue background;
  /** What a failure of this column's units names: the column and its array. */
  private final String context;
  private ZarrArray array;
  private long written;
  /** Rows not written yet (fewer than a unit), copies owned by this writer, in order. */
  private final List<FieldVector> pending = new ArrayList<>();
  private int pendingRows;

  /** The column's array {@code node}, of no rows, in the table {@code write} writes (nothing written yet). */
  ColumnWriter(NodeWriter write, String node, Field stored, DataType type, TableOptions options, BufferAllocator allocator,
      EncodeQueue background, String context) {
    this.background = background;
    this.context = context;
    this.write = write;
    this.node = node;
    this.stored = stored;
    this.options = options;
    this.allocator = allocator;
    this.unit = options.writeRows();
    this.array = write.array(node, ColumnTypes.spec(type, 0, options).toMetadata());
  }

  ZarrArray array() {
    return array;
  }

  /** Appends {@code values} (borrowed; decoded: no dictionary encodings). */
  void append(FieldVector values) {
    if (Buffers.hasNulls(values) && !(array.dataType() instanceof ArrowDataType)) {
      background.drain(); // the units in flight are encoded with the native type: convert them too
      convertToArrowType();
    }
    int n = values.getValueCount();
    int at = 0;
    if (pendingRows > 0) {
      int take = Math.min(n, unit - pendingRows);
      if (pendingRows + take == unit) {
        // The buffered rows and the head of this batch make a unit of memory of its own: encoded in
        // the background while the writer takes the next batches.
        List<Gather.Run> runs = new ArrayList<>();
        pending.forEach(p -> runs.add(Gather.Run.of(p)));
        runs.add(new Gather.Run(values, 0, take));
        FieldVector chunk = Gather.gather(values.getField(), runs, allocator);
        clearPending();
        long coords = written / unit;
        array = resized(written + unit);
        ZarrArray target = array;
        background.submit(new EncodeQueue.Unit(() -> writeChunk(target, coords, chunk), chunk));
        written += unit;
        at = take;
      }
    }
    List<List<Gather.Run>> units = new ArrayList<>();
    for (; n - at >= unit; at += unit) {
      units.add(List.of(new Gather.Run(values, at, unit)));
    }
    writeUnits(units);
    if (at < n) {
      pending.add(Gather.gather(values.getField(), List.of(new Gather.Run(values, at, n - at)), allocator));
      pendingRows += n - at;
    }
  }

  /** Encodes {@code chunk} as chunk {@code coords} of {@code target}; a failure names the column. */
  private void writeChunk(ZarrArray target, long coords, FieldVector chunk) {
    try {
      target.writeChunk(new long[] {coords}, chunk, allocator);
    } catch (ZarrException e) {
      throw e.withContext(context);
    }
  }

  /**
   * Writes whole units of a batch (borrowed) after the rows written, each encoded straight from the
   * batch's memory by a task of its own, before this returns.
   */
  private void writeUnits(List<List<Gather.Run>> units) {
    if (units.isEmpty()) {
      return;
    }
    long first = written / unit;
    array = resized(written + (long) units.size() * unit);
    Field field = units.get(0).get(0).source().getField();
    ZarrArray target = array;
    WorkSharing.forEachIndex(units.size(), i -> {
      List<Gather.Run> runs = units.get(i);
      long[] coords = {first + i};
      if (runs.size() == 1 && runs.get(0).start() == 0 && runs.get(0).source().getValueCount() == unit) {
        target.writeChunk(coords, runs.get(0).source(), allocator);
      } else {
        try (FieldVector chunk = Gather.gather(field, runs, allocator)) {
          target.writeChunk(coords, chunk, allocator);
        }
      }
    }, array.options().executor());
    written += (long) units.size() * unit;
  }

  /** The array grown to {@code rows} rows (nothing written: its metadata waits for {@link #finish}). */
  private ZarrArray resized(long rows) {
    return write.array(node, array.metadata().withShape(new long[] {rows}));
  }

  /** Writes the rows still buffered (the last, partial unit), then the array's metadata. */
  void finish() {
    if (pendingRows > 0) {
      List<Gather.Run> runs = new ArrayList<>();
      pending.forEach(p -> runs.add(Gather.Run.of(p)));
      try (FieldVector rest = Gather.gather(pending.get(0).getField(), runs, allocator)) {
        array = resized(written + pendingRows);
        // A whole edge unit: encoded from the fill value, nothing read back.
        array.write(new Box(new long[] {written}, new long[] {pendingRows}), rest, allocator);
      }
      written += pendingRows;
      clearPending();
    }
    write.claim(array);
  }

  /**
   * Replaces the native data type of the array by {@code arrow} of the stored field (same grid, same
   * fill value): every stored chunk decoded with the old array and encoded with the new one, in
   * place. Missing chunks keep reading as the same fill value.
   */
  private void convertToArrowType() {
    ZarrArray old = array;
    ArrayMetadata metadata = ColumnTypes.spec(ArrowDataType.of(stored), written, options)
        .fillValue(old.metadata().fillValue())
        .toMetadata();
    ZarrArray converted = write.array(node, metadata);
    // The grid in batches: it may have more chunks than a list of them would hold.
    List<long[]> batch = new ArrayList<>();
    for (Iterator<long[]> chunks = old.chunks().iterator(); chunks.hasNext(); ) {
      batch.add(chunks.next());
      if (batch.size() == CONVERT_BATCH || !chunks.hasNext()) {
        WorkSharing.forEach(batch, coords -> {
          Optional<FieldVector> chunk = old.decodeChunk(coords, allocator);
          if (chunk.isPresent()) {
            try (FieldVector values = chunk.get()) {
              converted.writeChunk(coords, values, allocator);
            }
          }
        }, old.options().executor());
        batch.clear();
      }
    }
    array = converted;
  }

  private void clearPending() {
    pending.forEach(FieldVector::close);
    pending.clear();
    pendingRows = 0;
  }

  @Override
  public void close() {
    clearPending();
  }
}
