package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarrow check} over hostile chunks (a zstd frame claiming 10 GB, random bytes, a truncated
 * chunk): each is a problem naming its key and the exit is 3, never a crash (exit 1).
 */
class CheckHostileDataTest {
  @TempDir Path dir;

  @Test
  void hostileChunksAreReportedByKey() throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 4096).chunks(1024)
        .compressors(List.of(ArraySpec.zstd(1))));
    ByteBuffer bomb = ByteBuffer.allocate(17).order(ByteOrder.LITTLE_ENDIAN);
    bomb.putInt(0xFD2FB528).put((byte) 0xE0).putLong(10_000_000_000L);
    int block = 1 | (1 << 1) | ((128 << 10) << 3);
    bomb.put((byte) block).put((byte) (block >> 8)).put((byte) (block >> 16)).put((byte) 7);
    Files.createDirectories(dir.resolve("a/c"));
    Files.write(dir.resolve("a/c/0"), bomb.array());
    byte[] noise = new byte[3000];
    new Random(7).nextBytes(noise);
    Files.write(dir.resolve("a/c/1"), noise);
    byte[] truncated = new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x04};
    Files.write(dir.resolve("a/c/2"), truncated);

    Cli.Result r = Cli.run("check", dir);
    assertEquals(3, r.exit(), r.toString());
    JsonNode problems = Json.parse(r.out(), "check output").get("problems");
    Set<String> keys = new HashSet<>();
    problems.forEach(p -> keys.add(p.get("key").asText()));
    assertEquals(Set.of("a/c/0", "a/c/1", "a/c/2"), keys, r.toString());
    assertTrue(problems.get(0).get("error").asText().contains("10000000000"), problems.toString());
  }
}
