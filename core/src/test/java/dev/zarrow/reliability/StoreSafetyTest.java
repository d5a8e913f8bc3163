package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.StoreException;
import dev.zarrow.Zarr;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.WritableStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys cannot leave a store's root, and file-store writes do not follow symbolic links out of it. */
class StoreSafetyTest {
  private static final List<String> ESCAPING = List.of(
      "..", "../x", "a/../../x", "a/..", "./a", "a/./b", "/etc/passwd", "/x", "a\\..\\..\\x", "..\\x",
      "a\0b", "a/\0/b", "", "a//b", "a/", "\n", "a\u007fb");

  @TempDir Path tmp;
  Path root;
  Path outside;

  @BeforeEach
  void dirs() throws IOException {
    root = Files.createDirectories(tmp.resolve("store"));
    outside = Files.createDirectories(tmp.resolve("outside"));
  }

  @Test
  void keysThatEscapeTheRootAreRefusedByEveryOperation() throws IOException {
    Files.writeString(tmp.resolve("x"), "secret");
    for (WritableStore store : List.of(FileSystemStore.open(root), new MemoryStore())) {
      for (String key : ESCAPING) {
        String what = store.describe() + " key '" + key.replace("\0", "\\0") + "'";
        assertThrows(StoreException.class, () -> store.get(key), what);
        assertThrows(StoreException.class, () -> store.size(key), what);
        assertThrows(StoreException.class, () -> store.set(key, bytes("x")), what);
        assertThrows(StoreException.class, () -> store.delete(key), what);
      }
      assertThrows(StoreException.class, () -> store.list("../"));
      assertThrows(StoreException.class, () -> store.listDir("../"));
    }
    assertEquals("secret", Files.readString(tmp.resolve("x")));
    try (var files = Files.list(tmp)) {
      assertEquals(List.of("outside", "store", "x"), files.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void nodePathsThatEscapeAreRefused() {
    FileSystemStore store = FileSystemStore.open(root);
    for (String path : List.of("../outside", "a/../../outside", "a\\b", "a\0b")) {
      // The caller's path, so the caller's mistake (CLI exit 2), refused before the store is touched.
      assertThrows(IllegalArgumentException.class, () -> Zarr.open(store, path), path);
      assertThrows(IllegalArgumentException.class, () -> Zarr.createGroup(store, path), path);
    }
    assertFalse(Files.exists(outside.resolve("zarr.json")));
  }

  @Test
  void writesDoNotFollowASymlinkedDirectoryOutOfTheRoot() throws IOException {
    Files.createSymbolicLink(root.resolve("link"), outside);
    Files.writeString(outside.resolve("victim"), "keep");
    FileSystemStore store = FileSystemStore.open(root);

    assertThrows(StoreException.class, () -> store.set("link/x", bytes("x")));
    assertThrows(StoreException.class, () -> store.set("link/new/deeper/x", bytes("x")));
    assertThrows(StoreException.class, () -> store.set("link/victim", bytes("x")));
    assertThrows(StoreException.class, () -> store.delete("link/victim"));
    assertThrows(StoreException.class, () -> Zarr.createGroup(store, "link/g"));

    try (var files = Files.list(outside)) {
      assertEquals(List.of("victim"), files.map(p -> p.getFileName().toString()).toList(), "nothing created outside");
    }
    assertEquals("keep", Files.readString(outside.resolve("victim")));
  }

  @Test
  void writesDoNotFollowASymlinkedKeyFile() throws IOException {
    Path target = outside.resolve("target");
    Files.writeString(target, "keep");
    Files.createDirectories(root.resolve("a"));
    Files.createSymbolicLink(root.resolve("a/key"), target);
    FileSystemStore store = FileSystemStore.open(root);

    assertThrows(StoreException.class, () -> store.set("a/key", bytes("overwritten")));
    assertEquals("keep", Files.readString(target));
    assertTrue(Files.isSymbolicLink(root.resolve("a/key")));
  }

  @Test
  void symlinksInsideTheRootStillWork() throws IOException {
    Files.createDirectories(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));
    FileSystemStore store = FileSystemStore.open(root);
    store.set("alias/x", bytes("through the alias"));
    assertArrayEquals("through the alias".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(root.resolve("real/x")));
    store.delete("alias/x");
    assertFalse(Files.exists(root.resolve("real/x")));
  }

  @Test
  void temporaryFilesAreNeverListed() throws IOException {
    FileSystemStore store = FileSystemStore.open(root);
    store.set("a/b", bytes("v"));
    Files.writeString(root.resolve("a/.b.0123.zarrow-tmp"), "torn");
    Files.writeString(root.resolve(".zarr.json.77.zarrow-tmp"), "torn");
    assertEquals(List.of("a/b"), store.list(""));
    assertEquals(List.of(), store.listDir("").keys());
    assertEquals(List.of("a/b"), store.listDir("a/").keys());
  }

  private static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }
}
