package dev.zarrow.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.MemoryStore;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzzes Zarr v2's {@code .zarray}: parsing (dtype strings, structured types, order, separator, fill
 * values) and the filter chain it becomes (transpose, filters, serializer, compressor) bound to the
 * chunk shape. Whatever opens must write the same {@code .zarray} model back and code a chunk of its
 * fill value as {@link MetadataFuzzTest} checks. Corpus: {@code ZarrayFuzzTestInputs/zarray/}.
 */
class ZarrayFuzzTest {
  private static final BufferAllocator ALLOCATOR = new RootAllocator(Long.MAX_VALUE);

  @FuzzTest
  @DictionaryEntries({
    "\"zarr_format\"", "\"shape\"", "\"chunks\"", "\"dtype\"", "\"compressor\"", "\"fill_value\"",
    "\"order\"", "\"filters\"", "\"dimension_separator\"", "\"id\"", "\"blosc\"", "\"cname\"", "\"clevel\"",
    "\"shuffle\"", "\"blocksize\"", "\"gzip\"", "\"zstd\"", "\"level\"", "\"vlen-utf8\"", "\"vlen-bytes\"",
    "\"vlen-array\"", "\"delta\"", "\"<i4\"", "\">f8\"", "\"|b1\"", "\"|O\"", "\"<c16\"", "\"<M8[ns]\"", "\"|S5\"",
    "\"<U3\"", "\"|V2\"", "\"NaN\"", "\"-Infinity\"", "\"F\"", "\"C\"", "\"/\"", "\".\""
  })
  void zarray(byte[] input) {
    MemoryStore store = new MemoryStore();
    store.set("a/.zarray", ByteBuffer.wrap(input));
    try {
      ZarrArray array = Zarr.openArray(store, "a", ZarrOptions.defaults());
      ArrayMetadata metadata = array.metadata();
      MemoryStore rewritten = new MemoryStore();
      rewritten.set("a/.zarray", ByteBuffer.wrap(Json.pretty(V2Metadata.toZarray(metadata))));
      ArrayMetadata again = Zarr.openArray(rewritten, "a", ZarrOptions.defaults()).metadata();
      assertEquals(metadata, again, "the v2 metadata changes when written and read back");
      MetadataFuzzTest.checkArray(array, ALLOCATOR);
    } catch (ZarrException refused) {
      // the only acceptable failure
    }
    assertEquals(0, ALLOCATOR.getAllocatedMemory(), "Arrow memory leaked");
  }

  @AfterAll
  static void allocatorEmpty() {
    ALLOCATOR.close();
  }
}
