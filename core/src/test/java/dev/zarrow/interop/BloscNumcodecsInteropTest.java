package dev.zarrow.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.codec.blosc.BloscCompressor;
import dev.zarrow.codec.blosc.BloscDecoder;
import dev.zarrow.codec.blosc.BloscEncoder;
import dev.zarrow.codec.blosc.BloscShuffle;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.Seeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * zarrow against numcodecs' Blosc (Debian's c-blosc 1.21.3) and zarr-python 2, through
 * {@code core/src/test/python/numcodecs_blosc.py}: chunks both ways over every compressor, shuffle,
 * element size and level, snappy refused by name, and whole arrays that zarr-python 2 wrote read equal.
 */
@ExtendWith(AllocatorExtension.class)
class BloscNumcodecsInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  @BeforeEach
  void peer() {
    PythonPeer.assumeAvailable();
  }

  private record Case(String id, BloscCompressor cname, int clevel, BloscShuffle shuffle, int typesize, byte[] data) {}

  /** Whole elements only (numcodecs takes the typesize from the buffer): empty to several blocks. */
  private static List<Case> matrix(List<BloscCompressor> compressors, Random random) {
    List<Case> cases = new ArrayList<>();
    for (BloscCompressor c : compressors) {
      for (int ts : new int[] {1, 2, 4, 8, 3}) {
        for (BloscShuffle s : BloscShuffle.values()) {
          for (int clevel : new int[] {0, 1, 5, 9}) {
            int block = BloscEncoder.chooseBlocksize(c, Math.max(1, clevel), ts, 64 << 20, 0);
            boolean slow = clevel == 9 && c != BloscCompressor.LZ4 && c != BloscCompressor.BLOSCLZ;
            List<Integer> elements = new ArrayList<>(List.of(0, 1, 31, 200, 3001));
            if (!slow || ts == 4) {
              elements.add((block * 5 / 2) / ts + 3);
            }
            for (int n : elements) {
              byte[] data = new byte[n * ts];
              if (random.nextBoolean()) {
                random.nextBytes(data);
              } else {
                for (int i = 0; i < data.length; i++) {
                  data[i] = (byte) (i % ts == 0 ? (i / ts) / 7 : (i % ts == 1 ? 3 : 0));
                }
              }
              cases.add(new Case("c" + cases.size(), c, clevel, s, ts, data));
            }
          }
        }
      }
    }
    return cases;
  }

  private static void writeManifest(Path dir, List<Case> cases) throws IOException {
    ArrayNode manifest = JSON.createArrayNode();
    for (Case c : cases) {
      manifest.addObject().put("id", c.id()).put("cname", c.cname().cname()).put("clevel", c.clevel())
          .put("shuffle", c.shuffle().code()).put("typesize", c.typesize()).put("blocksize", 0);
      Files.write(dir.resolve(c.id() + ".raw"), c.data());
    }
    Files.writeString(dir.resolve("manifest.json"), JSON.writeValueAsString(manifest));
  }

  @Test
  void readsWhatNumcodecsWrites(@TempDir Path dir) throws IOException {
    Random random = Seeds.random("blosc: numcodecs writes, zarrow reads");
    List<Case> cases = matrix(List.of(BloscCompressor.values()).stream().filter(BloscCompressor::decodable).toList(), random);
    writeManifest(dir, cases);
    JsonNode out = PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "compress", dir.toString());
    assertTrue(out.path("version").asText().startsWith("1."), "c-blosc 1.x: " + out);
    BloscDecoder decoder = new BloscDecoder();
    for (Case c : cases) {
      byte[] stored = Files.readAllBytes(dir.resolve(c.id() + ".blosc"));
      ByteBuffer decoded = decoder.decode(ByteBuffer.wrap(stored), c.data().length, Integer.MAX_VALUE, Runnable::run);
      assertArrayEquals(c.data(), bytes(decoded), c.toString());
    }
  }

  @Test
  void numcodecsReadsWhatZarrowWrites(@TempDir Path dir) throws IOException {
    Random random = Seeds.random("blosc: zarrow writes, numcodecs reads");
    List<Case> cases = matrix(List.of(BloscCompressor.values()).stream().filter(BloscCompressor::encodable).toList(), random);
    writeManifest(dir, cases);
    for (Case c : cases) {
      ByteBuffer encoded = new BloscEncoder(c.cname(), c.clevel(), c.shuffle(), c.typesize(), 0).encode(ByteBuffer.wrap(c.data()));
      Files.write(dir.resolve(c.id() + ".blosc"), bytes(encoded));
    }
    PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "decompress", dir.toString());
    for (Case c : cases) {
      assertArrayEquals(c.data(), Files.readAllBytes(dir.resolve(c.id() + ".out")), c.toString());
    }
  }

  /**
   * Issue 27: at every clevel, zarrow's BloscLZ chunks are within 10% of the size of numcodecs' (c-blosc
   * 1.21's own blosclz) on the same data (a smooth float field, counters, noise), and numcodecs decodes
   * them; the chunks byte-identical to c-blosc's are counted on stdout.
   */
  @Test
  void blosclzChunksAreAsSmallAsCBloscsAtEveryLevel(@TempDir Path dir) throws IOException {
    Random random = Seeds.random("blosc: blosclz sizes against numcodecs");
    List<Case> cases = new ArrayList<>();
    int n = 300_000;
    java.nio.ByteBuffer field = java.nio.ByteBuffer.allocate(4 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    java.nio.ByteBuffer counters = java.nio.ByteBuffer.allocate(8 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      field.putFloat((float) (280 + 10 * Math.sin(i / 300.0) + Math.cos(i / 7.0) + 0.01 * random.nextGaussian()));
      counters.putLong(i / 3 + (random.nextInt(50) == 0 ? random.nextInt(1000) : 0));
    }
    byte[] noise = new byte[200_000];
    random.nextBytes(noise);
    for (int clevel = 1; clevel <= 9; clevel++) {
      for (BloscShuffle s : BloscShuffle.values()) {
        cases.add(new Case("field" + clevel + s, BloscCompressor.BLOSCLZ, clevel, s, 4, field.array()));
        cases.add(new Case("counters" + clevel + s, BloscCompressor.BLOSCLZ, clevel, s, 8, counters.array()));
      }
      cases.add(new Case("noise" + clevel, BloscCompressor.BLOSCLZ, clevel, BloscShuffle.SHUFFLE, 2, noise));
    }
    writeManifest(dir, cases);
    PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "compress", dir.toString());
    List<String> over = new ArrayList<>();
    List<String> differ = new ArrayList<>();
    int identical = 0;
    for (Case c : cases) {
      byte[] ours = bytes(new BloscEncoder(c.cname(), c.clevel(), c.shuffle(), c.typesize(), 0).encode(ByteBuffer.wrap(c.data())));
      byte[] theirs = Files.readAllBytes(dir.resolve(c.id() + ".blosc"));
      if (java.util.Arrays.equals(ours, theirs)) {
        identical++;
      } else {
        differ.add(c.id() + " " + ours.length + "/" + theirs.length);
      }
      if (ours.length > theirs.length * 1.1) {
        over.add(c.id() + ": " + ours.length + " bytes, c-blosc " + theirs.length);
      }
      Files.write(dir.resolve(c.id() + ".blosc"), ours);
    }
    PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "decompress", dir.toString());
    for (Case c : cases) {
      assertArrayEquals(c.data(), Files.readAllBytes(dir.resolve(c.id() + ".out")), c.id() + ": numcodecs decodes zarrow's blosclz");
    }
    System.out.println("blosclz against numcodecs: " + identical + " of " + cases.size() + " chunks byte-identical; the others"
        + " (zarrow's size/c-blosc's): " + differ);
    assertEquals(List.of(), over, "chunks over 110% of c-blosc's size");
  }

  @Test
  void snappyChunksAreRefusedByName(@TempDir Path dir) throws IOException {
    byte[] data = new byte[4000];
    writeManifest(dir, List.of(new Case("snappy", BloscCompressor.SNAPPY, 5, BloscShuffle.SHUFFLE, 4, data)));
    PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "compress", dir.toString());
    byte[] stored = Files.readAllBytes(dir.resolve("snappy.blosc"));
    UnsupportedExtensionException e = assertThrows(UnsupportedExtensionException.class,
        () -> new BloscDecoder().decode(ByteBuffer.wrap(stored), 4000, 4000, Runnable::run));
    assertTrue(e.getMessage().contains("snappy"), e.getMessage());
  }

  /** Arrays zarr-python 2 wrote with numcodecs' Blosc, given a v3 zarr.json over the same chunks, read equal. */
  @Test
  void readsArraysZarrPythonWrote(@TempDir Path dir, BufferAllocator allocator) throws IOException {
    String[][] arrays = {
      // name, numpy dtype, zarr v3 type, cname, shuffle (numcodecs code), clevel
      {"temps", "<f4", "float32", "lz4", "1", "5"},
      {"counts", "<i2", "int16", "zstd", "2", "3"},
      {"bytes", "|u1", "uint8", "zlib", "0", "1"},
      {"wide", "<f8", "float64", "blosclz", "1", "9"},
      {"hc", "<u4", "uint32", "lz4hc", "2", "9"},
    };
    for (String[] a : arrays) {
      Path path = dir.resolve(a[0]);
      ObjectNode spec = JSON.createObjectNode();
      spec.putArray("shape").add(150).add(230);
      spec.putArray("chunks").add(64).add(100);
      spec.put("dtype", a[1]).put("cname", a[3]).put("shuffle", Integer.parseInt(a[4])).put("clevel", Integer.parseInt(a[5]))
          .put("seed", a[0].length());
      JsonNode written = PythonPeer.run(TIMEOUT, "numcodecs_blosc.py", "zarr2", path.toString(), spec.toString());
      writeV3Metadata(path, a[2], new long[] {150, 230}, new int[] {64, 100}, a[3], Integer.parseInt(a[5]),
          BloscShuffle.byCode(Integer.parseInt(a[4])).orElseThrow());
      try (FileSystemStore store = FileSystemStore.open(dir);
          NdVector read = Zarr.openArray(store, a[0]).read(allocator)) {
        FieldVector v = read.vector();
        JsonNode values = written.get("values");
        assertEquals(values.size(), v.getValueCount(), a[0]);
        for (int i = 0; i < values.size(); i++) {
          assertEquals(values.get(i).asDouble(), number(v, i), a[0] + " element " + i);
        }
      }
    }
    // A damaged chunk: the error names its key.
    Path chunk = dir.resolve("temps/1.2");
    byte[] stored = Files.readAllBytes(chunk);
    stored[16] ^= 0x55; // the first block offset
    Files.write(chunk, stored);
    try (FileSystemStore store = FileSystemStore.open(dir)) {
      ZarrArray temps = Zarr.openArray(store, "temps");
      CorruptChunkException e = assertThrows(CorruptChunkException.class, () -> temps.read(allocator).close());
      assertTrue(e.getMessage().contains("temps/1.2") && e.getMessage().contains("blosc"), e.getMessage());
    }
  }

  /**
   * A Zarr v3 {@code zarr.json} for the chunks of a zarr-python 2 array: v2 chunk keys, little-endian
   * bytes, then blosc as numcodecs wrote it.
   */
  static void writeV3Metadata(Path array, String dataType, long[] shape, int[] chunks, String cname, int clevel,
      BloscShuffle shuffle) throws IOException {
    ObjectNode m = JSON.createObjectNode();
    m.put("zarr_format", 3).put("node_type", "array");
    ArrayNode s = m.putArray("shape");
    Arrays.stream(shape).forEach(s::add);
    m.put("data_type", dataType);
    ObjectNode grid = m.putObject("chunk_grid").put("name", "regular");
    ArrayNode c = grid.putObject("configuration").putArray("chunk_shape");
    Arrays.stream(chunks).forEach(c::add);
    m.putObject("chunk_key_encoding").put("name", "v2").putObject("configuration").put("separator", ".");
    m.put("fill_value", 0);
    ArrayNode codecs = m.putArray("codecs");
    codecs.addObject().put("name", "bytes").putObject("configuration").put("endian", "little");
    codecs.addObject().put("name", "blosc").putObject("configuration").put("cname", cname).put("clevel", clevel)
        .put("shuffle", shuffle.configName()).put("blocksize", 0);
    m.putObject("attributes");
    Files.writeString(array.resolve("zarr.json"), JSON.writeValueAsString(m));
  }

  /** Element i as a number; unsigned types without their sign. */
  private static double number(FieldVector v, int i) {
    if (v instanceof org.apache.arrow.vector.UInt1Vector u) {
      return u.get(i) & 0xff;
    }
    if (v instanceof org.apache.arrow.vector.UInt4Vector u) {
      return u.get(i) & 0xffffffffL;
    }
    return ((Number) v.getObject(i)).doubleValue();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
