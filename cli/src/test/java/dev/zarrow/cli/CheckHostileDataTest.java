package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
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

  /**
   * Variable-length and Arrow chunks: a vlen-utf8 chunk claiming four billion items and one cut short,
   * ZEP7 offsets pointing past the data, Arrow IPC streams with noise in them or cut short. Each is a
   * problem naming its key; the intact chunks are not.
   */
  @Test
  void hostileVlenAndArrowChunksAreReportedByKey() throws Exception {
    FileSystemStore store = FileSystemStore.open(dir);
    ZarrArray vlen = Zarr.createArray(store, "vlen", ArraySpec.of(VarLenType.STRING, 12).chunks(4));
    ZarrArray zep7 = Zarr.createArray(store, "zep7", ArraySpec.of(VarLenType.LARGE_STRING, 12).chunks(4));
    ZarrArray arrow = Zarr.createArray(store, "arrow", ArraySpec.of(
        ArrowDataType.of(Field.nullable("x", new ArrowType.Int(32, true))), 12).chunks(4));
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector strings = new VarCharVector("s", allocator);
        LargeVarCharVector large = new LargeVarCharVector("s", allocator);
        IntVector ints = new IntVector("x", allocator)) {
      strings.allocateNew(12);
      large.allocateNew(12);
      ints.allocateNew(12);
      for (int i = 0; i < 12; i++) {
        byte[] text = ("value " + i).getBytes(StandardCharsets.UTF_8);
        strings.setSafe(i, text);
        large.setSafe(i, text);
        if (i % 3 != 0) {
          ints.set(i, i);
        }
      }
      strings.setValueCount(12);
      large.setValueCount(12);
      ints.setValueCount(12);
      vlen.write(0, strings);
      zep7.write(0, large);
      arrow.write(0, ints);
    }
    overwrite(dir.resolve("vlen/c/0"), bytes -> {
      bytes[0] = bytes[1] = bytes[2] = bytes[3] = (byte) 0xFF; // item count 2^32 - 1
      return bytes;
    });
    overwrite(dir.resolve("vlen/c/1"), bytes -> Arrays.copyOf(bytes, bytes.length - 3));
    overwrite(dir.resolve("zep7/c/0"), bytes -> {
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(8, 1 << 20); // an offset past the data
      return bytes;
    });
    overwrite(dir.resolve("arrow/c/0"), bytes -> {
      byte[] noise = new byte[bytes.length / 2];
      new Random(11).nextBytes(noise);
      System.arraycopy(noise, 0, bytes, bytes.length / 4, noise.length);
      return bytes;
    });
    overwrite(dir.resolve("arrow/c/1"), bytes -> Arrays.copyOf(bytes, bytes.length / 2));

    Cli.Result r = Cli.run("check", dir);
    assertEquals(3, r.exit(), r.toString());
    JsonNode summary = Json.parse(r.out(), "check output");
    Set<String> keys = new HashSet<>();
    summary.get("problems").forEach(p -> keys.add(p.get("key").asText()));
    assertEquals(Set.of("vlen/c/0", "vlen/c/1", "zep7/c/0", "arrow/c/0", "arrow/c/1"), keys, r.toString());
    assertEquals(9, summary.get("chunks").asInt(), r.toString());
    assertFalse(r.err().contains("internal error"), r.toString());
  }

  private static void overwrite(Path file, UnaryOperator<byte[]> change) throws IOException {
    Files.write(file, change.apply(Files.readAllBytes(file)));
  }
}
