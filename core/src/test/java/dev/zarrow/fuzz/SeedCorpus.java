package dev.zarrow.fuzz;

import dev.zarrow.testing.ProjectPaths;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdCompressCtx;
import com.scalableminds.bloscjava.Blosc;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.MemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the seed corpora of the fuzz targets into {@code src/test/resources}, deterministically, as
 * Jazzer's regression mode expects them ({@code <package>/<Class>Inputs/<method>/<file>}): stored
 * chunks encoded by each target's own pipeline, {@code zarr.json} documents of arrays and groups, and
 * the fields and schemas of the Arrow JSON fixtures. Files named {@code seed-*} are rewritten; crash
 * inputs that Jazzer adds next to them are kept.
 *
 * <p>Run from the project root after adding a target: {@code .ci/fuzz seeds}.
 */
public final class SeedCorpus {
  private static final Path RESOURCES = Path.of("src/test/resources/dev/zarrow/fuzz");

  /** The fixtures' batches hold NaN as a bare token; only their schemas are wanted here. */
  private static final ObjectMapper FIXTURES =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private SeedCorpus() {}

  public static void main(String[] args) throws IOException {
    numcodecs();
    if (args.length > 0 && args[0].equals("numcodecs")) {
      return;
    }
    Random random = new Random(20261122);
    for (ChunkTarget target : ChunkDecoderFuzzTest.TARGETS) {
      write("ChunkDecoderFuzzTest", target.name(), target.seeds(random));
    }
    write("ChunkDecoderFuzzTest", "zstdUnknownSize", zstdFrames(random));
    List<byte[]> blosc = ChunkDecoderFuzzTest.BLOSC.seeds(new Random(18));
    blosc.addAll(cBloscChunks(4096, new Random(18)));
    write("ChunkDecoderFuzzTest", "blosc", blosc);
    write("ChunkDecoderFuzzTest", "bloscUnknownSize", cBloscChunks(3000, new Random(19)));
    write("ChunkDecoderFuzzTest", "gzipUnknownSize", gzipStreams(random));
    Random numpy = new Random(19);
    for (ChunkTarget target : ChunkDecoderFuzzTest.NUMPY_TARGETS) {
      write("ChunkDecoderFuzzTest", target.name(), target.seeds(numpy));
    }
    write("MetadataFuzzTest", "zarrJson", metadata());
    List<byte[]> fields = new ArrayList<>();
    List<byte[]> schemas = new ArrayList<>();
    arrowFixtures(fields, schemas);
    write("FieldJsonFuzzTest", "field", fields);
    write("FieldJsonFuzzTest", "schema", schemas);
  }

  /**
   * The pipelines' own seeds of {@link NumcodecsFuzzTest} (its {@code numcodecs-*} seeds, numcodecs'
   * encodings, come from {@code numcodecs_codecs.py seeds}).
   */
  private static void numcodecs() throws IOException {
    Random random = new Random(19);
    for (ChunkTarget target : NumcodecsFuzzTest.TARGETS) {
      write("NumcodecsFuzzTest", target.name(), target.seeds(random));
    }
    write("NumcodecsFuzzTest", "lz4UnknownSize", List.of(
        java.util.HexFormat.of().parseHex("0f000000336162630300506263616263"), java.util.HexFormat.of().parseHex("0000000000")));
    write("NumcodecsFuzzTest", "bz2UnknownSize", List.of(java.util.HexFormat.of().parseHex(
        "425a68313141592653599e625bfe000002910040000244a000211460668291ef23470bb9229c28484f312dff00")));
  }

  /** Replaces the {@code seed-*} files of one target's corpus. */
  static void write(String testClass, String method, List<byte[]> seeds) throws IOException {
    Path dir = RESOURCES.resolve(testClass + "Inputs").resolve(method);
    Files.createDirectories(dir);
    try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "seed-*")) {
      for (Path p : old) {
        Files.delete(p);
      }
    }
    for (int i = 0; i < seeds.size(); i++) {
      Files.write(dir.resolve(String.format("seed-%02d", i)), seeds.get(i));
    }
    System.out.println(dir + ": " + seeds.size() + " seeds");
  }

  /**
   * Chunks of {@code size} bytes (smooth and noisy) as c-blosc writes them (blosc-java): every compressor
   * and shuffle, typesizes 2 and 4, split blocks and whole ones, one block and several, and copies.
   */
  private static List<byte[]> cBloscChunks(int size, Random random) {
    List<byte[]> out = new ArrayList<>();
    for (Blosc.Compressor c : Blosc.Compressor.values()) {
      for (Blosc.Shuffle s : Blosc.Shuffle.values()) {
        byte[] data = new byte[size];
        if (s == Blosc.Shuffle.NO_SHUFFLE) {
          random.nextBytes(data);
          for (int i = 0; i < size; i += 3) {
            data[i] = 0;
          }
        } else {
          for (int i = 0; i < size; i++) {
            data[i] = (byte) (i % 2 == 0 ? i / 37 : random.nextInt(3));
          }
        }
        int typesize = s == Blosc.Shuffle.BIT_SHUFFLE ? 4 : 2;
        out.add(Blosc.compress(data, typesize, c, 5, s, c == Blosc.Compressor.ZSTD ? 1024 : 0, 1));
      }
    }
    out.add(Blosc.compress(new byte[size], 2, Blosc.Compressor.LZ4, 0, Blosc.Shuffle.BYTE_SHUFFLE, 0, 1));
    return out;
  }

  private static List<byte[]> zstdFrames(Random random) {
    List<byte[]> out = new ArrayList<>();
    for (int size : new int[] {0, 100, 5000, 70000}) {
      byte[] data = new byte[size];
      for (int i = 0; i < size; i++) {
        data[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : i % 13);
      }
      for (boolean declared : new boolean[] {true, false}) {
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
          ctx.setLevel(3).setChecksum(size % 2 == 0).setContentSize(declared);
          out.add(ctx.compress(data));
        }
      }
    }
    // two frames in a row
    byte[] a = out.get(2);
    byte[] b = out.get(3);
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    out.add(both);
    return out;
  }

  private static List<byte[]> gzipStreams(Random random) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (int size : new int[] {0, 100, 5000, 70000}) {
      byte[] data = new byte[size];
      for (int i = 0; i < size; i++) {
        data[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : i % 13);
      }
      out.add(gzip(data));
    }
    byte[] a = out.get(1);
    byte[] b = out.get(2);
    byte[] members = new byte[a.length + b.length];
    System.arraycopy(a, 0, members, 0, a.length);
    System.arraycopy(b, 0, members, a.length, b.length);
    out.add(members);
    return out;
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(data);
    }
    return bytes.toByteArray();
  }

  private static List<byte[]> metadata() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    NamedConfig bigBytes = NamedConfig.of("bytes", f.objectNode().put("endian", "big"));
    NamedConfig transpose = NamedConfig.of("transpose", f.objectNode().set("order", f.arrayNode().add(1).add(0)));
    ObjectNode attrs = f.objectNode().put("title", "seed");
    attrs.set("nested", f.objectNode().set("list", f.arrayNode().add(1).add("two").addNull()));
    List<ArraySpec> specs = List.of(
        ArraySpec.of(FixedType.INT32, 100, 100).chunks(10, 10),
        ArraySpec.of(FixedType.FLOAT64, 7).chunks(3).fillValue(f.textNode("NaN")).compressors(List.of(ArraySpec.gzip(5))),
        ArraySpec.of(FixedType.UINT16, 4, 5).chunks(2, 2).codecs(List.of(transpose, bigBytes, ArraySpec.crc32c()))
            .dimensionNames(java.util.Arrays.asList("y", null)).attributes(attrs),
        ArraySpec.of(FixedType.BOOL, 9).chunks(4).fillValue(f.booleanNode(true)).compressors(List.of()),
        ArraySpec.of(FixedType.COMPLEX64, 3).chunks(2).fillValue(f.arrayNode().add("NaN").add(1.5))
            .keyEncoding(ChunkKeyEncoding.parse(NamedConfig.of("v2", f.objectNode().put("separator", ".")))),
        ArraySpec.of(FixedType.FLOAT16, 6).chunks(6).fillValue(f.textNode("0x7c00")),
        ArraySpec.of(FixedType.raw(24), 5).chunks(5).fillValue(f.arrayNode().add(1).add(2).add(3)),
        ArraySpec.of(FixedType.INT64).compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c())));
    List<byte[]> out = new ArrayList<>();
    for (ArraySpec spec : specs) {
      MemoryStore store = new MemoryStore();
      Zarr.createArray(store, "/", spec);
      out.add(ChunkTarget.bytes(store.get("zarr.json").orElseThrow()));
    }
    MemoryStore store = new MemoryStore();
    Zarr.createGroup(store, "/");
    out.add(ChunkTarget.bytes(store.get("zarr.json").orElseThrow()));
    ObjectNode group = f.objectNode().put("zarr_format", 3).put("node_type", "group");
    group.set("attributes", attrs);
    group.set("an_extension", f.objectNode().put("must_understand", false));
    out.add(Json.pretty(group));
    return out;
  }

  private static void arrowFixtures(List<byte[]> fields, List<byte[]> schemas) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(ProjectPaths.fixtures(), "*.json")) {
      List<Path> sorted = new ArrayList<>();
      files.forEach(sorted::add);
      sorted.sort(null);
      for (Path file : sorted) {
        JsonNode schema = FIXTURES.readTree(Files.readAllBytes(file)).get("schema");
        if (schema == null) {
          continue;
        }
        schemas.add(Json.compact(schema).getBytes(StandardCharsets.UTF_8));
        for (JsonNode field : schema.get("fields")) {
          fields.add(Json.compact(field).getBytes(StandardCharsets.UTF_8));
        }
      }
    }
  }

}
