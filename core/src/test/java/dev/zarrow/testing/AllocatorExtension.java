package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a fresh {@link BufferAllocator} (as a parameter) and fails the test when anything is
 * still allocated after it, naming the allocator's outstanding bytes.
 */
public final class AllocatorExtension implements ParameterResolver, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(AllocatorExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == BufferAllocator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NS).getOrComputeIfAbsent("allocator",
        k -> new RootAllocator(Long.MAX_VALUE), BufferAllocator.class);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    BufferAllocator allocator = context.getStore(NS).remove("allocator", BufferAllocator.class);
    if (allocator != null) {
      long outstanding = allocator.getAllocatedMemory();
      String detail = outstanding == 0 ? "" : allocator.toVerboseString();
      allocator.close();
      assertEquals(0, outstanding, "leaked Arrow memory: " + detail);
    }
  }
}
