package dev.zarrow.vector;

import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.ArrowPools;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Gather of random runs (blank runs among them) over values of every fixture type, checked element by element. */
@ExtendWith(AllocatorExtension.class)
class GatherTest {
  @TempDir Path tmp;

  @Test
  void gatheredElementsEqualTheirSources(BufferAllocator allocator) throws Exception {
    Random random = Seeds.random("gather");
    for (Path file : ArrowJsonFiles.fixtureFiles()) {
      List<ArrowPools.Pool> pools = ArrowPools.of(file, tmp, allocator);
      try {
        for (ArrowPools.Pool pool : pools) {
          check(pool, random, allocator);
        }
      } finally {
        pools.forEach(ArrowPools.Pool::close);
      }
    }
  }

  private static void check(ArrowPools.Pool pool, Random random, BufferAllocator allocator) {
    Field field = Dictionaries.decodedField(pool.stored());
    FieldVector source = pool.values();
    int n = source.getValueCount();
    for (int round = 0; round < 20; round++) {
      List<Gather.Run> runs = new ArrayList<>();
      List<Integer> from = new ArrayList<>(); // source index per output element, -1 for blank
      for (int r = random.nextInt(6); r >= 0; r--) {
        if (random.nextInt(4) == 0) {
          int len = random.nextInt(3);
          runs.add(Gather.Run.blank(len));
          for (int i = 0; i < len; i++) {
            from.add(-1);
          }
        } else {
          int start = random.nextInt(n);
          int len = random.nextInt(n - start + 1);
          runs.add(new Gather.Run(source, start, len));
          for (int i = 0; i < len; i++) {
            from.add(start + i);
          }
        }
      }
      try (FieldVector out = Gather.gather(field, runs, allocator); FieldVector blank = Gather.blank(field, 1, allocator)) {
        assertEquals(from.size(), out.getValueCount(), pool.name());
        for (int i = 0; i < from.size(); i++) {
          int j = from.get(i);
          boolean same = j < 0 ? ArrowPools.same(out, i, blank, 0) : ArrowPools.same(out, i, source, j);
          assertTrue(same, pool.name() + ": element " + i + " (from " + j + ") is " + out.getObject(i));
          if (j < 0 && field.isNullable() && !(field.getType() instanceof ArrowType.Union)) {
            assertTrue(out.isNull(i), pool.name() + ": blank elements of nullable fields are null");
          }
        }
      }
    }
  }

  /** A region of more than 2^31 - 1 bytes of strings is refused with advice, before anything is allocated. */
  @Test
  void stringDataOverTheInt32RangeIsAClearError(BufferAllocator allocator) {
    try (org.apache.arrow.vector.VarCharVector source = new org.apache.arrow.vector.VarCharVector("s", allocator)) {
      source.allocateNew(16, 2);
      // Offsets claim 2e9 bytes of data that the buffer does not hold: only the offsets are read before the refusal.
      source.getOffsetBuffer().setInt(0, 0);
      source.getOffsetBuffer().setInt(4, 0);
      source.getOffsetBuffer().setInt(8, 2_000_000_000);
      source.setIndexDefined(0);
      source.setIndexDefined(1);
      source.setLastSet(1);
      source.setValueCount(2);
      List<Gather.Run> runs = List.of(new Gather.Run(source, 0, 2), new Gather.Run(source, 0, 2));
      dev.zarrow.error.CodecException e = org.junit.jupiter.api.Assertions.assertThrows(dev.zarrow.error.CodecException.class,
          () -> Gather.gather(source.getField(), runs, allocator).close());
      assertTrue(e.getMessage().contains("4000000000 bytes") && e.getMessage().contains("large_string"), e.getMessage());
    }
  }
}
