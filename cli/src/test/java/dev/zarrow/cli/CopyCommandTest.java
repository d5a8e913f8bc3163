package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.testing.Vectors;
import dev.zarrow.spi.Registry;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code zarrow copy}: round trips with other codecs, chunks and shards, and the option errors. */
@ExtendWith(AllocatorExtension.class)
class CopyCommandTest {
  @TempDir Path dir;

  private Path src() {
    return dir.resolve("src");
  }

  /** src/g/x: float64 [37, 23] in chunks [7, 5], fill NaN, region [3:30, 2:20] written. */
  private void write(BufferAllocator allocator) {
    Random random = Seeds.random("copy source");
    try (FileSystemStore store = FileSystemStore.open(src()); Float8Vector v = new Float8Vector("v", allocator)) {
      ZarrArray a = Zarr.createArray(store, "g/x", ArraySpec.of(FixedType.FLOAT64, 37, 23).chunks(7, 5)
          .fillValue(Json.parse("\"NaN\"", "fill")).compressors(List.of(ArraySpec.gzip(1))));
      int n = 27 * 18;
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i % 11 == 0 ? -0.0 : random.nextGaussian());
      }
      v.setValueCount(n);
      a.write(new long[] {3, 2}, new NdVector(v, new long[] {27, 18}));
    }
  }

  private static String cat(Path store, String path) {
    Cli.Result r = Cli.run("cat", store, path, "--json");
    assertEquals(0, r.exit(), r.toString());
    return r.out();
  }

  private static JsonNode metadata(Path store, String path) throws Exception {
    return Json.parse(Files.readAllBytes(store.resolve(path).resolve("zarr.json")), "zarr.json");
  }

  /**
   * Issue 27: a copy to Zarr v2 of codecs v2 cannot store (sharding, crc32c) is refused, and the message
   * gives the options that make it work; run as given, they do. In a group copy the message says which
   * array, and that one with --shards is copied alone.
   */
  @Test
  void aCopyToV2SaysTheOptionsThatMakeItWork() throws Exception {
    Path demo = dir.resolve("demo");
    assertEquals(0, Cli.run("demo", demo).exit());
    for (String[] c : new String[][] {
        {"numbers/sharded", "--shards none --codec bytes --codec zstd:3"}, {"numbers/counts", "--codec bytes --codec zstd:3"}}) {
      Path out = dir.resolve("v2-" + c[0].replace('/', '-'));
      Cli.Result refused = Cli.run("copy", demo, c[0], out, "a", "--zarr-format", "2");
      assertEquals(2, refused.exit(), refused.toString());
      assertTrue(refused.errLines().get(0).endsWith("in array '" + c[0] + "'; Zarr v2 can store it copied with " + c[1]),
          refused.errLines().get(0));
      assertTrue(Files.notExists(out.resolve("a")), "nothing written");
      List<Object> args = new ArrayList<>(List.of("copy", demo, c[0], out, "a", "--zarr-format", "2"));
      args.addAll(List.of(c[1].split(" ")));
      Cli.Result copied = Cli.run(args.toArray());
      assertEquals(0, copied.exit(), copied.toString());
      assertTrue(Files.exists(out.resolve("a/.zarray")));
      assertEquals(cat(demo, c[0]).replace("\"shape\"", ""), cat(out, "a").replace("\"shape\"", ""));
    }
    Cli.Result group = Cli.run("copy", demo, "numbers", dir.resolve("group"), "g", "--zarr-format", "2");
    assertEquals(2, group.exit(), group.toString());
    assertTrue(group.err().contains("(copy that array alone: --shards is for one array)") || group.err().contains("numbers/counts"),
        group.err());
  }

  @Test
  void sameMetadataWithoutOptions(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "y");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(metadata(src(), "g/x"), metadata(dst, "y"));
    assertEquals(cat(src(), "g/x"), cat(dst, "y"));
    JsonNode info = Json.parse(r.out(), "copy output");
    assertEquals("y", info.get("path").asText());
    // The same chunks are stored: none of the unwritten ones.
    assertEquals(Json.parse(Cli.run("info", src(), "g/x").out(), "info").get("summary").get("stored_chunks"),
        info.get("summary").get("stored_chunks"));
  }

  @Test
  void otherCodecsAndChunks(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "a/b", "--codec", "transpose:1,0", "--codec", "bytes:big",
        "--codec", "zstd:5", "--codec", "crc32c", "--chunks", "10,4");
    assertEquals(0, r.exit(), r.toString());
    JsonNode m = metadata(dst, "a/b");
    assertEquals("[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},"
        + "{\"name\":\"zstd\",\"configuration\":{\"level\":5,\"checksum\":false}},{\"name\":\"crc32c\"}]", Json.compact(m.get("codecs")));
    assertEquals("[10,4]", Json.compact(m.get("chunk_grid").get("configuration").get("chunk_shape")));
    assertEquals("\"NaN\"", Json.compact(m.get("fill_value")));
    assertEquals(cat(src(), "g/x"), cat(dst, "a/b"));
    assertEquals(0, Cli.run("check", dst).exit());

    // And back, with the codecs as one JSON list, into the same store.
    Cli.Result back = Cli.run("copy", dst, "a/b", dst, "c",
        "--codec", "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]",
        "--chunks", "7,5");
    assertEquals(0, back.exit(), back.toString());
    assertEquals(metadata(src(), "g/x"), metadata(dst, "c"));
    assertEquals(cat(src(), "g/x"), cat(dst, "c"));
    for (String key : List.of("c/0/0", "c/4/3", "c/0/4")) {
      assertEquals(Files.exists(src().resolve("g/x").resolve(key)), Files.exists(dst.resolve("c").resolve(key)), key);
    }
  }

  @Test
  void bloscWithTheTypesizeOfTheElements(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "b", "--codec", "blosc:zstd:3:bitshuffle");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"blosc\",\"configuration\":"
        + "{\"typesize\":8,\"cname\":\"zstd\",\"clevel\":3,\"shuffle\":\"bitshuffle\",\"blocksize\":0}}]",
        Json.compact(metadata(dst, "b").get("codecs")));
    assertEquals(cat(src(), "g/x"), cat(dst, "b"));
    assertEquals(0, Cli.run("check", dst).exit());
    assertEquals(0, Cli.run("copy", src(), "g/x", dst, "b2", "--codec", "blosc").exit());
    assertEquals(cat(src(), "g/x"), cat(dst, "b2"));
    Cli.Result snappy = Cli.run("copy", src(), "g/x", dst, "s", "--codec", "blosc:snappy");
    assertEquals(2, snappy.exit(), snappy.toString()); // codecs are checked before anything is written
    assertTrue(snappy.err().contains("snappy"), snappy.err());
  }

  @Test
  void withoutASerializerTheDefaultComesFirst(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "y", "--codec", "transpose:1,0", "--codec", "{\"name\":\"gzip\",\"configuration\":{\"level\":9}}");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("transpose:1,0 bytes gzip:9", CodecSpecs.format(Layout.codecList(metadata(dst, "y").get("codecs"), "codecs")));
    assertEquals(cat(src(), "g/x"), cat(dst, "y"));
  }

  private static final String ZARRS_VLEN = "zarrs.vlen:{\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":"
      + "{\"endian\":\"little\"}}],\"data_codecs\":[{\"name\":\"bytes\"}],\"index_data_type\":\"uint32\","
      + "\"index_location\":\"end\"}";

  /** Unicode (two- and three-byte characters, an emoji) and empty strings. */
  private static final String[] STRINGS = {"a", "", "\u00e9t\u00e9", "\ud83d\ude00 emoji", "\u65e5\u672c\u8a9e", "", "last"};

  /** src/s: {@link #STRINGS} in chunks of 4, with zarrow's default codecs (vlen-utf8, zstd). */
  private void writeStrings(BufferAllocator allocator) {
    try (FileSystemStore store = FileSystemStore.open(src()); FieldVector v = Vectors.varLen(VarLenType.STRING, allocator, STRINGS)) {
      Zarr.createArray(store, "s", ArraySpec.of(VarLenType.STRING, STRINGS.length).chunks(4))
          .write(new long[] {0}, new NdVector(v, new long[] {STRINGS.length}));
    }
  }

  private static String codecs(Path store, String path) throws Exception {
    return CodecSpecs.format(Layout.codecList(metadata(store, path).get("codecs"), "codecs"));
  }

  @Test
  void zep7ConvertsStringsBothWaysBetweenLayouts(BufferAllocator allocator) throws Exception {
    writeStrings(allocator);
    assertEquals("vlen-utf8 zstd:0", codecs(src(), "s"));
    String values = cat(src(), "s");
    assertTrue(values.contains("\"\u00e9t\u00e9\""), values);
    Path dst = dir.resolve("dst");
    // vlen-utf8 -> ZEP7: no serializer in the list at all.
    Cli.Result r = Cli.run("copy", src(), "s", dst, "zep7", "--codec", "zep7");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("[]", Json.compact(metadata(dst, "zep7").get("codecs")));
    assertEquals(values, cat(dst, "zep7"));
    // The chunk is ZEP7's layout: 5 int32 offsets (a, "", été in 5 bytes, the emoji in 4 + " emoji"), zero padding to 64 bytes, then the data.
    byte[] first = String.join("", List.of(STRINGS).subList(0, 4)).getBytes(StandardCharsets.UTF_8);
    ByteBuffer chunk = ByteBuffer.wrap(Files.readAllBytes(dst.resolve("zep7/c/0"))).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(64 + first.length, chunk.remaining());
    int[] offsets = new int[5];
    for (int i = 0; i < 5; i++) {
      offsets[i] = chunk.getInt(4 * i);
    }
    assertEquals(List.of(0, 1, 1, 6, 16), Arrays.stream(offsets).boxed().toList());
    for (int i = 20; i < 64; i++) {
      assertEquals(0, chunk.get(i), "padding byte " + i);
    }
    assertEquals(ByteBuffer.wrap(first), chunk.slice(64, first.length));
    // ZEP7 -> zarrs.vlen -> ZEP7 with a compressor after it -> vlen-utf8: the values never change.
    assertEquals(0, Cli.run("copy", dst, "zep7", dst, "rs", "--codec", ZARRS_VLEN).exit());
    assertTrue(codecs(dst, "rs").startsWith("zarrs.vlen:"), codecs(dst, "rs"));
    assertEquals(values, cat(dst, "rs"));
    assertEquals(0, Cli.run("copy", dst, "rs", dst, "zep7z", "--codec", "zep7", "--codec", "zstd:1").exit());
    assertEquals("zstd:1", codecs(dst, "zep7z"));
    assertEquals(values, cat(dst, "zep7z"));
    assertEquals(0, Cli.run("copy", dst, "zep7z", dst, "py", "--codec", "vlen-utf8", "--codec", "zstd:0").exit());
    assertEquals(codecs(src(), "s"), codecs(dst, "py"));
    for (String key : List.of("c/0", "c/1")) {
      assertEquals(ByteBuffer.wrap(Files.readAllBytes(src().resolve("s").resolve(key))),
          ByteBuffer.wrap(Files.readAllBytes(dst.resolve("py").resolve(key))), key);
    }
    // zarrs.vlen -> vlen-utf8 directly, and vlen-utf8 -> zarrs.vlen.
    assertEquals(0, Cli.run("copy", dst, "rs", dst, "py2", "--codec", "vlen-utf8").exit());
    assertEquals(values, cat(dst, "py2"));
    assertEquals(0, Cli.run("copy", src(), "s", dst, "rs2", "--codec", ZARRS_VLEN).exit());
    assertEquals(values, cat(dst, "rs2"));
  }

  @Test
  void zep7InsideShards(BufferAllocator allocator) throws Exception {
    writeStrings(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "s", dst, "sh", "--chunks", "2", "--shards", "4", "--codec", "zep7");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("[]", Json.compact(metadata(dst, "sh").get("codecs").get(0).get("configuration").get("codecs")));
    assertEquals(cat(src(), "s"), cat(dst, "sh"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"zep7 vlen-utf8", "vlen-utf8 zep7", "zstd zep7", "zep7 zep7", "zep7:{\"a\":1}", "zep7:x"})
  void zep7MisplacedOrWithASerializerIsAUsageError(String list, BufferAllocator allocator) {
    writeStrings(allocator);
    List<Object> args = new ArrayList<>(List.of("copy", src(), "s", dir.resolve("dst"), "y"));
    for (String c : list.split(" ")) {
      args.add("--codec");
      args.add(c);
    }
    Cli.Result r = Cli.run(args.toArray());
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().contains("zep7"), r.toString());
    assertFalse(Files.exists(dir.resolve("dst/y")), "nothing is written on a usage error");
  }

  @Test
  void zep7OnANumberArrayIsAUsageError(BufferAllocator allocator) {
    write(allocator);
    Cli.Result r = Cli.run("copy", src(), "g/x", dir.resolve("dst"), "y", "--codec", "zep7");
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.err().contains("variable-length data types") && r.err().contains("float64"), r.toString());
  }

  @Test
  void blocksLargerThanTheDestinationChunks(BufferAllocator allocator) {
    // Source chunks [7,5] on destination chunks [2,3]: blocks of [8,6] cover them; every chunk written once, whole.
    write(allocator);
    Path dst = dir.resolve("dst");
    assertEquals(0, Cli.run("copy", src(), "g/x", dst, "y", "--chunks", "2,3").exit());
    assertEquals(cat(src(), "g/x"), cat(dst, "y"));
    assertEquals(cat(src(), "g/x"), Cli.run("cat", dst, "y", "--json", "--region", ":").out());
  }

  @Test
  void shardsWrapTheCodecs(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "s", "--chunks", "4,4", "--shards", "8,12", "--codec", "zstd:1");
    String sharding = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],"
        + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}],"
        + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}";
    if (!Registry.defaults().codecNames().contains("sharding_indexed")) {
      // Until the sharding codec is registered the metadata cannot be opened: a clear data error.
      assertEquals(3, r.exit(), r.toString());
      assertTrue(r.err().contains("sharding_indexed"), r.toString());
      System.err.println("CopyCommandTest: sharding_indexed is not registered yet; checked the refusal only");
      return;
    }
    assertEquals(0, r.exit(), r.toString());
    JsonNode m = metadata(dst, "s");
    assertEquals("[" + sharding + "]", Json.compact(m.get("codecs")));
    assertEquals("[8,12]", Json.compact(m.get("chunk_grid").get("configuration").get("chunk_shape")));
    assertEquals(cat(src(), "g/x"), cat(dst, "s"));
    // --shards none unwraps again, keeping the inner chunks and codecs.
    Cli.Result back = Cli.run("copy", dst, "s", dst, "u", "--shards", "none");
    assertEquals(0, back.exit(), back.toString());
    assertEquals("[4,4]", Json.compact(metadata(dst, "u").get("chunk_grid").get("configuration").get("chunk_shape")));
    assertEquals(cat(src(), "g/x"), cat(dst, "u"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "--chunks=10", "--chunks=0,4", "--chunks=a,b", "--shards=5,5", "--shards=8,8,8", "--codec=nosuch-codec",
    "--codec=zstd:x", "--codec=transpose", "--codec=bytes:middle", "--codec={not json", "--codec=crc32c:3"
  })
  void badOptionsAreUsageErrors(String option, BufferAllocator allocator) {
    write(allocator);
    Path dst = dir.resolve("dst");
    Cli.Result r = Cli.run("copy", src(), "g/x", dst, "y", "--chunks", "4,4", option);
    assertEquals(2, r.exit(), r.toString());
    assertFalse(Files.exists(dst.resolve("y")), "nothing is written on a usage error");
  }

  @Test
  void overlappingDestinationIsRefused(BufferAllocator allocator) {
    write(allocator);
    for (String to : List.of("g/x", "g", "", "g/x/inner")) {
      Cli.Result r = Cli.run("copy", src(), "g/x", src(), to);
      assertEquals(2, r.exit(), to + ": " + r);
      assertTrue(r.err().contains("overlaps the source"), r.toString());
    }
    assertEquals(2, Cli.run("copy", src(), "g/x", src().resolve("g/x"), "y").exit()); // a store inside the source array
    assertEquals(2, Cli.run("copy", src().resolve("g"), "x", src(), "g").exit()); // the same place through two roots
    assertEquals(0, Cli.run("check", src()).exit(), "the source is intact");
  }

  @Test
  void missingSourceIsADataError() {
    Cli.Result r = Cli.run("copy", dir.resolve("none"), "x", dir.resolve("dst"), "y");
    assertEquals(3, r.exit(), r.toString());
    assertFalse(Files.exists(dir.resolve("dst")), "no destination is created for a missing source");
  }

  @Test
  void codecsThatDoNotFitTheArrayAreAUsageError(BufferAllocator allocator) {
    try (FileSystemStore store = FileSystemStore.open(src())) {
      Zarr.createArray(store, "i", ArraySpec.of(FixedType.INT8, 3).fillValue(IntNode.valueOf(0)));
    }
    // A 2-d transpose on a 1-d array: the option's mistake (exit 2, naming it), refused when the new
    // metadata is checked, before anything is written.
    Cli.Result r = Cli.run("copy", src(), "i", dir.resolve("dst"), "y", "--codec", "transpose:1,0");
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.errLines().get(0).startsWith("zarrow: --codec transpose:1,0: "), r.toString());
    assertFalse(Files.exists(dir.resolve("dst")));
  }
}
