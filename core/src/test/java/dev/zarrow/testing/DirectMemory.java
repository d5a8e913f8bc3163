package dev.zarrow.testing;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/** The JVM's direct-buffer memory, to show that a refused input was refused before its memory was allocated. */
public final class DirectMemory {
  private DirectMemory() {}

  /** Bytes held by live (not yet collected) direct ByteBuffers. */
  public static long used() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool.getMemoryUsed();
      }
    }
    throw new IllegalStateException("no direct buffer pool");
  }
}
