package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's small contracts (issue 14): usage mistakes exit 2 with the option named, data problems exit
 * 3, every limit with a message that says it; what {@code ls} shows and what usage lines say.
 */
class CliContractTest {
  @TempDir Path dir;
  Path demo;

  @BeforeEach
  void writeDemo() {
    demo = dir.resolve("demo");
    assertEquals(0, Cli.run("demo", demo).exit());
  }

  /** A usage error: exit 2, the first stderr line names {@code option}, nothing at the destination. */
  private void usageError(String option, Object... args) {
    Cli.Result r = Cli.run(args);
    assertEquals(2, r.exit(), r.toString());
    assertTrue(r.errLines().get(0).startsWith("zarrow: " + option), r.toString());
    assertFalse(Files.exists(dir.resolve("out")), r.toString());
  }

  private Cli.Result copy(String path, Object... options) {
    Object[] args = new Object[5 + options.length];
    System.arraycopy(new Object[] {"copy", demo, path, dir.resolve("out"), "x"}, 0, args, 0, 5);
    System.arraycopy(options, 0, args, 5, options.length);
    Object[] overwrite = java.util.Arrays.copyOf(args, args.length + 1);
    overwrite[args.length] = "--overwrite"; // each copy replaces the one before
    return Cli.run(overwrite);
  }

  private void copyUsageError(String option, String path, Object... options) {
    Object[] args = new Object[5 + options.length];
    System.arraycopy(new Object[] {"copy", demo, path, dir.resolve("out"), "x"}, 0, args, 0, 5);
    System.arraycopy(options, 0, args, 5, options.length);
    usageError(option, args);
  }

  @Test
  void codecLevelsOutOfRangeAreUsageErrors() {
    copyUsageError("--codec zstd:99: zstd's level is -131072..22", "numbers/grid", "--codec", "zstd:99");
    copyUsageError("--codec zstd:-131073", "numbers/grid", "--codec", "zstd:-131073");
    copyUsageError("--codec {\"name\":\"zstd\"", "numbers/grid", "--codec", "{\"name\":\"zstd\",\"configuration\":{\"level\":23,\"checksum\":false}}");
    copyUsageError("--codec zstd:{\"level\":4000000000}", "numbers/grid", "--codec", "zstd:{\"level\":4000000000}");
    copyUsageError("--codec gzip:10: gzip's level is 0..9", "numbers/grid", "--codec", "gzip:10");
    assertEquals(0, copy("numbers/grid", "--codec", "zstd:22").exit());
    assertEquals(0, copy("numbers/grid", "--codec", "zstd:-131072").exit());
  }

  @Test
  void codecsThatDoNotFitTheDataTypeOrEachOtherAreUsageErrors() {
    copyUsageError("--codec zep7", "numbers/grid", "--codec", "zep7");
    copyUsageError("--codec vlen-utf8", "numbers/grid", "--codec", "vlen-utf8");
    copyUsageError("--codec zarrs.vlen", "numbers/grid", "--codec", "zarrs.vlen");
    copyUsageError("--codec zstd --codec bytes", "numbers/grid", "--codec", "zstd", "--codec", "bytes");
  }

  @Test
  void chunkSizesPastTheIntRangeSayTheLimit() {
    Cli.Result r = copy("numbers/grid", "--chunks", "3000000000,1");
    assertEquals(2, r.exit(), r.toString());
    assertEquals("zarrow: --chunks 3000000000,1: 3000000000 is more than 2147483647, the largest size a chunk can have",
        r.errLines().get(0));
    Cli.Result huge = copy("numbers/grid", "--shards", "99999999999999999999,1");
    assertEquals(2, huge.exit(), huge.toString());
    assertTrue(huge.errLines().get(0).contains("is not in 1..2147483647"), huge.toString());
    Cli.Result word = copy("numbers/grid", "--chunks", "ten,1");
    assertTrue(word.errLines().get(0).endsWith("'ten' is not an integer"), word.toString());
    // Sizes in range whose product is not: the format's limit, as a mistake of the option.
    Cli.Result product = copy("numbers/grid", "--chunks", "100000,100000");
    assertEquals(2, product.exit(), product.toString());
    assertTrue(product.errLines().get(0).startsWith("zarrow: --chunks 100000,100000: ")
        && product.errLines().get(0).contains("exceeds 2^31 - 1 elements"), product.toString());
    assertFalse(Files.exists(dir.resolve("out")), product.toString());
    // import's row counts the same way.
    Path table = dir.resolve("t.arrows");
    assertEquals(0, Cli.run("export", demo, "numbers/counts", table).exit());
    Cli.Result rows = Cli.run("import", table, dir.resolve("out"), "t", "--chunk-rows", "3000000000");
    assertEquals(2, rows.exit(), rows.toString());
    assertEquals("zarrow: --chunk-rows 3000000000: is more than 2147483647, the most rows a chunk or shard can have",
        rows.errLines().get(0));
  }

  @Test
  void invalidCodecJsonSaysWhereWithoutJacksonsSourceText() {
    Cli.Result r = copy("numbers/grid", "--codec", "{\"name\":\"zstd\",");
    assertEquals(2, r.exit(), r.toString());
    assertEquals("zarrow: --codec {\"name\":\"zstd\",: not valid JSON: Unexpected end-of-input within/between Object entries"
        + " (at line 1, column 16)", r.errLines().get(0));
    Cli.Result list = copy("numbers/grid", "--codec", "[{\"name\":\"bytes\"");
    assertEquals(2, list.exit(), list.toString());
    assertFalse(list.err().contains("Source") || list.err().contains("REDACTED"), list.toString());
  }

  @Test
  void importErrorsNameTheInputOnce() throws Exception {
    Path json = dir.resolve("broken.json");
    Files.writeString(json, "{\"schema\": {\"fields\": [\n");
    Cli.Result r = Cli.run("import", json, dir.resolve("store"), "t");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    String line = r.errLines().get(0);
    assertEquals(line.indexOf(json.toString()), line.lastIndexOf(json.toString()), line);
    assertFalse(line.contains("Source") || line.contains("REDACTED"), line);

    Path notAnObject = dir.resolve("list.json");
    Files.writeString(notAnObject, "  {\"batches\": []}");
    Cli.Result noSchema = Cli.run("import", notAnObject, dir.resolve("store"), "t");
    assertEquals(3, noSchema.exit(), noSchema.toString());
    String l = noSchema.errLines().get(0);
    assertEquals(l.indexOf(notAnObject.toString()), l.lastIndexOf(notAnObject.toString()), l);
  }

  @Test
  void zarrsVlenHasADefaultConfiguration() {
    Cli.Result r = copy("strings/words", "--codec", "zarrs.vlen", "--codec", "zstd");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(Cli.run("cat", demo, "strings/words", "--json").out().replace("\"shape\"", ""),
        Cli.run("cat", dir.resolve("out"), "x", "--json").out().replace("\"shape\"", ""));
    Cli.Result ls = Cli.run("ls", dir.resolve("out"), "x", "--json");
    JsonNode vlen = Json.parse(ls.out(), "ls").get(0).get("codecs").get(0);
    assertEquals("{\"name\":\"zarrs.vlen\",\"configuration\":{\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":"
        + "{\"endian\":\"little\"}}],\"data_codecs\":[{\"name\":\"bytes\"}],\"index_data_type\":\"uint32\"}}", Json.compact(vlen));
  }

  @Test
  void zstdWithoutALevelWritesTheDefaultLevelItMeans() throws Exception {
    assertEquals(0, copy("numbers/counts", "--codec", "zstd").exit());
    JsonNode zstd = Json.parse(Files.readAllBytes(dir.resolve("out/x/zarr.json")), "zarr.json").get("codecs").get(1);
    assertEquals("{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}}", Json.compact(zstd));
    assertTrue(Cli.run("ls", dir.resolve("out")).out().contains(" bytes zstd:3 "), Cli.run("ls", dir.resolve("out")).out());
  }

  @Test
  void lsCountsShardsAsShards() {
    Cli.Result r = Cli.run("ls", demo, "numbers");
    assertEquals(0, r.exit(), r.toString());
    String sharded = r.out().lines().filter(l -> l.strip().startsWith("sharded ")).findFirst().orElseThrow();
    assertTrue(sharded.endsWith("4 of 4 shards, " + LsCommand.bytes(sizeOfShards())), sharded);
    JsonNode json = Json.parse(Cli.run("ls", demo, "numbers/sharded", "--json").out(), "ls").get(0);
    assertEquals(4, json.get("grid_shards").asInt(), json.toString());
    assertEquals(4, json.get("stored_shards").asInt(), json.toString());
    assertEquals(64, json.get("grid_chunks").asInt(), json.toString()); // 8 x 8 inner chunks of 8 x 8
    assertFalse(json.has("stored_chunks"), json.toString());
    JsonNode info = Json.parse(Cli.run("info", demo, "numbers/sharded").out(), "info").get("summary");
    assertEquals("{\"data_type\":\"int32\",\"zarr_format\":3,\"grid_shards\":4,\"stored_shards\":4,\"grid_chunks\":64,\"stored_bytes\":"
        + sizeOfShards() + ",\"ignored_keys\":0}", Json.compact(info));
  }

  private long sizeOfShards() {
    long n = 0;
    for (String shard : List.of("0/0", "0/1", "1/0", "1/1")) {
      try {
        n += Files.size(demo.resolve("numbers/sharded/c/" + shard));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return n;
  }

  @Test
  void lsAlignsColumnsWhenAGroupNameIsTheLongest() throws Exception {
    Path store = dir.resolve("out");
    try (FileSystemStore s = FileSystemStore.open(store)) {
      Zarr.createGroup(s, "", ZarrOptions.defaults());
      Zarr.createGroup(s, "a_group_with_a_much_longer_name_than_any_array", ZarrOptions.defaults());
      Zarr.createArray(s, "a_group_with_a_much_longer_name_than_any_array/c", ArraySpec.of(FixedType.INT64, 10).chunks(5));
    }
    Cli.Result r = Cli.run("ls", store);
    assertEquals(0, r.exit(), r.toString());
    List<String> lines = r.out().lines().toList();
    int type = lines.get(0).indexOf("TYPE");
    assertEquals(type, lines.get(1).indexOf("group"), r.out());
    assertEquals(type, lines.get(2).lastIndexOf("group"), r.out());
    assertEquals(type, lines.get(3).indexOf("int64"), r.out());
  }

  @Test
  void usageLinesShowOptionalPathsAsOptionalAndNameCopysPaths() {
    for (String command : List.of("ls", "info", "check", "consolidate")) {
      String usage = Cli.run(command, "--help").out().replaceAll("\\s+", " ");
      assertTrue(usage.contains("STORE [PATH]"), usage);
    }
    String copy = Cli.run("copy", "--help").out().replaceAll("\\s+", " ");
    assertTrue(copy.contains("SRC SRC_PATH DST DST_PATH"), copy);
    assertTrue(Cli.run("cat", "--help").out().contains("STORE PATH"));
  }

  @Test
  void topLevelHelpSaysStoreIsAnyLocation() {
    String help = Cli.run("--help").out().replaceAll("\\s+", " ");
    assertFalse(help.contains("STORE is a directory."), help);
    for (String location : List.of("STORE is a store location", "a directory", "http(s)://", "s3://BUCKET/PREFIX", ".zip",
        "memory:")) {
      assertTrue(help.contains(location), location + " in " + help);
    }
  }

  @Test
  void lsOfADirectoryThatIsNotZarrPrintsNothingOnStdout() throws Exception {
    Path plain = Files.createDirectories(dir.resolve("plain"));
    Files.writeString(plain.resolve("notes.txt"), "not zarr");
    for (List<String> options : List.of(List.<String>of(), List.of("--json"))) {
      List<Object> args = new java.util.ArrayList<>(List.of("ls", plain));
      args.addAll(options);
      Cli.Result r = Cli.run(args.toArray());
      assertEquals(3, r.exit(), r.toString());
      assertEquals("", r.out(), r.toString());
      assertEquals(List.of("zarrow: no array or group at '' in directory store " + plain + " (no zarr.json)"), r.errLines());
    }
  }

  @Test
  void importOfAFileThatIsNotArrowSaysWhatItStartsWith() throws Exception {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "hello world, this is no Arrow data\n");
    Cli.Result r = Cli.run("import", text, dir.resolve("store"), "t");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(List.of("zarrow: " + text + " is not an Arrow IPC stream, IPC file or JSON-integration file: it starts with"
        + " 68 65 6c 6c 6f 20 77 6f (\"hello wo\")"), r.errLines());
    Path png = dir.resolve("image.png");
    Files.write(png, new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13});
    Cli.Result image = Cli.run("import", png, dir.resolve("store"), "t");
    assertEquals(3, image.exit(), image.toString());
    assertTrue(image.err().contains("it starts with 89 50 4e 47 0d 0a 1a 0a (\".PNG....\")"), image.toString());
    assertFalse(Files.exists(dir.resolve("store").resolve("t")), "nothing imported");
  }

  @Test
  void infoOfAV2NodeShowsItsStoredDocumentsBesideTheV3Form() throws Exception {
    Cli.Result copied = Cli.run("copy", demo, "numbers/grid", dir.resolve("v2"), "grid", "--zarr-format", "2", "--codec", "zstd");
    assertEquals(0, copied.exit(), copied.toString());
    Files.writeString(dir.resolve("v2/grid/.zattrs"), "{\"units\": \"m\"}");
    Cli.Result r = Cli.run("info", dir.resolve("v2"), "grid");
    assertEquals(0, r.exit(), r.toString());
    JsonNode info = Json.parse(r.out(), "stdout");
    assertEquals(2, info.at("/summary/zarr_format").asInt());
    assertEquals(3, info.at("/metadata/zarr_format").asInt(), "metadata is the v3 form");
    assertEquals(Json.parse(Files.readString(dir.resolve("v2/grid/.zarray")), ".zarray"), info.at("/v2_documents/.zarray"));
    assertEquals(Json.parse("{\"units\": \"m\"}", ".zattrs"), info.at("/v2_documents/.zattrs"));
    assertEquals(2, info.at("/v2_documents").size());
    Cli.Result root = Cli.run("info", dir.resolve("v2"));
    JsonNode group = Json.parse(root.out(), "stdout");
    assertEquals(Json.parse(Files.readString(dir.resolve("v2/.zgroup")), ".zgroup"), group.at("/v2_documents/.zgroup"));
    assertTrue(Json.parse(Cli.run("info", demo, "numbers/grid").out(), "stdout").path("v2_documents").isMissingNode(),
        "a v3 node has no v2 documents");
  }
}
