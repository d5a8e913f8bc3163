package dev.zarrow.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.NdVector;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.ConsolidatedStore;
import dev.zarrow.metadata.GroupMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.MemoryStore;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzzes {@code zarr.json}: parsing (JSON limits, array and group metadata) and opening the node it
 * describes (data type, fill value, chunk grid, key encoding, codec chain bound to the chunk shape).
 * Whatever opens must write the same metadata back, and an array with small chunks must encode and
 * decode a chunk of its fill value. Corpus: {@code MetadataFuzzTestInputs/zarrJson/}.
 */
class MetadataFuzzTest {
  private static final BufferAllocator ALLOCATOR = new RootAllocator(Long.MAX_VALUE);
  /** Larger chunks are opened but not coded: the fuzzer would spend its time on memset. */
  private static final int MAX_CODED_ELEMENTS = 1 << 12;

  @FuzzTest
  @DictionaryEntries({
    "\"zarr_format\"", "\"node_type\"", "\"array\"", "\"group\"", "\"shape\"", "\"data_type\"",
    "\"chunk_grid\"", "\"regular\"", "\"chunk_shape\"", "\"chunk_key_encoding\"", "\"default\"", "\"v2\"",
    "\"separator\"", "\"fill_value\"", "\"codecs\"", "\"name\"", "\"configuration\"", "\"bytes\"",
    "\"endian\"", "\"big\"", "\"transpose\"", "\"order\"", "\"gzip\"", "\"zstd\"", "\"level\"",
    "\"checksum\"", "\"crc32c\"", "\"attributes\"", "\"dimension_names\"", "\"storage_transformers\"",
    "\"must_understand\"", "\"NaN\"", "\"Infinity\"", "\"0x7fc00000\"", "\"float16\"", "\"complex128\"", "\"r24\""
  })
  void zarrJson(byte[] input) {
    MemoryStore store = new MemoryStore();
    store.set("zarr.json", ByteBuffer.wrap(input));
    try {
      ZarrNode node = Zarr.open(store, "/", ZarrOptions.defaults());
      if (node instanceof ZarrArray array) {
        checkArray(array, ALLOCATOR);
      } else {
        GroupMetadata metadata = ((ZarrGroup) node).metadata();
        assertEquals(metadata, GroupMetadata.parse(Json.parse(Json.pretty(metadata.toJson()), "again"), "again"));
      }
    } catch (ZarrException refused) {
      // the only acceptable failure
    }
    assertEquals(0, ALLOCATOR.getAllocatedMemory(), "Arrow memory leaked");
  }

  /**
   * Consolidated metadata (the input as the root's {@code zarr.json}, then as {@code .zmetadata}): read,
   * every group listed and every node opened through the view, or refused as a {@code ZarrException}.
   * Corpus: {@code MetadataFuzzTestInputs/consolidated/}.
   */
  @FuzzTest
  @DictionaryEntries({
    "\"consolidated_metadata\"", "\"kind\"", "\"inline\"", "\"metadata\"", "\"must_understand\"",
    "\"zarr_consolidated_format\"", "\".zarray\"", "\".zgroup\"", "\".zattrs\"", "\"zarr_format\"",
    "\"node_type\"", "\"array\"", "\"group\"", "/", "\"a/b\""
  })
  void consolidated(byte[] input) {
    for (String key : new String[] {"zarr.json", ConsolidatedMetadata.ZMETADATA}) {
      MemoryStore store = new MemoryStore();
      store.set(key, ByteBuffer.wrap(input));
      try {
        Optional<ConsolidatedStore> view = ConsolidatedStore.open(store, "");
        if (view.isEmpty()) {
          continue;
        }
        for (String path : view.get().metadata().nodePaths()) {
          if (view.get().metadata().isGroup(path)) {
            view.get().listDir(path.isEmpty() ? "" : path + "/");
          }
          try {
            Zarr.tryOpen(view.get(), path, ZarrOptions.defaults());
          } catch (ZarrException refused) {
            // a node's own metadata may be wrong: named, never a crash
          }
        }
      } catch (ZarrException refused) {
        // the only acceptable failure
      }
    }
  }

  /** Checks an opened array: v3 metadata written back unchanged, a chunk of its fill value coded. */
  static void checkArray(ZarrArray array, BufferAllocator allocator) {
    ArrayMetadata metadata = array.metadata();
    ArrayMetadata again = ArrayMetadata.parse(Json.parse(Json.pretty(metadata.toJson()), "again"), "again");
    assertEquals(metadata.toJson(), again.toJson(), "metadata changes when written and read back");
    if (array.pipeline().spec().size() > MAX_CODED_ELEMENTS) {
      return;
    }
    var spec = array.pipeline().spec();
    try (FieldVector fill = spec.dataType().filled(allocator, spec.size(), spec.fillValue());
        FieldVector decoded = array.pipeline().decode(ChunkTarget.copy(array.pipeline().encode(fill)), allocator)) {
      assertTrue(VectorEqualsVisitor.vectorEquals(fill, decoded), "a chunk of the fill value does not survive its codecs");
      assertTrue(spec.dataType().isAllFill(decoded, spec.fillValue()), "the fill value is not its own fill");
    }
    if (array.rank() > 0 && array.shape()[0] > 0 || array.rank() == 0) {
      long[] origin = new long[array.rank()];
      boolean empty = false;
      for (long s : array.shape()) {
        empty |= s == 0;
      }
      if (!empty) {
        try (NdVector chunk = array.readChunk(origin, allocator)) {
          assertTrue(spec.dataType().isAllFill(chunk.vector(), spec.fillValue()), "a missing chunk reads as other than the fill value");
        }
      }
    }
  }

  @AfterAll
  static void allocatorEmpty() {
    ALLOCATOR.close();
  }
}
