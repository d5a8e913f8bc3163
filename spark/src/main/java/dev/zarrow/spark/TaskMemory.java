package dev.zarrow.spark;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** The Arrow memory a task reads into. */
final class TaskMemory {
  private TaskMemory() {}

  /** A new allocator for one task's reader, which closes it. */
  static BufferAllocator allocator() {
    return new RootAllocator();
  }
}
