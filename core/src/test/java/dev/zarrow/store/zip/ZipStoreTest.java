package dev.zarrow.store.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Peer;
import dev.zarrow.testing.StoreCorpus;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zip archives written by Info-ZIP's {@code zip} (stored, deflated, forced ZIP64) and by zarrow read the
 * same arrays as the directory they were made from; zarrow's archives pass {@code unzip -t}; damaged
 * archives fail with store errors only; a writer replaces the archive whole.
 */
@ExtendWith(AllocatorExtension.class)
class ZipStoreTest {
  @TempDir static Path dir;
  static FileSystemStore local;
  static List<String> corpus;

  @BeforeAll
  static void writeCorpus() throws Exception {
    local = FileSystemStore.open(dir.resolve("data"));
    try (BufferAllocator allocator = new RootAllocator()) {
      corpus = StoreCorpus.write(local, allocator);
    }
  }

  @AfterAll
  static void close() {
    local.close();
  }

  /** Runs {@code command} in {@code cwd}; fails on CI, skips elsewhere, when the program is missing. */
  static String run(Path cwd, String... command) throws Exception {
    Peer.ZIP.require();
    Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
    assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    return out;
  }

  @Test
  void archivesOfTheZipCommandReadEqual(BufferAllocator allocator) throws Exception {
    for (String[] flags : List.of(new String[] {"-0"}, new String[] {"-9"}, new String[] {"-6", "-fz"})) {
      Path archive = dir.resolve("zip" + String.join("", flags) + ".zip");
      List<String> command = new ArrayList<>(List.of("zip", "-q", "-r"));
      command.addAll(List.of(flags));
      command.addAll(List.of(archive.toString(), "."));
      run(dir.resolve("data"), command.toArray(String[]::new));
      try (Store zip = Stores.open(archive.toString())) {
        assertInstanceOf(ZipStore.class, zip);
        StoreCorpus.assertSameArrays(local, zip, corpus, allocator);
        assertEquals(local.list(""), zip.list(""), "the same keys; directory entries are no keys");
        assertEquals(local.listDir("core/"), zip.listDir("core/"));
      }
    }
  }

  @Test
  void archivesOfZarrowReadEqualAndPassUnzip(BufferAllocator allocator) throws Exception {
    for (boolean zip64 : List.of(false, true)) {
      Path archive = dir.resolve("zarrow" + (zip64 ? "64" : "") + ".zip");
      try (ZipWriteStore out = ZipWriteStore.open(archive, zip64)) {
        for (String key : local.list("")) {
          out.set(key, local.get(key).orElseThrow());
        }
      }
      assertTrue(run(dir, "unzip", "-t", archive.toString()).contains("No errors detected"));
      try (Store zip = Stores.open("zip:" + archive)) {
        StoreCorpus.assertSameArrays(local, zip, corpus, allocator);
        assertEquals(local.list(""), zip.list(""));
        String key = corpus.get(0) + "/zarr.json";
        ByteBuffer a = zip.get(key).orElseThrow();
        ByteBuffer b = zip.get(key).orElseThrow();
        assertTrue(a.isReadOnly() && a.isDirect(), "a stored entry is a view of the mapped archive");
        assertEquals(MemoryUtil.getByteBufferAddress(a), MemoryUtil.getByteBufferAddress(b), "read without a copy");
      }
    }
  }

  @Test
  void manyEntriesTakeZip64(BufferAllocator allocator) throws Exception {
    Path archive = dir.resolve("many.zip");
    try (WritableStore out = Stores.openWritable(archive.toString())) {
      for (int i = 0; i < 70_000; i++) {
        out.set("k/" + i, ByteBuffer.wrap(Integer.toString(i).getBytes(StandardCharsets.US_ASCII)));
      }
    }
    assertTrue(run(dir, "unzip", "-l", archive.toString()).contains("70000 files"));
    try (Store zip = Stores.open(archive.toString())) {
      assertEquals(70_000, zip.list("k/").size());
      assertEquals("69999", new String(Vectors.toArray(zip.get("k/69999").orElseThrow()), StandardCharsets.US_ASCII));
    }
  }

  @Test
  void aWriterReplacesTheArchiveWholeAtClose() throws Exception {
    Path archive = dir.resolve("replace.zip");
    try (WritableStore out = Stores.openWritable(archive.toString())) {
      out.set("a", bytes("old-a"));
      out.set("b", bytes("old-b"));
    }
    byte[] before = Files.readAllBytes(archive);
    try (Store reader = Stores.open(archive.toString())) {
      WritableStore out = Stores.openWritable(archive.toString());
      out.set("a", bytes("new-a"));
      out.delete("b");
      out.set("c/d", bytes("new-c"));
      assertEquals("new-a", text(out.get("a").orElseThrow()), "the writer reads what it wrote");
      assertEquals(Optional.empty(), out.get("b"));
      assertEquals(List.of("a", "c/d"), out.list(""));
      assertArrayEquals(before, Files.readAllBytes(archive), "nothing is visible before close");
      out.close();
      assertEquals("old-b", text(reader.get("b").orElseThrow()), "a reader keeps the archive it opened");
    }
    try (Store zip = Stores.open(archive.toString())) {
      assertEquals(List.of("a", "c/d"), zip.list(""));
      assertEquals("new-a", text(zip.get("a").orElseThrow()));
      assertEquals("w-a", text(zip.get("a", ByteRange.of(2, 3)).orElseThrow()));
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith(".")).toList(), "no temporary files left");
    }
  }

  @Test
  void deflatedEntriesAreKeptWhenAnArchiveIsRewritten() throws Exception {
    Path data = Files.createDirectories(dir.resolve("deflated"));
    Files.writeString(data.resolve("text"), "x".repeat(10_000));
    Path archive = dir.resolve("deflated.zip");
    run(data, "zip", "-q", "-9", archive.toString(), "text");
    try (WritableStore out = Stores.openWritable(archive.toString())) {
      out.set("more", bytes("y"));
    }
    assertTrue(run(dir, "unzip", "-t", archive.toString()).contains("No errors detected"));
    try (Store zip = Stores.open(archive.toString())) {
      assertEquals("x".repeat(10_000), text(zip.get("text").orElseThrow()));
    }
  }

  @Test
  void damagedArchivesAreStoreErrors() throws Exception {
    Path good = dir.resolve("good.zip");
    Path data = Files.createDirectories(dir.resolve("small"));
    Files.writeString(data.resolve("a"), "hello hello hello hello");
    Files.writeString(data.resolve("b"), "0123456789");
    run(data, "zip", "-q", "-9", good.toString(), "a");
    run(data, "zip", "-q", "-0", good.toString(), "b");
    byte[] bytes = Files.readAllBytes(good);
    Path bad = dir.resolve("bad.zip");
    int failures = 0;
    for (int cut = 0; cut < bytes.length; cut++) {
      Files.write(bad, java.util.Arrays.copyOf(bytes, cut));
      failures += readsOnlyZarrExceptions(bad);
    }
    assertTrue(failures > bytes.length / 2, "truncations fail: " + failures);
    java.util.Random random = new java.util.Random(7);
    for (int round = 0; round < 2000; round++) {
      byte[] flipped = bytes.clone();
      flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
      Files.write(bad, flipped);
      readsOnlyZarrExceptions(bad);
    }
    Files.write(bad, "not a zip archive at all".getBytes(StandardCharsets.US_ASCII));
    var e = assertThrows(StoreException.class, () -> Stores.open(bad.toString()));
    assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
    assertThrows(NoSuchNodeException.class, () -> Stores.open(dir.resolve("missing.zip").toString()));
  }

  /** Opens and reads every key: 1 when that failed with a ZarrException, 0 when it worked; anything else fails the test. */
  private static int readsOnlyZarrExceptions(Path archive) {
    try (Store zip = Stores.open(archive.toString())) {
      for (String key : zip.list("")) {
        zip.get(key);
        zip.get(key, ByteRange.suffix(1));
      }
      return 0;
    } catch (ZarrException e) {
      return 1;
    }
  }

  @Test
  void locationsNameZipArchives() {
    assertEquals("zip", Stores.scheme("data.zip"));
    assertEquals("zip", Stores.scheme("/x/DATA.ZIP"));
    assertEquals("zip", Stores.scheme("zip:/x/data"));
    assertEquals("zip", Stores.scheme("file:/x/data.zip"));
    assertEquals("file", Stores.scheme("data.zarr"));
    assertFalse(Stores.scheme("zip.d").equals("zip"));
  }

  static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  static String text(ByteBuffer b) {
    return new String(Vectors.toArray(b), StandardCharsets.UTF_8);
  }
}
