package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarrow info} and {@code zarrow ls}. */
@ExtendWith(AllocatorExtension.class)
class InfoLsCommandTest {
  @TempDir Path dir;

  /** / (group) with g/u (uint64 [10] in chunks of 4, 2 of 3 chunks stored) and g/h/e (empty int8 [2, 3]). */
  private void write(BufferAllocator allocator) {
    try (FileSystemStore store = FileSystemStore.open(dir); UInt8Vector v = new UInt8Vector("v", allocator)) {
      v.allocateNew(6);
      for (int i = 0; i < 6; i++) {
        v.set(i, i + 1);
      }
      v.setValueCount(6);
      Zarr.createArray(store, "g/u", ArraySpec.of(FixedType.UINT64, 10).chunks(4)
          .compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c()))).write(0, v);
      Zarr.createArray(store, "g/h/e", ArraySpec.of(FixedType.INT8, 2, 3).chunks(1, 3).compressors(List.of()));
    }
  }

  @Test
  void infoOfAnArray(BufferAllocator allocator) throws Exception {
    write(allocator);
    Cli.Result r = Cli.run("info", dir, "g/u");
    assertEquals(0, r.exit(), r.toString());
    JsonNode info = Json.parse(r.out(), "info");
    assertEquals("g/u", info.get("path").asText());
    assertEquals("array", info.get("node_type").asText());
    assertEquals(Json.parse(Files.readAllBytes(dir.resolve("g/u/zarr.json")), "zarr.json"), info.get("metadata"));
    long bytes = Files.size(dir.resolve("g/u/c/0")) + Files.size(dir.resolve("g/u/c/1"));
    assertEquals("{\"data_type\":\"uint64\",\"zarr_format\":3,\"grid_chunks\":3,\"stored_chunks\":2,\"stored_bytes\":" + bytes + ",\"ignored_keys\":0}",
        Json.compact(info.get("summary")));
  }

  @Test
  void infoOfAGroup(BufferAllocator allocator) throws Exception {
    write(allocator);
    Cli.Result r = Cli.run("info", dir);
    assertEquals(0, r.exit(), r.toString());
    JsonNode info = Json.parse(r.out(), "info");
    assertEquals("", info.get("path").asText());
    assertEquals("group", info.get("node_type").asText());
    assertEquals("[\"g\"]", Json.compact(info.get("summary").get("children")));
    // zarr.json of /, g, g/u, g/h, g/h/e and the two chunks
    assertEquals(7, info.get("summary").get("stored_keys").asInt());
  }

  @Test
  void lsTree(BufferAllocator allocator) {
    write(allocator);
    Cli.Result r = Cli.run("ls", dir);
    assertEquals(0, r.exit(), r.toString());
    List<String> lines = List.of(r.out().split("\n"));
    assertEquals(6, lines.size(), r.out());
    assertTrue(lines.get(0).matches("NAME +TYPE +SHAPE +CHUNKS +CODECS +STORED"), lines.get(0));
    assertEquals("/", lines.get(1).strip().split(" +")[0]);
    assertTrue(lines.get(2).matches("  g/ +group"), lines.get(2));
    assertTrue(lines.get(3).matches("    h/ +group"), lines.get(3));
    assertTrue(lines.get(4).matches("      e +int8 +\\[2,3] +\\[1,3] +bytes +0 of 2 chunks, 0 B"), lines.get(4));
    assertTrue(lines.get(5).matches("    u +uint64 +\\[10] +\\[4] +bytes zstd:3 crc32c +2 of 3 chunks, \\d+ B"), lines.get(5));
  }

  @Test
  void lsJsonAndBrokenNodes(BufferAllocator allocator) throws Exception {
    write(allocator);
    Files.writeString(dir.resolve("g/h/e/zarr.json"), "[]");
    Cli.Result r = Cli.run("ls", dir, "g", "--json");
    assertEquals(3, r.exit(), r.toString());
    assertEquals(2, r.errLines().size(), r.toString());
    assertTrue(r.errLines().get(0).startsWith("zarrow: g/h/e: ") && r.errLines().get(0).contains("g/h/e/zarr.json"), r.toString());
    assertEquals("zarrow: 1 node could not be read (each named above)", r.errLines().get(1));
    JsonNode list = Json.parse(r.out(), "ls");
    assertEquals(4, list.size());
    assertEquals("g/h/e", list.get(2).get("path").asText());
    assertTrue(list.get(2).get("error").asText().contains("g/h/e/zarr.json"), list.get(2).toString());
    JsonNode u = list.get(3);
    assertEquals("{\"path\":\"g/u\",\"node_type\":\"array\",\"data_type\":\"uint64\",\"shape\":[10],\"chunk_shape\":[4],"
        + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
        + "{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}},{\"name\":\"crc32c\"}],"
        + "\"grid_chunks\":3,\"stored_chunks\":2,\"stored_bytes\":" + u.get("stored_bytes").asLong() + "}", Json.compact(u));
  }
}
