package dev.zarrow.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.management.UnixOperatingSystemMXBean;
import dev.zarrow.ArraySpec;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.StoreException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import java.lang.management.ManagementFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Assumptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemStoreTest extends StoreContract {
  @TempDir Path dir;

  private Path root() {
    return dir.resolve("root");
  }

  @Override
  protected WritableStore newStore() {
    return FileSystemStore.open(root());
  }

  @Test
  void keysAreFilesUnderTheRoot() throws IOException {
    store.set("a/b/c", bytes("x"));
    assertEquals("x", Files.readString(root().resolve("a/b/c")));
    Files.writeString(root().resolve("made-outside"), "by hand");
    assertEquals("by hand", text(store.get("made-outside").orElseThrow()));
  }

  @Test
  void readsIntoTheCallersOwnDirectMemory() {
    store.set("k", bytes("hello"));
    try (ByteSource source = store.source("k").orElseThrow()) {
      for (ByteBuffer b : List.of(store.get("k").orElseThrow(), store.get("k", ByteRange.of(1, 3)).orElseThrow(),
          source.readAll(), source.read(ByteRange.of(1, 2)))) {
        assertTrue(b.isDirect() && !b.isReadOnly(), "fresh writable direct memory that decoders may wrap");
      }
    }
  }

  /**
   * A slice (a shard's inner chunk) reads into the caller's scratch as the whole source does, not
   * into fresh direct memory that only a GC frees; and reads there exactly the slice's bytes.
   */
  @Test
  void slicesReadIntoTheCallersScratch() {
    store.set("k", bytes("0123456789"));
    try (ByteSource source = store.source("k").orElseThrow()) {
      ByteBuffer scratch = ByteBuffer.allocateDirect(16);
      long[] asked = {-1};
      ByteBuffer got = source.slice(2, 6).slice(1, 4).readAll(n -> {
        asked[0] = n;
        return scratch;
      });
      assertEquals(4, asked[0], "asks for the slice's length");
      assertEquals("3456", text(got));
      got.put(0, (byte) 'x');
      assertEquals('x', scratch.get(0), "the bytes are in the scratch buffer");
      assertEquals("23", text(source.slice(2, 6).read(ByteRange.of(0, 2), n -> ByteBuffer.allocateDirect((int) n + 3))));
      assertThrows(CorruptChunkException.class, () -> source.slice(2, 6).read(ByteRange.of(4, 4), n -> scratch));
    }
  }

  /** A source holds an open file until closed; array reads and partial writes close theirs. */
  @Test
  void sourcesReleaseTheirFiles() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    Assumptions.assumeTrue(os instanceof UnixOperatingSystemMXBean, "counts open files on Unix only");
    UnixOperatingSystemMXBean unix = (UnixOperatingSystemMXBean) os;
    store.set("k", bytes("0123456789"));
    Path k = root().resolve("k");
    assertEquals(0, descriptorsOf(k));
    ByteSource open = store.source("k").orElseThrow();
    assertEquals(1, descriptorsOf(k), "one file per source");
    open.close();
    assertEquals(0, descriptorsOf(k), "closed with the source");
    assertThrows(StoreException.class, () -> open.read(ByteRange.of(0, 1)), "reads after close fail cleanly");
    assertThrows(StoreException.class, () -> open.readAll());

    long before;
    try (BufferAllocator allocator = new RootAllocator()) {
      ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 64).chunks(64).codecs(List.of(
          ArraySpec.shardingIndexed(new int[] {8}, List.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little")))))));
      try (IntVector seven = new IntVector("v", allocator)) {
        seven.allocateNew(8);
        for (int i = 0; i < 8; i++) {
          seven.set(i, 7);
        }
        seven.setValueCount(8);
        before = unix.getOpenFileDescriptorCount();
        for (int round = 0; round < 500; round++) {
          array.write(new Box(new long[] {8 * (round % 8)}, new long[] {8}), seven); // reads the shard, then writes
          try (NdVector part = array.read(new Box(new long[] {8 * (round % 8)}, new long[] {8}), allocator);
              NdVector all = array.read(allocator)) {
            assertEquals(7, ((IntVector) part.vector()).get(0));
          }
        }
      }
    }
    assertTrue(unix.getOpenFileDescriptorCount() < before + 50,
        "open files grew from " + before + " to " + unix.getOpenFileDescriptorCount() + ": sources leak");
  }

  /**
   * The process's open files on {@code file}, from /proc/self/fd (Linux): unlike the process's count
   * of descriptors, no other thread's files change it.
   */
  private static long descriptorsOf(Path file) {
    Path fds = Path.of("/proc/self/fd");
    Assumptions.assumeTrue(Files.isDirectory(fds), "lists open files through /proc (Linux)");
    try (var links = Files.list(fds)) {
      Path target = file.toRealPath();
      return links.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).equals(target);
        } catch (IOException | UnsupportedOperationException e) {
          return false; // closed since listed
        }
      }).count();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aTemporaryDirectoryIsListedOnlyWhenNamed() throws IOException {
    store.set("g/a/c/0", bytes("old"));
    store.set("g/.a.new.zarrow-tmp/c/0", bytes("new"));
    assertEquals(List.of("g/a/c/0"), store.list(""));
    assertEquals(List.of("g/a/c/0"), store.list("g/"));
    assertEquals(new Store.Listing(List.of(), List.of("g/a/"), List.of("g/.a.new.zarrow-tmp")), store.listDir("g/"));
    assertEquals(List.of("g/.a.new.zarrow-tmp/c/0"), store.list("g/.a.new.zarrow-tmp/"));
    // the swap of a node: the old one aside, the new one in its place, the old one gone with its directories
    store.rename("g/a", "g/.a.old.zarrow-tmp");
    store.rename("g/.a.new.zarrow-tmp", "g/a");
    store.deletePrefix("g/.a.old.zarrow-tmp/");
    assertEquals("new", text(store.get("g/a/c/0").orElseThrow()));
    try (var left = Files.list(root().resolve("g"))) {
      assertEquals(List.of("a"), left.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void deletingAPrefixLeavesNoEmptyDirectory() throws IOException {
    store.set("g/a/c/0/1", bytes("x"));
    store.set("g/a/zarr.json", bytes("{}"));
    Files.writeString(root().resolve("g/a/c/.1.ff.zarrow-tmp"), "torn");
    store.set("g/b", bytes("kept"));
    store.deletePrefix("g/a/");
    assertFalse(Files.exists(root().resolve("g/a")));
    assertEquals(List.of("g/b"), store.list(""));
    store.set("x1", bytes("1"));
    store.set("x2/k", bytes("2"));
    store.deletePrefix("x"); // not a directory prefix: key by key
    assertEquals(List.of("g/b"), store.list(""));
  }

  @Test
  void renameRefusesToLeaveTheRoot() throws IOException {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    store.set("a/k", bytes("1"));
    Files.createSymbolicLink(root().resolve("link"), outside);
    assertThrows(StoreException.class, () -> store.rename("a", "link/a"));
    try (var in = Files.list(outside)) {
      assertEquals(0, in.count());
    }
    assertEquals(List.of("a/k"), store.list("a/"));
  }

  @Test
  void neverListsTemporaryFiles() throws IOException {
    store.set("a/k", bytes("1"));
    Files.writeString(root().resolve("a/.k.12ab.zarrow-tmp"), "torn");
    Files.writeString(root().resolve(".zarr.json.ff.zarrow-tmp"), "torn");
    assertEquals(List.of("a/k"), store.list(""));
    assertEquals(List.of("a/k"), store.list("a/"));
    // left out of keys and prefixes, but named as temporaries (for check to report)
    assertEquals(new Store.Listing(List.of("a/k"), List.of(), List.of("a/.k.12ab.zarrow-tmp")), store.listDir("a/"));
    assertEquals(new Store.Listing(List.of(), List.of("a/"), List.of(".zarr.json.ff.zarrow-tmp")), store.listDir(""));
    try (var files = Files.list(root().resolve("a"))) {
      assertEquals(2, files.count());
    }
  }

  @Test
  void leavesNoTemporaryFileBehind() throws IOException {
    for (int i = 0; i < 20; i++) {
      store.set("a/k", bytes("v" + i));
    }
    try (var files = Files.list(root().resolve("a"))) {
      assertEquals(List.of("k"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void aDirectoryIsNotAKey() {
    store.set("group/child/zarr.json", bytes("{}"));
    assertEquals(Optional.empty(), store.get("group/child"));
    assertEquals(Optional.empty(), store.get("group", ByteRange.of(0, 1)));
    assertEquals(Optional.empty(), store.size("group"));
    assertFalse(store.exists("group"));
    store.delete("group"); // not a key: nothing to delete
    store.delete("group/child/zarr.json/below");
    assertTrue(store.exists("group/child/zarr.json"));
  }

  @Test
  void refusesToWriteThroughSymbolicLinksOutOfTheRoot() throws IOException {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.createDirectories(root());
    Files.createSymbolicLink(root().resolve("escape"), outside);
    Path secret = Files.writeString(outside.resolve("secret"), "keep");
    Files.createSymbolicLink(root().resolve("file-link"), secret);

    var e = assertThrows(StoreException.class, () -> store.set("escape/x", bytes("evil")));
    assertTrue(e.getMessage().contains("escape/x"), e.getMessage());
    assertThrows(StoreException.class, () -> store.set("escape/deeper/x", bytes("evil")));
    assertThrows(StoreException.class, () -> store.set("file-link", bytes("evil")));
    assertEquals("keep", Files.readString(secret));
    try (var files = Files.list(outside)) {
      assertEquals(List.of("secret"), files.map(p -> p.getFileName().toString()).toList(),
          "nothing, not even a directory, was made outside the root");
    }
  }

  @Test
  void aRootThatIsALinkIsFine() throws IOException {
    Path real = Files.createDirectories(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    try (FileSystemStore s = FileSystemStore.open(link)) {
      s.set("a/b", ByteBuffer.wrap("ok".getBytes(StandardCharsets.UTF_8)));
      assertEquals("ok", Files.readString(real.resolve("a/b")));
    }
  }

  @Test
  void reportsIoErrorsAsStoreExceptions() throws IOException {
    store.set("a/file", bytes("x"));
    // A key below a file cannot exist: its directory would be a file.
    var e = assertThrows(StoreException.class, () -> store.set("a/file/below", bytes("y")));
    assertTrue(e.getMessage().contains("a/file/below"), e.getMessage());
    assertEquals(Optional.empty(), store.get("a/file/below"));
  }
}
