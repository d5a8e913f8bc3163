package dev.zarrow.spark;

import dev.zarrow.memory.ScratchBuffers;
import org.apache.arrow.memory.RootAllocator;

/**
 * The memory an executor's dataset tasks decode chunks into ({@link
 * dev.zarrow.dataset.DatasetTable#regionReader(org.apache.arrow.memory.BufferAllocator, java.util.List, ScratchBuffers)}),
 * lent from task to task. A reader of each task's own would free its decoded chunks when the task
 * ends, and the next task would touch fresh memory again: a page fault per 4 KiB (about 16 us each on
 * a small VM), and a partition of a 5-day shard of a 1-degree globe decodes into 31 MB. At most {@link
 * #MAX_FREE_BYTES} stay allocated while no task uses them.
 */
final class TaskScratch {
  /** What the executor keeps between tasks at most: a few shards' worth for each of a few cores. */
  static final long MAX_FREE_BYTES = 256L << 20;

  static final ScratchBuffers SCRATCH = new ScratchBuffers(new RootAllocator(), "zarr dataset tasks' decoded chunks", MAX_FREE_BYTES);

  private TaskScratch() {}
}
