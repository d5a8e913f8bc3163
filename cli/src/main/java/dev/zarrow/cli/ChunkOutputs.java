package dev.zarrow.cli;

import dev.zarrow.ZarrArray;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.grid.Box;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.store.ByteSource;
import dev.zarrow.vector.Regions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Chunk-sized vectors of one array to decode whole chunks into, reused from chunk to chunk (one per
 * thread at a time); only for data types with a flat fixed-width layout ({@link Regions#flatWidth}).
 * The stored bytes are read into scratch buffers reused the same way. Closing frees them all.
 */
final class ChunkOutputs implements AutoCloseable {
  private final ZarrArray array;
  private final BufferAllocator allocator;
  private final CodecPipeline pipeline;
  private final long[] shape;
  private final ConcurrentLinkedQueue<FieldVector> free = new ConcurrentLinkedQueue<>();
  private final List<FieldVector> all = new ArrayList<>();
  private final boolean flat;
  private final ScratchBuffers scratch;

  ChunkOutputs(ZarrArray array, BufferAllocator allocator) {
    this.array = array;
    this.allocator = allocator;
    this.pipeline = array.pipeline();
    this.shape = Regions.toLong(pipeline.spec().shape());
    FieldVector probe = create();
    flat = Regions.flatWidth(probe) > 0;
    if (flat) {
      free.offer(probe);
    }
    scratch = new ScratchBuffers(allocator, "check of '" + array.path() + "'");
  }

  private FieldVector create() {
    FieldVector v = array.dataType().field("chunk").createVector(allocator);
    synchronized (all) {
      all.add(v);
    }
    v.setInitialCapacity(pipeline.spec().size());
    v.allocateNew();
    return v;
  }

  /** A vector for one chunk, or null when the data type has no flat layout (decode the chunk instead). */
  FieldVector take() {
    if (!flat) {
      return null;
    }
    FieldVector v = free.poll();
    return v != null ? v : create();
  }

  void give(FieldVector v) {
    free.offer(v);
  }

  /**
   * Decodes the whole chunk in {@code source} into {@code out}, as reads do: a file's bytes go into a
   * reused scratch buffer, not fresh memory (a page fault per 4 KiB, more than decoding them costs).
   */
  void decodeInto(ByteSource source, FieldVector out) {
    pipeline.decodeInto(source, Box.of(shape), out, shape, new long[shape.length], allocator, scratch);
  }

  @Override
  public void close() {
    synchronized (all) {
      all.forEach(FieldVector::close);
    }
    scratch.close();
  }
}
