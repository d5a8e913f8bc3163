package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrow.Zarr;
import dev.zarrow.ZarrGroup;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.ipc.IpcStreamWriter;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.testing.HandStreams;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Imports and exports that fail half way release every byte of Arrow memory they took: a stream cut
 * after its first batches, garbage, a batch that declares LZ4 or lengths beyond its buffers after a
 * good one, 32-bit decimals; an export that meets a corrupt chunk after its first batch.
 */
@ExtendWith(AllocatorExtension.class)
class ImportExportErrorsTest {
  @TempDir Path tmp;

  @Test
  void aFailedImportReleasesEverything(BufferAllocator allocator) throws Exception {
    byte[] nested = HandStreams.nestedDictionaries(allocator);
    List<byte[]> inputs = List.of(
        Arrays.copyOf(nested, nested.length * 2 / 3),
        Arrays.copyOf(nested, nested.length - 20),
        "garbage, not Arrow".getBytes(),
        HandStreams.lz4MidStream(allocator),
        HandStreams.overlongMidStream(allocator),
        Files.readAllBytes(ArrowJsonFiles.goldenDir().resolve("generated_decimal32.stream")));
    for (byte[] input : inputs) {
      Path file = Files.write(Files.createTempFile(tmp, "in", ".arrows"), input);
      for (TableOptions options : List.of(TableOptions.defaults().withChunkRows(2),
          TableOptions.defaults().withChunkRows(2).withShardRows(4).withNativeTypes(false))) {
        try (FileSystemStore store = FileSystemStore.open(Files.createTempDirectory(tmp, "store"))) {
          ZarrGroup group = Zarr.createGroup(store, "t");
          assertThrows(ZarrException.class, () -> {
            try (IpcReader reader = IpcReader.open(file, allocator)) {
              TableWriter.write(group, reader, options);
            }
          }, input.length + " bytes");
          assertEquals(0, allocator.getAllocatedMemory(), input.length + " bytes, " + options + ": all released");
        }
      }
    }
  }

  @Test
  void aFailedExportReleasesEverything(BufferAllocator allocator) throws Exception {
    Path in = Files.write(tmp.resolve("nested.arrows"), HandStreams.nestedDictionaries(allocator));
    Path dir = tmp.resolve("store");
    try (FileSystemStore store = FileSystemStore.open(dir); IpcReader reader = IpcReader.open(in, allocator)) {
      TableWriter.write(Zarr.createGroup(store, "t"), reader, TableOptions.defaults().withChunkRows(4));
    }
    Path chunk;
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      // The last chunk of a column: export fails after its first batches.
      chunk = files.filter(p -> Files.isRegularFile(p) && !p.endsWith("zarr.json")).sorted().reduce((a, b) -> b).orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(chunk);
    bytes[bytes.length / 2] ^= 1;
    Files.write(chunk, bytes);
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      ZarrGroup group = Zarr.openGroup(store, "t");
      assertThrows(ZarrException.class, () -> {
        try (ArrowReader reader = TableReader.of(group, allocator, null, 2);
            IpcStreamWriter writer = new IpcStreamWriter(reader, Channels.newChannel(new ByteArrayOutputStream()))) {
          while (reader.loadNextBatch()) {
            writer.writeBatch();
          }
        }
      });
    }
    assertEquals(0, allocator.getAllocatedMemory(), "all released");
  }
}
