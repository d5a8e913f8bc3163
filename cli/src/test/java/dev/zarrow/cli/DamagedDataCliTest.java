package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.ZipBytes;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Damage that used to read as data is a data error through the command line: {@code cat} and
 * {@code check} exit 3 with one line naming the key and the reason. A {@code .zarray} without a key the
 * v2 spec requires or with an overlong UTF-8 sequence; zip archives with a flipped byte in a stored or
 * deflated entry, a wrong CRC field, a local header whose name or name length is not the central
 * directory's, two entries of one name, and a chunk declaring 1 GiB where 4 KiB fit (refused within a
 * second, without allocating the declared size).
 */
class DamagedDataCliTest {
  @TempDir Path dir;

  private static final int[] VALUES = {31, 32, 34, 37, 41, 46, 52, 59};

  /** A v2 int32 array {@code a} of VALUES stored with a delta filter and shuffle, as zarr-python 2 writes it. */
  private Path deltaShuffleArray() throws Exception {
    Path store = Files.createDirectories(dir.resolve("v2"));
    Files.createDirectories(store.resolve("a"));
    Files.writeString(store.resolve(".zgroup"), "{\"zarr_format\": 2}");
    Files.writeString(store.resolve("a/.zarray"), "{\"zarr_format\": 2, \"shape\": [8], \"chunks\": [8], \"dtype\": \"<i4\","
        + " \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"dimension_separator\": \".\","
        + " \"filters\": [{\"id\": \"delta\", \"dtype\": \"<i4\"}, {\"id\": \"shuffle\", \"elementsize\": 4}]}");
    try (FileSystemStore fs = FileSystemStore.open(store); BufferAllocator allocator = new RootAllocator();
        IntVector v = new IntVector("a", allocator)) {
      v.allocateNew(VALUES.length);
      for (int i = 0; i < VALUES.length; i++) {
        v.set(i, VALUES[i]);
      }
      v.setValueCount(VALUES.length);
      Zarr.openArray(fs, "a").write(0, v);
    }
    return store;
  }

  private static void assertOneLineDataError(Cli.Result r, String... expected) {
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), "one line: " + r);
    assertTrue(r.err().startsWith("zarrow: ") && !r.err().contains("internal error"), r.toString());
    for (String e : expected) {
      assertTrue(r.err().contains(e), "names " + e + ": " + r);
    }
  }

  /** {@code check} reports the damage: a problem naming the key (one line) in its report, or a one-line error. */
  private static void assertCheckFinds(Cli.Result r, String key, String reason) {
    assertEquals(3, r.exit(), r.toString());
    assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), r.toString());
    if (r.out().isBlank()) { // the store did not open: one line on stderr
      assertOneLineDataError(r, reason);
      return;
    }
    JsonNode problems = Json.parse(r.out(), "check output").get("problems");
    boolean found = false;
    for (JsonNode p : problems) {
      String error = p.get("error").asText();
      found |= p.get("key").asText().equals(key) && error.contains(reason) && !error.contains("\n");
    }
    assertTrue(found, key + ", " + reason + ": " + r);
  }

  @Test
  void theUndamagedDeltaShuffleArrayReadsItsValues() throws Exception {
    Cli.Result r = Cli.run("cat", deltaShuffleArray(), "a", "--json");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().replaceAll("\\s", "").contains("[31,32,34,37,41,46,52,59]"), r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"})
  void aZarrayWithoutARequiredKeyIsADataError(String key) throws Exception {
    Path store = deltaShuffleArray();
    ObjectNode zarray = (ObjectNode) Json.parse(Files.readAllBytes(store.resolve("a/.zarray")), "test");
    zarray.remove(key);
    Files.write(store.resolve("a/.zarray"), Json.pretty(zarray));
    assertOneLineDataError(Cli.run("cat", store, "a", "--json"), "a/.zarray", "/" + key + ": missing");
    Cli.Result check = Cli.run("check", store, "a");
    assertEquals(3, check.exit(), check.toString());
    assertFalse(check.err().contains("internal error"), check.toString());
  }

  @Test
  void aZarrayWithAnOverlongUtf8SequenceIsADataError() throws Exception {
    Path store = deltaShuffleArray();
    String text = Files.readString(store.resolve("a/.zarray")).replace("\"order\"", "\"note\": \"x\u0000\", \"order\"");
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8); // U+0000 is one byte 00: made the overlong C0 80
    int at = text.indexOf('\u0000');
    byte[] damaged = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, damaged, 0, at);
    damaged[at] = (byte) 0xc0;
    damaged[at + 1] = (byte) 0x80;
    System.arraycopy(bytes, at + 1, damaged, at + 2, bytes.length - at - 1);
    Files.write(store.resolve("a/.zarray"), damaged);
    assertOneLineDataError(Cli.run("cat", store, "a", "--json"), "a/.zarray", "not valid UTF-8: bytes C0 80 at byte offset " + at);
  }

  // ---- zip archives ----

  /** An int32 array {@code a} of 1024 elements in one chunk (4 KiB), zstd-compressed, as a zip archive. */
  private ZipBytes zipOfAnArray(boolean deflate) {
    MemoryStore memory = new MemoryStore();
    ZarrArray array = Zarr.createArray(memory, "a", ArraySpec.of(FixedType.INT32, 1024).chunks(1024));
    try (BufferAllocator allocator = new RootAllocator(); IntVector v = new IntVector("a", allocator)) {
      v.allocateNew(1024);
      for (int i = 0; i < 1024; i++) {
        v.set(i, i % 7);
      }
      v.setValueCount(1024);
      array.write(0, v);
    }
    return ZipBytes.of(memory, deflate);
  }

  private Path damagedZip(boolean deflate, BiConsumer<ZipBytes, byte[]> damage) throws Exception {
    ZipBytes zip = zipOfAnArray(deflate);
    byte[] archive = zip.bytes();
    damage.accept(zip, archive);
    Path path = Files.createTempFile(dir, "damaged", ".zip");
    Files.write(path, archive);
    return path;
  }

  private void expectRefused(Path zip, String reason) {
    assertOneLineDataError(Cli.run("cat", zip, "a", "--json"), "a/c/0", reason);
    assertCheckFinds(Cli.run("check", zip), "a/c/0", reason);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aZipEntryWithAFlippedByteIsRefused(boolean deflate) throws Exception {
    // The last data byte: in a deflated entry, the end of the stream, so inflating may fail before the CRC.
    Path zip = damagedZip(deflate, (z, bytes) -> {
      int i = z.indexOf("a/c/0");
      bytes[z.data(i) + z.entries().get(i).data().length - 1] ^= 0x04;
    });
    expectRefused(zip, deflate ? "entry a/c/0 of zip archive" : "CRC-32 mismatch");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aZipEntryWithAWrongCrcFieldIsRefused(boolean deflate) throws Exception {
    Path zip = damagedZip(deflate, (z, bytes) -> {
      int i = z.indexOf("a/c/0");
      int crc = z.entries().get(i).crc() ^ 0x100;
      ZipBytes.putInt(bytes, z.localHeader(i) + 14, crc);
      ZipBytes.putInt(bytes, z.centralEntry(i) + 16, crc);
    });
    expectRefused(zip, "CRC-32 mismatch");
  }

  @Test
  void aZipEntryWhoseLocalNameIsNotTheCentralOneIsRefused() throws Exception {
    Path zip = damagedZip(false, (z, bytes) -> bytes[z.localHeader(z.indexOf("a/c/0")) + 30 + 4] = '1');
    expectRefused(zip, "its local header names 5 bytes \"a/c/1\"");
  }

  @Test
  void aZipEntryWhoseLocalNameLengthIsNotTheCentralOneIsRefused() throws Exception {
    Path zip = damagedZip(false, (z, bytes) -> ZipBytes.putShort(bytes, z.localHeader(z.indexOf("a/c/0")) + 26, 4));
    expectRefused(zip, "its local header names 4 bytes");
  }

  @Test
  void aZipArchiveWithTwoEntriesOfOneNameIsRefused() throws Exception {
    ZipBytes zip = zipOfAnArray(false);
    ZipBytes.Entry chunk = zip.entries().get(zip.indexOf("a/c/0"));
    zip.add(new ZipBytes.Entry("a/c/0", 0, ZipBytes.crc(new byte[4096]), new byte[4096], 4096));
    Path path = dir.resolve("duplicates.zip");
    Files.write(path, zip.bytes());
    assertTrue(chunk.size() > 0);
    assertOneLineDataError(Cli.run("cat", path, "a", "--json"), "two entries are named a/c/0");
    assertOneLineDataError(Cli.run("check", path), "two entries are named a/c/0");
  }

  @Test
  void aChunkDeclaringAGibibyteIsRefusedWithinASecondWithoutAllocatingIt() throws Exception {
    ZipBytes zip = zipOfAnArray(true);
    zip.entries().set(zip.indexOf("a/c/0"), ZipBytes.zeros("a/c/0", 1024)); // deflate data that does inflate to 1 GiB
    Path path = dir.resolve("gibibyte.zip");
    Files.write(path, zip.bytes());
    Cli.run("ls", path); // the commands' classes loaded: what is timed below is the read
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
    for (String command : new String[] {"cat", "check"}) {
      long before = direct.getTotalCapacity();
      long start = System.nanoTime();
      Cli.Result r = command.equals("cat") ? Cli.run("cat", path, "a", "--json") : Cli.run("check", path);
      long took = System.nanoTime() - start;
      if (command.equals("cat")) {
        assertOneLineDataError(r, "a/c/0", "the stored chunk is 1073741824 bytes, more than a");
      } else {
        assertCheckFinds(r, "a/c/0", "the stored chunk is 1073741824 bytes");
      }
      assertTrue(took < 1_000_000_000L, command + " took " + took / 1_000_000 + " ms");
      long grown = direct.getTotalCapacity() - before;
      assertTrue(grown < 16 << 20, command + ": direct memory grew by " + grown + " bytes");
    }
  }
}
