package dev.zarrow.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.NodePeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: zarrita's v3 codec name {@code zlib} ({@code {"level": n}}) is numcodecs' zlib: zarrow writes
 * and reads it under that name (the metadata keeps it), zarrita reads what zarrow wrote, and a copy to
 * Zarr v2 stores it as numcodecs' {@code {"id": "zlib"}}.
 */
@ExtendWith(AllocatorExtension.class)
class ZlibNameInteropTest {
  @TempDir Path dir;

  @Test
  void zarritaReadsZlibChunksZarrowWrites(BufferAllocator allocator) throws Exception {
    NamedConfig zlib = NamedConfig.of("zlib", JsonNodeFactory.instance.objectNode().put("level", 4));
    int n = 5 * 7;
    try (FileSystemStore store = FileSystemStore.open(dir); IntVector v = new IntVector("v", allocator)) {
      ZarrArray a = Zarr.createArray(store, "z", ArraySpec.of(FixedType.INT32, 5, 7).chunks(2, 3).compressors(List.of(zlib)));
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i * 37 - 500);
      }
      v.setValueCount(n);
      a.write(new long[] {0, 0}, new NdVector(v, new long[] {5, 7}));
      JsonNode written = Json.parse(Files.readAllBytes(dir.resolve("z/zarr.json")), "zarr.json");
      assertEquals(zlib.toJson(), written.get("codecs").get(1), "the name and configuration kept");
      try (NdVector back = Zarr.openArray(store, "z").read(allocator)) {
        for (int i = 0; i < n; i++) {
          assertEquals(i * 37 - 500, ((IntVector) back.vector()).get(i));
        }
      }
      assertEquals(Json.parse("{\"id\": \"zlib\", \"level\": 4}", "zlib"),
          V2Metadata.toZarray(V2Metadata.asV2(a.metadata())).get("compressor"), "as Zarr v2: numcodecs' zlib");
    }
    NodePeer.assumeAvailable();
    JsonNode read = NodePeer.zarritaRead(dir, "z").get("z");
    for (int i = 0; i < n; i++) {
      assertEquals(i * 37 - 500, read.get("values").get(i).asInt(), "zarrita reads element " + i);
    }
  }
}
