package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Region reads and writes across chunk boundaries with partial edge chunks, 1-d to 3-d. */
@ExtendWith(AllocatorExtension.class)
class ArrayReadWriteTest {
  @TempDir Path dir;

  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of(new long[] {23}, new int[] {5}),
        Arguments.of(new long[] {7, 11}, new int[] {3, 4}),
        Arguments.of(new long[] {5, 6, 7}, new int[] {2, 3, 4}),
        Arguments.of(new long[] {}, new int[] {}));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void regionsMatchAReferenceArray(long[] shape, int[] chunks, BufferAllocator allocator) {
    for (WritableStore store : List.of(new MemoryStore(), FileSystemStore.open(dir.resolve("s" + shape.length)))) {
      ZarrArray array = Zarr.createArray(store, "a/b", ArraySpec.of(FixedType.INT32, shape).chunks(chunks).fillValue(
          com.fasterxml.jackson.databind.node.IntNode.valueOf(-1)));
      int n = (int) Box.of(shape).size();
      int[] reference = new int[n];
      java.util.Arrays.fill(reference, -1);
      Random random = Seeds.random("regions " + shape.length + "-d");
      for (int round = 0; round < 20; round++) {
        Box region = Boxes.random(random, shape);
        try (IntVector data = new IntVector("x", allocator)) {
          data.allocateNew((int) region.size());
          int[] i = {0};
          Boxes.forEachFlat(region, shape, flat -> {
            int v = random.nextInt(1000);
            data.set(i[0]++, v);
            reference[(int) flat] = v;
          });
          data.setValueCount((int) region.size());
          array.write(region, data);
        }
        Box read = Boxes.random(random, shape);
        try (NdVector got = Zarr.openArray(store, "a/b").read(read, allocator)) {
          assertArrayEquals(read.shape(), got.shape());
          IntVector v = (IntVector) got.vector();
          int[] i = {0};
          Boxes.forEachFlat(read, shape, flat -> assertEquals(reference[(int) flat], v.get(i[0]++), "element " + flat));
        }
      }
      try (NdVector all = array.read(allocator)) {
        IntVector v = (IntVector) all.vector();
        for (int i = 0; i < n; i++) {
          assertEquals(reference[i], v.get(i));
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void fillValueChunksAreNotStored(long[] shape, int[] chunks, BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "x", ArraySpec.of(FixedType.INT32, shape).chunks(chunks));
    int n = (int) Box.of(shape).size();
    try (IntVector data = new IntVector("x", allocator)) {
      data.allocateNew(n);
      for (int i = 0; i < n; i++) {
        data.set(i, 7);
      }
      data.setValueCount(n);
      array.write(Box.of(shape), data);
      assertFalse(store.list("x/c").isEmpty());
      for (int i = 0; i < n; i++) {
        data.set(i, 0);
      }
      array.write(Box.of(shape), data);
      assertTrue(store.list("x/c").isEmpty(), "chunks equal to the fill value are deleted");
    }
  }

}
