package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.StructType;
import dev.zarrow.dtype.SubarrayType;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code zarrow cat}: the exact JSON of every core type, regions, and its errors. */
@ExtendWith(AllocatorExtension.class)
class CatCommandTest {
  @TempDir Path dir;

  /** Writes an array of {@code type} whose elements are the little-endian bytes {@code le}, returns cat's stdout. */
  private String cat(BufferAllocator allocator, FixedType type, long[] shape, int[] chunks, ByteBuffer le, String... extra) {
    byte[] bytes = new byte[le.flip().remaining()];
    le.get(bytes);
    int count = bytes.length / type.byteWidth();
    try (FileSystemStore store = FileSystemStore.open(dir);
        ArrowBuf buf = allocator.buffer(bytes.length);
        FieldVector values = writeBytes(type, buf, bytes, count, allocator)) {
      ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(type, shape).chunks(chunks));
      array.write(new long[shape.length], new NdVector(values, shape));
    }
    Object[] args = new Object[3 + extra.length];
    args[0] = "cat";
    args[1] = dir;
    args[2] = "a";
    System.arraycopy(extra, 0, args, 3, extra.length);
    Cli.Result r = Cli.run(args);
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.err(), r.toString());
    return r.out();
  }

  private static FieldVector writeBytes(FixedType type, ArrowBuf buf, byte[] bytes, int count, BufferAllocator allocator) {
    buf.setBytes(0, bytes);
    return type.fromBytes(buf, count, allocator);
  }

  private static ByteBuffer le(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private String cat1d(BufferAllocator allocator, FixedType type, ByteBuffer le) {
    long n = le.position() / type.byteWidth();
    return cat(allocator, type, new long[] {n}, new int[] {3}, le, "--json");
  }

  @Test
  void int64Extremes(BufferAllocator allocator) {
    ByteBuffer b = le(32).putLong(Long.MIN_VALUE).putLong(-1).putLong(0).putLong(Long.MAX_VALUE);
    assertEquals("{\"shape\":[4],\"data_type\":\"int64\",\"values\":[-9223372036854775808,-1,0,9223372036854775807]}\n",
        cat1d(allocator, FixedType.INT64, b));
  }

  @Test
  void uint64BeyondLongAsUnsignedDecimal(BufferAllocator allocator) {
    ByteBuffer b = le(32).putLong(0).putLong(1).putLong(Long.MIN_VALUE).putLong(-1);
    assertEquals("{\"shape\":[4],\"data_type\":\"uint64\",\"values\":[0,1,9223372036854775808,18446744073709551615]}\n",
        cat1d(allocator, FixedType.UINT64, b));
  }

  @Test
  void narrowIntegersSignedAndUnsigned(BufferAllocator allocator) {
    assertEquals("{\"shape\":[3],\"data_type\":\"int8\",\"values\":[-128,0,127]}\n",
        cat1d(allocator, FixedType.INT8, le(3).put((byte) -128).put((byte) 0).put((byte) 127)));
    assertEquals("{\"shape\":[2],\"data_type\":\"uint8\",\"values\":[0,255]}\n",
        cat1d(allocator, FixedType.UINT8, le(2).put((byte) 0).put((byte) -1)));
    assertEquals("{\"shape\":[2],\"data_type\":\"int16\",\"values\":[-32768,32767]}\n",
        cat1d(allocator, FixedType.INT16, le(4).putShort(Short.MIN_VALUE).putShort(Short.MAX_VALUE)));
    assertEquals("{\"shape\":[2],\"data_type\":\"uint16\",\"values\":[1,65535]}\n",
        cat1d(allocator, FixedType.UINT16, le(4).putShort((short) 1).putShort((short) -1)));
    assertEquals("{\"shape\":[2],\"data_type\":\"int32\",\"values\":[-2147483648,2147483647]}\n",
        cat1d(allocator, FixedType.INT32, le(8).putInt(Integer.MIN_VALUE).putInt(Integer.MAX_VALUE)));
    assertEquals("{\"shape\":[2],\"data_type\":\"uint32\",\"values\":[0,4294967295]}\n",
        cat1d(allocator, FixedType.UINT32, le(8).putInt(0).putInt(-1)));
  }

  @Test
  void float64SpecialsAndNegativeZero(BufferAllocator allocator) {
    ByteBuffer b = le(64).putDouble(-0.0).putDouble(0.0).putDouble(Double.NaN).putDouble(Double.POSITIVE_INFINITY)
        .putDouble(Double.NEGATIVE_INFINITY).putDouble(1.0).putDouble(0.1).putDouble(1e300);
    assertEquals("{\"shape\":[8],\"data_type\":\"float64\",\"values\":[-0.0,0.0,\"NaN\",\"Infinity\",\"-Infinity\",1.0,0.1,1.0E300]}\n",
        cat1d(allocator, FixedType.FLOAT64, b));
  }

  @Test
  void float32PrintsItsOwnShortestDecimal(BufferAllocator allocator) {
    ByteBuffer b = le(20).putFloat(-0.0f).putFloat(0.1f).putFloat(Float.NaN).putFloat(Float.MAX_VALUE).putFloat(Float.NEGATIVE_INFINITY);
    assertEquals("{\"shape\":[5],\"data_type\":\"float32\",\"values\":[-0.0,0.1,\"NaN\",3.4028235E38,\"-Infinity\"]}\n",
        cat1d(allocator, FixedType.FLOAT32, b));
  }

  @Test
  void float16(BufferAllocator allocator) {
    // 0.1 (0x2e66), -0.0, 1.0, the largest (65504: 65500 is the shortest decimal that reads back as it,
    // as numpy prints it), the smallest subnormal (2^-24), -2.5, NaN, Infinity
    ByteBuffer b = le(16);
    for (int bits : new int[] {0x2e66, 0x8000, 0x3c00, 0x7bff, 0x0001, 0xc100, 0x7e00, 0x7c00}) {
      b.putShort((short) bits);
    }
    assertEquals("{\"shape\":[8],\"data_type\":\"float16\",\"values\":[0.1,-0.0,1.0,65500.0,0.00000006,-2.5,\"NaN\",\"Infinity\"]}\n",
        cat1d(allocator, FixedType.FLOAT16, b));
  }

  @Test
  void complexAsPairs(BufferAllocator allocator) {
    ByteBuffer c64 = le(16).putFloat(1.5f).putFloat(-2.0f).putFloat(Float.NaN).putFloat(-0.0f);
    assertEquals("{\"shape\":[2],\"data_type\":\"complex64\",\"values\":[[1.5,-2.0],[\"NaN\",-0.0]]}\n",
        cat1d(allocator, FixedType.COMPLEX64, c64));
    ByteBuffer c128 = le(16).putDouble(0.25).putDouble(Double.NEGATIVE_INFINITY);
    assertEquals("{\"shape\":[1],\"data_type\":\"complex128\",\"values\":[[0.25,\"-Infinity\"]]}\n",
        cat1d(allocator, FixedType.COMPLEX128, c128));
  }

  @Test
  void boolAndRawBits(BufferAllocator allocator) {
    assertEquals("{\"shape\":[3],\"data_type\":\"bool\",\"values\":[true,false,true]}\n",
        cat1d(allocator, FixedType.BOOL, le(3).put((byte) 1).put((byte) 0).put((byte) 1)));
    assertEquals("{\"shape\":[2],\"data_type\":\"r16\",\"values\":[\"Af8=\",\"AAA=\"]}\n",
        cat1d(allocator, FixedType.raw(16), le(4).put((byte) 1).put((byte) -1).put((byte) 0).put((byte) 0)));
  }

  private String grid(BufferAllocator allocator, String... extra) {
    ByteBuffer b = le(48);
    for (int i = 0; i < 12; i++) {
      b.putInt(i);
    }
    return cat(allocator, FixedType.INT32, new long[] {3, 4}, new int[] {2, 3}, b, extra);
  }

  @Test
  void regions(BufferAllocator allocator) {
    assertEquals("{\"shape\":[3,4],\"data_type\":\"int32\",\"values\":[0,1,2,3,4,5,6,7,8,9,10,11]}\n", grid(allocator, "--json"));
    assertEquals("{\"shape\":[2,2],\"data_type\":\"int32\",\"values\":[5,6,9,10]}\n", grid(allocator, "--json", "--region", "1:3,1:3"));
    assertEquals("{\"shape\":[3,1],\"data_type\":\"int32\",\"values\":[2,6,10]}\n", grid(allocator, "--json", "--region", ":,2"));
    assertEquals("{\"shape\":[1,4],\"data_type\":\"int32\",\"values\":[4,5,6,7]}\n", grid(allocator, "--region", "1", "--json"));
    assertEquals("{\"shape\":[2,2],\"data_type\":\"int32\",\"values\":[2,3,6,7]}\n", grid(allocator, "--json", "--region=0:2,2:"));
    assertEquals("{\"shape\":[0,4],\"data_type\":\"int32\",\"values\":[]}\n", grid(allocator, "--json", "--region", "2:2"));
  }

  @Test
  void linesWithoutJson(BufferAllocator allocator) {
    assertEquals("[1,2]\t6\n[1,3]\t7\n[2,2]\t10\n[2,3]\t11\n", grid(allocator, "--region", "1:3,2:4"));
  }

  @Test
  void zeroDimensionalArray(BufferAllocator allocator) {
    assertEquals("{\"shape\":[],\"data_type\":\"int32\",\"values\":[7]}\n",
        cat(allocator, FixedType.INT32, new long[] {}, new int[] {}, le(4).putInt(7), "--json"));
  }

  @Test
  void missingChunksReadAsTheFillValue() {
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      Zarr.createArray(store, "f", ArraySpec.of(FixedType.INT16, 5).chunks(2).fillValue(IntNode.valueOf(-3)));
    }
    Cli.Result r = Cli.run("cat", dir, "f", "--json");
    assertEquals("{\"shape\":[5],\"data_type\":\"int16\",\"values\":[-3,-3,-3,-3,-3]}\n", r.out(), r.toString());
  }

  @Test
  void arraysLargerThanASlabStreamInOrder(BufferAllocator allocator) {
    int n = (int) CatCommand.SLAB_ELEMENTS * 2 + 5;
    ByteBuffer b = le(n * 4);
    for (int i = 0; i < n; i++) {
      b.putInt(i);
    }
    String out = cat(allocator, FixedType.INT32, new long[] {n}, new int[] {100_000}, b, "--json");
    String values = out.substring(out.indexOf('[', out.indexOf("values")) + 1, out.lastIndexOf(']'));
    String[] parts = values.split(",");
    assertEquals(n, parts.length);
    for (int i = 0; i < n; i += 9973) {
      assertEquals(String.valueOf(i), parts[i]);
    }
    assertEquals(String.valueOf(n - 1), parts[n - 1]);
  }

  /**
   * Records of 4 MiB (a struct of one sub-array field of 4M int8) are read a few at a time: before, a
   * slab was {@link CatCommand#SLAB_ELEMENTS} elements whatever their size, so records of megabytes were
   * read up to a million at once (16 TB of records of 16 MB: an OutOfMemoryError).
   */
  @Test
  void largeRecordsAreReadAFewAtATime(BufferAllocator allocator) {
    int width = 4 << 20;
    StructType type = StructType.of(List.of(new StructType.Member("v", SubarrayType.of(FixedType.INT8, width))));
    assertEquals(CatCommand.SLAB_BYTES / width, CatCommand.slabElements(type));
    // 16 MiB, the largest record: one at a time
    assertEquals(1, CatCommand.slabElements(SubarrayType.of(FixedType.FLOAT64, 2 << 20)));
    assertEquals(CatCommand.SLAB_ELEMENTS, CatCommand.slabElements(FixedType.FLOAT64));
    int records = (int) CatCommand.SLAB_BYTES / width + 2; // two slabs
    byte[] bytes = new byte[records * width];
    for (int r = 0; r < records; r++) {
      Arrays.fill(bytes, r * width, (r + 1) * width, (byte) (r + 1));
    }
    try (FileSystemStore store = FileSystemStore.open(dir);
        ArrowBuf buf = allocator.buffer(bytes.length);
        FieldVector values = fromBytes(type, buf, bytes, records, allocator)) {
      ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(type, records).chunks(1));
      array.write(new long[1], new NdVector(values, new long[] {records}));
    }
    Cli.Result r = Cli.run("cat", dir, "a");
    assertEquals(0, r.exit(), r.err());
    String[] lines = r.out().split("\n");
    assertEquals(records, lines.length);
    for (int i = 0; i < records; i++) {
      String line = lines[i];
      assertTrue(line.startsWith("[" + i + "]\t{\"v\":[" + (i + 1) + "," + (i + 1) + ","), line.substring(0, 20));
      // [i] TAB {"v":[x,...,x]}
      assertEquals(String.valueOf(i).length() + 10 + width * (String.valueOf(i + 1).length() + 1), line.length());
    }
  }

  private static FieldVector fromBytes(StructType type, ArrowBuf buf, byte[] bytes, int count, BufferAllocator allocator) {
    buf.setBytes(0, bytes);
    return type.fromBytes(buf, count, allocator);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0:4", "a:b", "0:1,0:1,0:1", "2:1", "-1:2", "1:2:3", "0:99999999999999999999"})
  void badRegionsAreUsageErrors(String region, BufferAllocator allocator) {
    grid(allocator, "--json"); // creates the array
    Cli.Result r = Cli.run("cat", dir, "a", "--json", "--region", region);
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("zarrow: --region: "), r.toString());
  }

  @Test
  void missingStoreAndNodeAreDataErrors(BufferAllocator allocator) {
    Cli.Result noStore = Cli.run("cat", dir.resolve("nowhere"), "a", "--json");
    assertEquals(3, noStore.exit(), noStore.toString());
    assertEquals(List.of("zarrow: no store at " + dir.resolve("nowhere") + " (no such directory)"), noStore.errLines());
    assertFalse(Files.exists(dir.resolve("nowhere")), "reading must not create the store");

    grid(allocator, "--json");
    Cli.Result noNode = Cli.run("cat", dir, "b/c", "--json");
    assertEquals(3, noNode.exit(), noNode.toString());
    assertEquals(1, noNode.errLines().size(), noNode.toString());
    assertTrue(noNode.err().startsWith("zarrow: no array or group at 'b/c'"), noNode.toString());

    Cli.Result group = Cli.run("cat", dir, "", "--json");
    assertEquals(3, group.exit(), group.toString());
    assertTrue(group.err().contains("is a group, not an array"), group.toString());
  }

  @Test
  void corruptChunkIsOneLineUnlessVerbose(BufferAllocator allocator) throws Exception {
    grid(allocator, "--json"); // bytes + zstd
    Files.write(dir.resolve("a/c/0/1"), new byte[] {1, 2, 3, 4, 5});
    Cli.Result r = Cli.run("cat", dir, "a", "--json");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().startsWith("zarrow: "), r.toString());
    assertTrue(r.err().contains("a/c/0/1"), "the message names the key: " + r.err());

    Cli.Result verbose = Cli.run("cat", dir, "a", "--json", "--verbose");
    assertEquals(3, verbose.exit(), verbose.toString());
    assertTrue(verbose.errLines().size() > 1 && verbose.err().contains("\tat dev.zarrow."), verbose.toString());
  }

  @Test
  void corruptChunkPrintsNoPartialDocument(BufferAllocator allocator) throws Exception {
    // One slab: the 3 x 4 grid in chunks of 2 x 3, the last chunk corrupt (its values are printed last).
    grid(allocator, "--json");
    Files.write(dir.resolve("a/c/1/1"), new byte[] {1, 2, 3, 4, 5});
    Cli.Result r = Cli.run("cat", dir, "a", "--json");
    assertEquals(3, r.exit(), r.toString());
    assertEquals("", r.out(), r.toString());
    assertTrue(r.err().contains("a/c/1/1"), r.toString());
  }

  @Test
  void corruptChunkInALaterSlabPrintsNoPartialDocument(BufferAllocator allocator) throws Exception {
    // Three slabs of 100K-element chunks; the chunk in the last slab is corrupt.
    int n = (int) CatCommand.SLAB_ELEMENTS * 2 + 5;
    ByteBuffer b = le(n * 4);
    for (int i = 0; i < n; i++) {
      b.putInt(i);
    }
    cat(allocator, FixedType.INT32, new long[] {n}, new int[] {100_000}, b, "--json", "--region", "0:1");
    String last = "a/c/" + (n - 1) / 100_000;
    Files.write(dir.resolve(last), new byte[] {9, 9, 9});
    Cli.Result r = Cli.run("cat", dir, "a", "--json");
    assertEquals(3, r.exit(), r.toString().substring(0, Math.min(2000, r.toString().length())));
    assertEquals("", r.out(), "stdout holds no partial document");
    assertTrue(r.err().contains(last), r.err());
    // The slabs before it are fine: a region of them still prints whole.
    Cli.Result first = Cli.run("cat", dir, "a", "--json", "--region", "0:3");
    assertEquals(0, first.exit(), first.toString());
    assertEquals("{\"shape\":[3],\"data_type\":\"int32\",\"values\":[0,1,2]}\n", first.out());
  }
}
