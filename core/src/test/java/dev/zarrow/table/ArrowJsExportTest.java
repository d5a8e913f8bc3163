package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.ipc.IpcStreamWriter;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.NodePeer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-implementation: an IPC stream written by apache-arrow (npm) goes through {@link IpcReader} into
 * a group table and out through {@link TableReader} and {@link IpcStreamWriter}, and apache-arrow reads
 * the export back equal to what it wrote: the
 * schema (names, types, nullability, field and schema metadata, the dictionary) and every value.
 */
@ExtendWith(AllocatorExtension.class)
class ArrowJsExportTest {
  @TempDir Path tmp;

  @Test
  void apacheArrowReadsBackWhatItWrote(BufferAllocator allocator) throws Exception {
    NodePeer.assumeAvailable();
    Path written = tmp.resolve("js.arrows");
    JsonNode wrote = NodePeer.arrowWrite(written);
    for (int[] sizes : new int[][] {{5, 0}, {4, 3}, {64, 0}}) {
      MemoryStore store = new MemoryStore();
      ZarrGroup group;
      try (IpcReader reader = IpcReader.open(written, allocator)) {
        group = TableWriter.write(dev.zarrow.Zarr.createGroup(store, "js"), reader,
            TableOptions.defaults().withChunkRows(sizes[0]).withNativeTypes(sizes[1] != 3));
      }
      Path exported = tmp.resolve("back-" + sizes[0] + "-" + sizes[1] + ".arrows");
      try (ArrowReader reader = TableReader.of(group, allocator, null, sizes[1]);
          IpcStreamWriter writer = new IpcStreamWriter(reader, Files.newByteChannel(exported,
              java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE))) {
        writer.start();
        while (reader.loadNextBatch()) {
          writer.writeBatch();
        }
        writer.end();
      }
      JsonNode back = NodePeer.arrowRead(exported);
      String what = "chunks of " + sizes[0] + ", batchRows " + sizes[1];
      assertEquals("stream", back.get("format").asText(), what);
      assertEquals(wrote.get("schema"), back.get("schema"), what + ": schema");
      assertEquals(wrote.get("num_rows"), back.get("num_rows"), what + ": rows");
      assertEquals(wrote.get("columns"), back.get("columns"), what + ": values");
    }
  }
}
