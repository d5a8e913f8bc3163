package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
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
    assertEquals(3, summary.get("checksummed").asInt()); // a/crc
    assertEquals(2, summary.get("only_decoded").asInt()); // a/plain
    assertEquals(List.of("zarrow: check: 2 of 5 chunks have no checksum (no crc32c in their codecs): decoded, not verified"),
        r.errLines());
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
    assertEquals("zarrow: check found 1 problem", r.errLines().get(r.errLines().size() - 1));
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
    assertEquals("zarrow: check found 2 problems", r.errLines().get(r.errLines().size() - 1));
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
  void demoShardsAreVerifiedByChecksumsInTheirInnerChunks() throws Exception {
    Path store = dir.resolve("demo");
    assertEquals(0, Cli.run("demo", store).exit());
    Cli.Result clean = Cli.run("check", store);
    assertEquals(0, clean.exit(), clean.toString());
    JsonNode summary = Json.parse(clean.out(), "check output");
    assertEquals(summary.get("chunks").asLong(), summary.get("checksummed").asLong(), summary.toString());
    assertEquals(0, summary.get("only_decoded").asLong(), summary.toString());
    assertEquals("", clean.err());

    // A flipped byte in the first inner chunk of a shard (the index is at the end).
    Path shard = store.resolve("numbers/sharded/c/0/0");
    byte[] bytes = Files.readAllBytes(shard);
    bytes[2] ^= 0x10;
    Files.write(shard, bytes);
    Cli.Result r = Cli.run("check", store);
    assertEquals(3, r.exit(), r.toString());
    JsonNode problems = Json.parse(r.out(), "check output").get("problems");
    assertEquals(1, problems.size(), problems.toString());
    assertEquals("numbers/sharded/c/0/0", problems.get(0).get("key").asText());
    String error = problems.get(0).get("error").asText();
    assertTrue(error.contains("inner chunk [0, 0]") && error.toLowerCase().contains("checksum"), error);
  }

  @Test
  void chunksWithoutChecksumAreCountedAsOnlyDecoded(BufferAllocator allocator) throws Exception {
    write(allocator);
    try (FileSystemStore store = FileSystemStore.open(dir); IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(16);
      for (int i = 0; i < 16; i++) {
        v.set(i, i);
      }
      v.setValueCount(16);
      // Shards of 8 in chunks of 4: the index has crc32c, the inner chunks none.
      Zarr.createArray(store, "a/sharded", new Layout(new int[] {4}, null, List.of(ArraySpec.bytes("little")), null, null)
          .withShards(new int[] {8}).applyTo(ArraySpec.of(FixedType.INT32, 16).toMetadata()), ZarrOptions.defaults()).write(0, v);
    }
    Cli.Result r = Cli.run("check", dir);
    assertEquals(0, r.exit(), r.toString());
    JsonNode summary = Json.parse(r.out(), "check output");
    assertEquals(7, summary.get("chunks").asInt()); // 3 crc + 2 plain + 2 shards
    assertEquals(3, summary.get("checksummed").asInt(), summary.toString());
    assertEquals(4, summary.get("only_decoded").asInt(), summary.toString());
    assertEquals(List.of("zarrow: check: 4 of 7 chunks have no checksum (no crc32c in their codecs): decoded, not verified"),
        r.errLines());

    Cli.Result unverified = Cli.run("check", dir, "--no-verify-checksums");
    assertEquals(0, Json.parse(unverified.out(), "check output").get("checksummed").asInt(), unverified.toString());
    assertEquals(List.of("zarrow: check: 7 of 7 chunks decoded, their checksums not verified (--no-verify-checksums)"),
        unverified.errLines());
  }

  @Test
  void bloscChunksAreDecodedWithEveryCheck(BufferAllocator allocator) throws Exception {
    int n = 3 << 16; // three chunks of 64K float32s: blosc splits each into blocks of four streams
    try (FileSystemStore store = FileSystemStore.open(dir); Float4Vector v = new Float4Vector("v", allocator)) {
      v.allocateNew(n);
      java.util.Random random = new java.util.Random(29);
      for (int i = 0; i < n; i++) {
        v.set(i, Math.round(1500 + 800 * Math.sin(i / 1e4) + random.nextGaussian() * 300) / 100f);
      }
      v.setValueCount(n);
      for (String shuffle : List.of("shuffle", "noshuffle", "bitshuffle")) {
        Zarr.createArray(store, "b/" + shuffle, ArraySpec.of(FixedType.FLOAT32, n).chunks(1 << 16)
            .compressors(List.of(ArraySpec.blosc("lz4", 5, shuffle)))).write(0, v);
      }
    }
    Cli.Result clean = Cli.run("check", dir, "b");
    assertEquals(0, clean.exit(), clean.toString());
    assertEquals(9, Json.parse(clean.out(), "check output").get("only_decoded").asInt());
    for (String shuffle : List.of("shuffle", "noshuffle", "bitshuffle")) {
      // Chunk 0 loses its last byte; chunk 1's first stream declares more bytes than the chunk holds;
      // chunk 2 has garbage in place of the start of a compressed stream.
      Path c0 = dir.resolve("b/" + shuffle + "/c/0");
      byte[] b0 = Files.readAllBytes(c0);
      Files.write(c0, java.util.Arrays.copyOf(b0, b0.length - 1));
      Path c1 = dir.resolve("b/" + shuffle + "/c/1");
      ByteBuffer b1 = ByteBuffer.wrap(Files.readAllBytes(c1)).order(ByteOrder.LITTLE_ENDIAN);
      b1.putInt(b1.getInt(16), b1.capacity());
      Files.write(c1, b1.array());
      Path c2 = dir.resolve("b/" + shuffle + "/c/2");
      ByteBuffer b2 = ByteBuffer.wrap(Files.readAllBytes(c2)).order(ByteOrder.LITTLE_ENDIAN);
      int smallest = -1; // of the first four streams: compressed (a stream that does not compress is stored as is)
      for (int k = 0, at = b2.getInt(16); k < 4; k++, at += 4 + b2.getInt(at)) {
        if (smallest < 0 || b2.getInt(at) < b2.getInt(smallest)) {
          smallest = at;
        }
      }
      for (int i = smallest + 4; i < smallest + 20; i++) {
        b2.put(i, (byte) 0xff);
      }
      Files.write(c2, b2.array());
    }
    Cli.Result r = Cli.run("check", dir, "b");
    assertEquals(3, r.exit(), r.toString());
    JsonNode problems = Json.parse(r.out(), "check output").get("problems");
    assertEquals(9, problems.size(), r.out());
    for (JsonNode p : problems) {
      String key = p.get("key").asText();
      String error = p.get("error").asText();
      String expected = key.endsWith("/0") ? "cbytes" : key.endsWith("/1") ? "declares" : "is malformed";
      assertTrue(error.contains(expected), key + ": " + error);
    }
  }

  @Test
  void missingStartIsAnError() {
    Cli.Result r = Cli.run("check", dir, "nothing/here");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertEquals("", r.out());
  }
}
