package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random region writes and reads of every kind of core type (bool and complex go through other copy
 * paths than plain numbers; float16 and r24 have odd widths) against a byte-per-element reference, in
 * 0-d to 3-d arrays with edge chunks, through several codec chains and both stores.
 */
@ExtendWith(AllocatorExtension.class)
class ArrayRegionsTest {
  @TempDir Path dir;

  static final List<FixedType> TYPES = List.of(FixedType.BOOL, FixedType.INT8, FixedType.UINT16, FixedType.INT32,
      FixedType.FLOAT16, FixedType.FLOAT32, FixedType.FLOAT64, FixedType.COMPLEX64, FixedType.COMPLEX128, FixedType.raw(24));

  record Layout(long[] shape, int[] chunks) {
    @Override
    public String toString() {
      return Arrays.toString(shape) + " in " + Arrays.toString(chunks);
    }
  }

  static final List<Layout> LAYOUTS = List.of(
      new Layout(new long[] {23}, new int[] {5}),
      new Layout(new long[] {7, 11}, new int[] {3, 4}),
      new Layout(new long[] {5, 6, 7}, new int[] {2, 3, 4}),
      new Layout(new long[] {7, 2, 5}, new int[] {2, 2, 5}), // whole rows: chunks are contiguous in whole reads
      new Layout(new long[] {}, new int[] {}));

  static final List<String> CHAINS = List.of("bytes", "big+zstd", "transpose+gzip+crc32c", "crc32c", "zstd");

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    int i = 0;
    for (FixedType type : TYPES) {
      for (Layout layout : LAYOUTS) {
        out.add(Arguments.of(type, layout, CHAINS.get(i++ % CHAINS.size())));
      }
    }
    return out.stream();
  }

  static List<NamedConfig> codecs(String chain, int rank) {
    ObjectNode little = JsonNodeFactory.instance.objectNode().put("endian", "little");
    ObjectNode big = JsonNodeFactory.instance.objectNode().put("endian", "big");
    ObjectNode order = JsonNodeFactory.instance.objectNode();
    var o = order.putArray("order");
    for (int d = rank - 1; d >= 0; d--) {
      o.add(d);
    }
    return switch (chain) {
      case "bytes" -> List.of(NamedConfig.of("bytes", little));
      case "big+zstd" -> List.of(NamedConfig.of("bytes", big), ArraySpec.zstd(3));
      case "transpose+gzip+crc32c" -> List.of(NamedConfig.of("transpose", order), NamedConfig.of("bytes", little),
          ArraySpec.gzip(1), ArraySpec.crc32c());
      case "crc32c" -> List.of(NamedConfig.of("bytes", little), ArraySpec.crc32c());
      case "zstd" -> List.of(NamedConfig.of("bytes", little), ArraySpec.zstd(1));
      default -> throw new IllegalArgumentException(chain);
    };
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("cases")
  void regionsMatchAReference(FixedType type, Layout layout, String chain, BufferAllocator allocator) {
    Random random = Seeds.random("regions " + type + " " + layout + " " + chain);
    int width = type.byteWidth();
    byte[] fill = randomElements(type, random, 1);
    int n = Math.toIntExact(Box.of(layout.shape).size());
    WritableStore store = random.nextBoolean() ? new MemoryStore() : FileSystemStore.open(dir.resolve("s"));
    ZarrArray array = Zarr.createArray(store, "g/a", ArraySpec.of(type, layout.shape).chunks(layout.chunks)
        .fillValue(FillValue.of(fill)).codecs(codecs(chain, layout.shape.length)));
    array = Zarr.openArray(store, "g/a"); // the fill value went through its JSON form
    assertArrayEquals(fill, array.fillValue().bytes(), "fill value after its JSON round trip");

    byte[] reference = new byte[n * width];
    for (int i = 0; i < n; i++) {
      System.arraycopy(fill, 0, reference, i * width, width);
    }
    for (int round = 0; round < 10; round++) {
      Box region = Boxes.random(random, layout.shape);
      int count = Math.toIntExact(region.size());
      byte[] values = round % 4 == 3 ? repeat(fill, count) : randomElements(type, random, count);
      try (FieldVector data = Vectors.fromBytes(type, values, allocator)) {
        array.write(region, data);
      }
      int[] k = {0};
      Boxes.forEachFlat(region, layout.shape, flat -> System.arraycopy(values, k[0]++ * width, reference, (int) flat * width, width));

      Box read = round == 9 ? Box.of(layout.shape) : Boxes.random(random, layout.shape);
      try (NdVector got = array.read(read, allocator)) {
        assertArrayEquals(read.shape(), got.shape());
        assertEquals(type.field("x").getType(), got.vector().getField().getType());
        assertArrayEquals(gather(reference, read, layout.shape, width), Vectors.bytes(type, got.vector()),
            "round " + round + ": read " + read + " after writing " + region);
      }
    }
    checkChunks(array, store, type, reference, fill, layout, allocator);
  }

  /** Every chunk: readChunk matches, edge chunks hold the fill value outside the array, all-fill chunks are not stored. */
  private static void checkChunks(ZarrArray array, WritableStore store, FixedType type, byte[] reference, byte[] fill,
      Layout layout, BufferAllocator allocator) {
    int width = type.byteWidth();
    for (long[] coords : array.chunks()) {
      Box box = array.grid().chunkBox(coords);
      Box inBounds = box.intersect(Box.of(layout.shape));
      String what = "chunk " + Arrays.toString(coords);
      try (NdVector chunk = array.readChunk(coords, allocator)) {
        assertArrayEquals(inBounds.shape(), chunk.shape(), what);
        assertArrayEquals(gather(reference, inBounds, layout.shape, width), Vectors.bytes(type, chunk.vector()), what);
      }
      byte[] inside = gather(reference, inBounds, layout.shape, width);
      boolean allFill = Arrays.equals(inside, repeat(fill, Math.toIntExact(inBounds.size())));
      Optional<FieldVector> stored = array.decodeChunk(coords, allocator);
      assertEquals(!allFill, stored.isPresent(), what + " is stored exactly when it is not all fill");
      if (stored.isPresent()) {
        try (FieldVector whole = stored.get()) {
          byte[] all = Vectors.bytes(type, whole);
          long[] chunkShape = Arrays.stream(layout.chunks).asLongStream().toArray();
          int[] k = {0};
          Boxes.forEachFlat(Box.of(chunkShape), chunkShape, flat -> {
            long[] at = unflatten(flat, chunkShape);
            boolean outside = false;
            for (int d = 0; d < at.length; d++) {
              outside |= box.start(d) + at[d] >= layout.shape[d];
            }
            if (outside && !Arrays.equals(fill, Arrays.copyOfRange(all, (int) flat * width, (int) flat * width + width))) {
              fail(what + ": element " + Arrays.toString(at) + " outside the array is not the fill value");
            }
            k[0]++;
          });
        }
      }
    }
    assertEquals(true, store.exists("g/a/zarr.json"));
  }

  static byte[] randomElements(FixedType type, Random random, int count) {
    byte[] out = new byte[count * type.byteWidth()];
    random.nextBytes(out);
    if (type == FixedType.BOOL) {
      for (int i = 0; i < out.length; i++) {
        out[i] &= 1;
      }
    }
    return out;
  }

  static byte[] repeat(byte[] element, int count) {
    byte[] out = new byte[element.length * count];
    for (int i = 0; i < count; i++) {
      System.arraycopy(element, 0, out, i * element.length, element.length);
    }
    return out;
  }

  static byte[] gather(byte[] reference, Box box, long[] shape, int width) {
    byte[] out = new byte[Math.toIntExact(box.size()) * width];
    int[] k = {0};
    Boxes.forEachFlat(box, shape, flat -> System.arraycopy(reference, (int) flat * width, out, k[0]++ * width, width));
    return out;
  }

  static long[] unflatten(long flat, long[] shape) {
    long[] out = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      out[d] = flat % shape[d];
      flat /= shape[d];
    }
    return out;
  }

}
