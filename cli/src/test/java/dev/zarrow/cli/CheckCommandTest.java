package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarrow check}: a clean store, a flipped byte under crc32c, stray keys, broken metadata. */
@ExtendWith(AllocatorExtension.class)
class CheckCommandTest {
  @TempDir Path dir;

  /** Two arrays under a group: a/crc (int32 [10] in chunks of 4, crc32c) and a/plain ([6] in chunks of 3). */
  private void write(BufferAllocator allocator) {
    try (FileSystemStore store = FileSystemStore.open(dir); IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(10);
      for (int i = 0; i < 10; i++) {
        v.set(i, i + 1);
      }
      v.setValueCount(10);
      ZarrArray crc = Zarr.createArray(store, "a/crc", ArraySpec.of(FixedType.INT32, 10).chunks(4).compressors(List.of(ArraySpec.crc32c())));
      crc.write(0, v);
      v.setValueCount(6);
      Zarr.createArray(store, "a/plain", ArraySpec.of(FixedType.INT32, 6).chunks(3)).write(0, v);
    }
  }

  @Test
  void cleanStore(BufferAllocator allocator) throws Exception {
    write(allocator);
    Cli.Result r = Cli.run("check", dir);
    assertEquals(0, r.exit(), r.toString());
    JsonNode summary = Json.parse(r.out(), "check output");
    assertEquals(2, summary.get("arrays").asInt());
    assertEquals(5, summary.get("chunks").asInt()); // 3 + 2
    long bytes = 0;
    for (String key : List.of("a/crc/c/0", "a/crc/c/1", "a/crc/c/2", "a/plain/c/0", "a/plain/c/1")) {
      bytes += Files.size(dir.resolve(key));
    }
    assertEquals(bytes, summary.get("bytes").asLong());
    assertEquals(0, summary.get("problems").size());
    assertEquals(0, summary.get("ignored_keys").size());
    assertEquals("", r.err());
  }

  @Test
  void flippedByteInACrc32cArray(BufferAllocator allocator) throws Exception {
    write(allocator);
    Path chunk = dir.resolve("a/crc/c/1");
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[2] ^= 0x10; // a data byte, not the checksum: only the crc32c can notice
    Files.write(chunk, bytes);

    Cli.Result r = Cli.run("check", dir);
    assertEquals(3, r.exit(), r.toString());
    assertEquals(List.of("zarrow: check found 1 problem"), r.errLines());
    JsonNode summary = Json.parse(r.out(), "check output");
    assertEquals(5, summary.get("chunks").asInt());
    JsonNode problems = summary.get("problems");
    assertEquals(1, problems.size());
    assertEquals("a/crc/c/1", problems.get(0).get("key").asText());
    assertTrue(problems.get(0).get("error").asText().toLowerCase().contains("checksum"), problems.toString());

    // Only below the given path: the other array is fine.
    Cli.Result plain = Cli.run("check", dir, "a/plain");
    assertEquals(0, plain.exit(), plain.toString());
    assertEquals(1, Json.parse(plain.out(), "check output").get("arrays").asInt());

    // Without verification the flipped byte goes unnoticed (the option reaches the codecs).
    Cli.Result unverified = Cli.run("check", dir, "--no-verify-checksums");
    assertEquals(0, unverified.exit(), unverified.toString());
  }

  @Test
  void truncatedChunkAndBrokenMetadataAreProblems(BufferAllocator allocator) throws Exception {
    write(allocator);
    Files.write(dir.resolve("a/plain/c/0"), new byte[] {1, 2, 3});
    Files.writeString(dir.resolve("a/crc/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\"");
    Cli.Result r = Cli.run("check", dir);
    assertEquals(3, r.exit(), r.toString());
    JsonNode problems = Json.parse(r.out(), "check output").get("problems");
    assertEquals(2, problems.size(), problems.toString());
    assertEquals("a/crc/zarr.json", problems.get(0).get("key").asText());
    assertEquals("a/plain/c/0", problems.get(1).get("key").asText());
    assertEquals(List.of("zarrow: check found 2 problems"), r.errLines());
  }

  @Test
  void strayKeysAreListedNotProblems(BufferAllocator allocator) throws Exception {
    write(allocator);
    Files.writeString(dir.resolve("a/crc/c/7"), "outside the grid");
    Files.writeString(dir.resolve("a/crc/notes.txt"), "stray");
    Files.writeString(dir.resolve("a/crc/c/01"), "not canonical");
    Files.createDirectories(dir.resolve("a/nonode"));
    Files.writeString(dir.resolve("a/nonode/x"), "no zarr.json here");
    Files.writeString(dir.resolve("top.txt"), "beside the root's zarr.json");
    Cli.Result r = Cli.run("check", dir);
    assertEquals(0, r.exit(), r.toString());
    JsonNode ignored = Json.parse(r.out(), "check output").get("ignored_keys");
    assertEquals("[\"a/crc/c/01\",\"a/crc/c/7\",\"a/crc/notes.txt\",\"a/nonode/x\",\"top.txt\"]", Json.compact(ignored));
  }

  @Test
  void missingStartIsAnError() {
    Cli.Result r = Cli.run("check", dir, "nothing/here");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertEquals("", r.out());
  }
}
