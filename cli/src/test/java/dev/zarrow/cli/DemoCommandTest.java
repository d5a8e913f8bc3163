package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.spi.Registry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarrow demo}: writes, reads back and checks; optional parts follow the registry. */
class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void demoRunsAndLeavesACleanStore() {
    Path store = dir.resolve("demo");
    Cli.Result r = Cli.run("demo", store);
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("numbers/counts: int64 [1000], codecs bytes zstd:3 crc32c; 8 chunks stored"), r.out());
    assertTrue(r.out().contains("numbers/grid: float32 [48, 64], codecs transpose:1,0 bytes zstd:3 crc32c; 9 chunks stored"), r.out());
    Registry registry = Registry.defaults();
    assertEquals(registry.dataTypeNames().contains("string"), r.out().contains("strings/words: string"), r.out());
    assertEquals(registry.dataTypeNames().contains("arrow"), r.out().contains("table/people: arrow"), r.out());
    assertEquals(registry.codecNames().contains("sharding_indexed"), r.out().contains("numbers/sharded: int32"), r.out());
    assertTrue(r.out().contains("readings: a table of 300 rows written with TableWriter (station: string, tags: arrow,"
        + " temperature__C: arrow, time: int64; shards of 128 rows), read back equal"), r.out());
    assertTrue(r.out().contains("no problems"), r.out());
    // The table exports with its original column names.
    Path exported = dir.resolve("readings.arrows");
    assertEquals(0, Cli.run("export", store, "readings", exported).exit());
    assertTrue(Cli.run("import", exported, dir.resolve("again"), "t").out().contains("\"name\" : \"temperature °C\""));
    assertEquals(0, Cli.run("check", store).exit());
    assertEquals("{\"shape\":[3],\"data_type\":\"int64\",\"values\":[-500,-499,-496]}\n",
        Cli.run("cat", store, "numbers/counts", "--json", "--region", "0:3").out());

    // Again into the same directory: the arrays are replaced, not appended to.
    Cli.Result again = Cli.run("demo", store);
    assertEquals(0, again.exit(), again.toString());
  }
}
