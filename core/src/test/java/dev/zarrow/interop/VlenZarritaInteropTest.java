package dev.zarrow.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.testing.Vectors;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.NdVector;
import dev.zarrow.codec.vlen.VlenInterleavedCodec;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.NodePeer;
import dev.zarrow.testing.PeerValues;
import dev.zarrow.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrita (which reads {@code string} + {@code vlen-utf8} but cannot write it) reads zarrow's string
 * arrays back equal: zarrow's defaults, other compressors, fill values with missing chunks, partial
 * writes, edge chunks, 0-d, every kind of character, and shards of strings once {@code sharding_indexed}
 * is registered. (zarrita -> zarrow for strings runs in
 * {@link ZarritaInteropTest} on its {@code hand/string*} arrays.)
 */
@ExtendWith(AllocatorExtension.class)
class VlenZarritaInteropTest {
  @TempDir Path dir;

  private static final String[] CHARACTERS = {"a", "Z", " ", "é", "ß", "ж", "€", "日本", "😀", "👍🏽", "𝄞", "\t", "\"", "\\", "\u0001"};

  private final Map<String, String[]> expected = new LinkedHashMap<>();

  @Test
  void zarritaReadsZarrowStrings(BufferAllocator allocator) {
    NodePeer.assumeAvailable();
    FileSystemStore store = FileSystemStore.open(dir);
    Random random = Seeds.random("zarrow strings -> zarrita");

    // zarrow's default codecs for string (vlen-utf8, zstd); random partial writes leave chunks missing.
    ZarrArray d1 = create(store, "strings/default_1d", ArraySpec.of(VarLenType.STRING, 23).chunks(5), "");
    for (int i = 0; i < 3; i++) {
      write(d1, Boxes.random(random, d1.shape()), random, allocator);
    }
    // 2-d with edge chunks, a non-empty fill value, no compression.
    ZarrArray d2 = create(store, "strings/2d_fill_na", ArraySpec.of(VarLenType.STRING, 5, 7).chunks(2, 3)
        .fillValue(TextNode.valueOf("NA")).codecs(List.of(VlenInterleavedCodec.metadata("vlen-utf8"))), "NA");
    write(d2, new Box(new long[] {0, 0}, new long[] {2, 3}), random, allocator);
    write(d2, new Box(new long[] {1, 2}, new long[] {4, 5}), random, allocator);
    // gzip and crc32c after the serializer.
    ZarrArray gz = create(store, "strings/gzip_crc32c", ArraySpec.of(VarLenType.STRING, 4, 4).chunks(3, 3)
        .codecs(List.of(VlenInterleavedCodec.metadata("vlen-utf8"), ArraySpec.gzip(6), ArraySpec.crc32c())), "");
    write(gz, Box.of(gz.shape()), random, allocator);
    // 0-d.
    ZarrArray d0 = create(store, "strings/d0", ArraySpec.of(VarLenType.STRING), "");
    write(d0, Box.of(d0.shape()), random, allocator);

    if (dev.zarrow.spi.Registry.defaults().codecNames().contains("sharding_indexed")) {
      // Shards of vlen-utf8 inner chunks (zarrita reads the index at the end only), one shard left missing.
      ZarrArray sharded = create(store, "strings/sharded", ArraySpec.of(VarLenType.STRING, 9, 10).chunks(4, 6)
          .codecs(List.of(sharding(new int[] {2, 3}, List.of(VlenInterleavedCodec.metadata("vlen-utf8"), ArraySpec.zstd(1))))), "");
      write(sharded, new Box(new long[] {0, 0}, new long[] {7, 6}), random, allocator);
      write(sharded, new Box(new long[] {1, 2}, new long[] {3, 7}), random, allocator);
      write(sharded, new Box(new long[] {8, 9}, new long[] {1, 1}), random, allocator);
    } else {
      System.err.println("SKIPPED cross-implementation test: zarrita reading sharded strings (no sharding_indexed codec yet)");
    }

    JsonNode read = NodePeer.zarritaReadKeepGoing(dir, expected.keySet().toArray(String[]::new));
    for (Map.Entry<String, String[]> e : expected.entrySet()) {
      JsonNode got = read.path(e.getKey());
      assertFalse(got.has("error"), "zarrita cannot read " + e.getKey() + ": " + got.path("error").asText());
      assertEquals("string", got.path("data_type").asText());
      ArrayNode values = JsonNodeFactory.instance.arrayNode();
      Arrays.stream(e.getValue()).forEach(values::add);
      PeerValues.assertSameValues(values, got.path("values"), e.getKey() + " read by zarrita");
      try (NdVector back = Zarr.openArray(store, e.getKey()).read(allocator)) {
        PeerValues.assertSameValues(values, PeerVectors.values(back.vector()), e.getKey() + " read back by zarrow");
      }
    }
  }

  /** {@code sharding_indexed} metadata with the index at the end ({@code bytes} little-endian + {@code crc32c}). */
  private static dev.zarrow.metadata.NamedConfig sharding(int[] inner, List<dev.zarrow.metadata.NamedConfig> codecs) {
    var config = JsonNodeFactory.instance.objectNode();
    var shape = config.putArray("chunk_shape");
    Arrays.stream(inner).forEach(shape::add);
    var list = config.putArray("codecs");
    codecs.forEach(c -> list.add(c.toJson()));
    var index = config.putArray("index_codecs");
    index.addObject().put("name", "bytes").putObject("configuration").put("endian", "little");
    index.addObject().put("name", "crc32c");
    config.put("index_location", "end");
    return dev.zarrow.metadata.NamedConfig.of("sharding_indexed", config);
  }

  private ZarrArray create(FileSystemStore store, String path, ArraySpec spec, String fill) {
    ZarrArray a = Zarr.createArray(store, path, spec);
    String[] values = new String[Math.toIntExact(a.size())];
    Arrays.fill(values, fill);
    expected.put(path, values);
    return a;
  }

  private void write(ZarrArray a, Box region, Random random, BufferAllocator allocator) {
    String[] values = new String[Math.toIntExact(region.size())];
    for (int i = 0; i < values.length; i++) {
      StringBuilder s = new StringBuilder();
      int n = random.nextInt(4) == 0 ? 0 : random.nextInt(8);
      for (int k = 0; k < n; k++) {
        s.append(CHARACTERS[random.nextInt(CHARACTERS.length)]);
      }
      values[i] = s.toString();
    }
    try (FieldVector data = Vectors.varLen(VarLenType.STRING, allocator, values)) {
      a.write(region, data);
    }
    String[] all = expected.get(a.path());
    List<Long> flats = new ArrayList<>();
    ZarritaInteropTest.forEach(region, a.shape(), (flat, inside) -> flats.add(flat));
    for (int i = 0; i < values.length; i++) {
      all[Math.toIntExact(flats.get(i))] = values[i];
    }
  }

}
