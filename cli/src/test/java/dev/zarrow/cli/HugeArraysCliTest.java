package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on shapes at the edge of a long (issue 14): bad metadata exits 3 naming the shape, never 1;
 * a valid array of 2^62 elements is refused by {@code cat} at once (exit 2, suggesting --region) and
 * copied, checked and listed in the time of its stored chunks; {@code ls} of a hierarchy with
 * unreadable nodes lists the rest and names each bad one on stderr.
 */
class HugeArraysCliTest {
  private static final long TWO_62 = 1L << 62;
  private static final Duration QUICK = Duration.ofSeconds(30);

  @TempDir Path dir;

  private Path store() throws Exception {
    Path store = dir.resolve("store");
    Zarr.createArray(FileSystemStore.open(store), "small", ArraySpec.of(FixedType.INT8, 4, 4).chunks(2, 2));
    writeArray(store, "huge", "[2147483648, 2147483648]", "[1, 1]");
    return store;
  }

  private static void writeArray(Path store, String path, String shape, String chunks) throws Exception {
    Files.createDirectories(store.resolve(path));
    Files.writeString(store.resolve(path + "/zarr.json"),
        "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape + ", \"data_type\": \"int8\","
            + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " + chunks + "}},"
            + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\"}]}");
  }

  @Test
  void shapeBeyondALongIsExit3NamingTheShape() throws Exception {
    Path store = store();
    writeArray(store, "overflow", "[" + TWO_62 + ", " + TWO_62 + "]", "[1, 1]");
    for (String command : new String[] {"info", "cat", "check"}) {
      Cli.Result r = assertTimeoutPreemptively(QUICK, () -> Cli.run(command, store, "overflow"));
      assertEquals(3, r.exit(), command + ": " + r);
      assertTrue(r.err().contains("[" + TWO_62 + ", " + TWO_62 + "]") && !r.err().contains("internal error"), r.toString());
    }
  }

  @Test
  void catOfAHugeArrayIsRefusedAtOnce() throws Exception {
    Path store = store();
    for (Object[] args : new Object[][] {
        {"cat", store, "huge", "--json"},
        {"cat", store, "huge"},
        {"cat", store, "huge", "--json", "--region", "0:1,:"}}) {
      Cli.Result r = assertTimeoutPreemptively(QUICK, () -> Cli.run(args));
      assertEquals(2, r.exit(), r.toString());
      assertTrue(r.err().contains("--region") && r.err().contains("--max-elements"), r.toString());
      assertEquals("", r.out(), r.toString());
    }
    // The message the README quotes.
    assertEquals("zarrow: --max-elements 10000000: array 'huge' of shape [2147483648, 2147483648] has 4611686018427387904"
        + " elements; print a part of it with --region (e.g. --region 0:10) or raise --max-elements",
        Cli.run("cat", store, "huge").errLines().get(0));
    Cli.Result part = Cli.run("cat", store, "huge", "--json", "--region", "5,7:9");
    assertEquals(0, part.exit(), part.toString());
    assertEquals("{\"shape\":[1,2],\"data_type\":\"int8\",\"values\":[0,0]}", part.out().strip());
  }

  @Test
  void maxElementsRaisesOrLowersTheLimit() throws Exception {
    Path store = store();
    Cli.Result refused = Cli.run("cat", store, "small", "--json", "--max-elements", "15");
    assertEquals(2, refused.exit(), refused.toString());
    assertTrue(refused.err().startsWith("zarrow: --max-elements 15: ") && refused.err().contains("16 elements"), refused.toString());
    Cli.Result region = Cli.run("cat", store, "small", "--json", "--region", "0:2", "--max-elements", "7");
    assertTrue(region.exit() == 2 && region.err().startsWith("zarrow: --region 0:2: 8 elements, more than --max-elements 7; "), region.toString());
    Cli.Result ok = Cli.run("cat", store, "small", "--json", "--max-elements", "16");
    assertEquals(0, ok.exit(), ok.toString());
    Cli.Result zero = Cli.run("cat", store, "small", "--json", "--max-elements", "0");
    assertEquals(2, zero.exit(), zero.toString());
    assertTrue(zero.err().contains("--max-elements"), zero.toString());
  }

  @Test
  void copyCheckInfoAndLsOfAHugeSparseArrayTakeTheTimeOfTheirData() throws Exception {
    Path store = store();
    Cli.Result copy = assertTimeoutPreemptively(QUICK, () -> Cli.run("copy", store, "huge", dir.resolve("out"), "copied"));
    assertEquals(0, copy.exit(), copy.toString());
    for (String command : new String[] {"check", "info", "ls"}) {
      Cli.Result r = assertTimeoutPreemptively(QUICK, () -> Cli.run(command, dir.resolve("out"), "copied"));
      assertEquals(0, r.exit(), command + ": " + r);
    }
  }

  @Test
  void lsListsTheReadableNodesAndNamesEachBadOneOnStderr() throws Exception {
    Path store = store();
    writeArray(store, "overflow", "[" + TWO_62 + ", " + TWO_62 + "]", "[1, 1]");
    Files.createDirectories(store.resolve("g/notjson"));
    Files.writeString(store.resolve("g/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
    Files.writeString(store.resolve("g/notjson/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"arr");
    Cli.Result r = assertTimeoutPreemptively(QUICK, () -> Cli.run("ls", store));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.out().contains("small") && r.out().contains("huge") && r.out().contains("g/"), r.toString());
    assertFalse(r.out().contains("overflow") || r.out().contains("notjson"), "unreadable nodes go to stderr: " + r);
    assertTrue(r.errLines().stream().anyMatch(l -> l.startsWith("zarrow: overflow: ") && l.contains("[" + TWO_62 + ", " + TWO_62 + "]")), r.toString());
    assertTrue(r.errLines().stream().anyMatch(l -> l.startsWith("zarrow: g/notjson: ")), r.toString());
    assertTrue(r.errLines().get(r.errLines().size() - 1).contains("2 nodes could not be read"), r.toString());
  }

  @Test
  void checkReportsTheUnreadableNodeAndChecksTheRest() throws Exception {
    Path store = store();
    writeArray(store, "overflow", "[" + TWO_62 + ", " + TWO_62 + "]", "[1, 1]");
    Cli.Result r = assertTimeoutPreemptively(QUICK, () -> Cli.run("check", store));
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.out().matches("(?s).*\"arrays\" *: *2,.*") && r.out().contains("overflow/zarr.json"), r.toString());
  }

  @Test
  void infoCountsInnerChunksOfAShapeNearTheLongLimit() throws Exception {
    // 2^63 - 2 elements in shards of 3 inner chunks of 3: (shape + 3 - 1) / 3 would wrap negative.
    Path store = dir.resolve("near");
    long size = Long.MAX_VALUE - 1;
    Files.createDirectories(store.resolve("a"));
    Files.writeString(store.resolve("a/zarr.json"),
        "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [" + size + "], \"data_type\": \"int8\","
            + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [3]}},"
            + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, \"codecs\": [{\"name\": \"sharding_indexed\","
            + " \"configuration\": {\"chunk_shape\": [3], \"codecs\": [{\"name\": \"bytes\"}],"
            + " \"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}}]}");
    Cli.Result r = Cli.run("info", store, "a");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().matches("(?s).*\"grid_chunks\" *: *" + (size / 3) + "\\b.*"), r.toString());
  }
}
