package dev.zarrow.codec.numcodecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ArrayToArrayCodec;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.Vectors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every numcodecs codec of this package against numcodecs 0.11 itself (Debian's python3-numcodecs,
 * through {@link PythonPeer}): what numcodecs encodes decodes in zarrow to what numcodecs decodes it to,
 * what zarrow encodes decodes in numcodecs to what zarrow decodes it to (for lossless codecs: the input),
 * and the numeric filters encode to numcodecs' bytes exactly (same arithmetic, same rounding).
 */
@ExtendWith(AllocatorExtension.class)
class NumcodecsPeerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** One case: the numcodecs config (with its id), the kind (bytes, array, vlen) and the input. */
  private record Case(String id, String kind, ObjectNode config, String dtype, byte[] raw, List<double[]> items) {}

  private static ObjectNode config(String id, Object... keyValues) {
    ObjectNode c = F.objectNode().put("id", id);
    for (int i = 0; i < keyValues.length; i += 2) {
      c.set((String) keyValues[i], JSON.valueToTree(keyValues[i + 1]));
    }
    return c;
  }

  /** The zarrow codec for a numcodecs config: {@code numcodecs.<id>} (but {@code vlen-array}), the rest as configuration. */
  static Codec codec(ObjectNode numcodecsConfig) {
    ObjectNode rest = numcodecsConfig.deepCopy();
    String id = rest.remove("id").asText();
    String name = id.equals("vlen-array") ? id : "numcodecs." + id;
    return Registry.defaults().codec(NamedConfig.of(name, rest), CodecOptions.DEFAULT);
  }

  /** Bytes to compress: empty, one element, smooth series and noise. */
  private static List<byte[]> byteInputs(Random random) {
    List<byte[]> out = new ArrayList<>();
    out.add(new byte[0]);
    out.add(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    byte[] smooth = new byte[100_000];
    for (int i = 0; i < smooth.length; i++) {
      smooth[i] = (byte) (Math.sin(i / 300.0) * 100 + (i % 7));
    }
    out.add(smooth);
    byte[] noise = new byte[1000];
    random.nextBytes(noise);
    out.add(noise);
    return out;
  }

  /** Little-endian bytes of {@code values} cast to {@code dtype}, through the codecs' own cast (numpy's). */
  private static byte[] raw(double[] values, String dtype, BufferAllocator allocator) {
    FixedType type = NumpyType.parse(dtype).type();
    try (FieldVector v = Lanes.fromDoubles(values, type, allocator)) {
      return Vectors.bytes(type, v);
    }
  }

  /** A smooth walk (amplitude {@code scale}), or integers spread over {@code scale} when {@code integers}. */
  private static double[] values(Random random, int n, double scale, boolean integers) {
    double[] v = new double[n];
    double x = 0;
    for (int i = 0; i < n; i++) {
      x += random.nextGaussian() * scale / 20;
      v[i] = integers ? Math.floor(random.nextDouble() * scale) - Math.floor(scale / 2) : x;
    }
    return v;
  }

  private List<Case> cases(BufferAllocator allocator) {
    Random random = new Random(19);
    List<Case> cases = new ArrayList<>();
    List<ObjectNode> compressors = List.of(
        config("zlib", "level", 1), config("zlib", "level", 9), config("lz4", "acceleration", 1),
        config("lz4", "acceleration", 10), config("bz2", "level", 1), config("bz2", "level", 9),
        config("shuffle", "elementsize", 2), config("shuffle", "elementsize", 4), config("shuffle", "elementsize", 8),
        config("gzip", "level", 5), config("zstd", "level", 3));
    for (ObjectNode c : compressors) {
      for (byte[] input : byteInputs(random)) {
        cases.add(new Case("c" + cases.size(), "bytes", c, null, input, null));
      }
    }
    record Filter(ObjectNode config, String dtype, double scale, boolean integers) {}
    List<Filter> filters = List.of(
        new Filter(config("delta", "dtype", "<i4", "astype", "<i4"), "<i4", 4e9, true),
        new Filter(config("delta", "dtype", "<i8", "astype", "<i2"), "<i8", 1e4, false),
        new Filter(config("delta", "dtype", "|u1", "astype", "|u1"), "|u1", 256, true),
        new Filter(config("delta", "dtype", "<u8", "astype", "<u8"), "<u8", 1e18, true),
        new Filter(config("delta", "dtype", "<f8", "astype", "<f8"), "<f8", 1e3, false),
        new Filter(config("delta", "dtype", "<f4", "astype", "<f4"), "<f4", 1e3, false),
        new Filter(config("delta", "dtype", "<f8", "astype", "<f4"), "<f8", 1e3, false),
        new Filter(config("delta", "dtype", "<i2", "astype", "<f8"), "<i2", 3e4, true),
        new Filter(config("fixedscaleoffset", "offset", 1000, "scale", 10, "dtype", "<f8", "astype", "<u2"), "<f8", 2000, false),
        new Filter(config("fixedscaleoffset", "offset", 0, "scale", 100, "dtype", "<f4", "astype", "<i2"), "<f4", 300, false),
        new Filter(config("fixedscaleoffset", "offset", 2.5, "scale", 3, "dtype", "<i4", "astype", "<i2"), "<i4", 2e4, true),
        new Filter(config("fixedscaleoffset", "offset", -1.25, "scale", 0.5, "dtype", "<f8", "astype", "<f8"), "<f8", 1e6, false),
        new Filter(config("quantize", "digits", 1, "dtype", "<f8", "astype", "<f8"), "<f8", 100, false),
        new Filter(config("quantize", "digits", 3, "dtype", "<f8", "astype", "<f4"), "<f8", 100, false),
        new Filter(config("quantize", "digits", 2, "dtype", "<f4", "astype", "<f4"), "<f4", 100, false),
        new Filter(config("quantize", "digits", 0, "dtype", "<f8", "astype", "<f8"), "<f8", 1e4, false),
        new Filter(config("astype", "encode_dtype", "<f4", "decode_dtype", "<f8"), "<f8", 1e6, false),
        new Filter(config("astype", "encode_dtype", "<i2", "decode_dtype", "<i4"), "<i4", 1e6, true),
        new Filter(config("astype", "encode_dtype", "<i4", "decode_dtype", "<f8"), "<f8", 1e6, false),
        new Filter(config("astype", "encode_dtype", "<f8", "decode_dtype", "<i4"), "<i4", 4e9, true),
        new Filter(config("astype", "encode_dtype", "|u1", "decode_dtype", "<i8"), "<i8", 1e4, true),
        new Filter(config("astype", "encode_dtype", "<f8", "decode_dtype", "<u8"), "<u8", 1.8e19, true),
        // issue 27: bitround, every float width, from no mantissa bit kept to all of them
        new Filter(config("bitround", "keepbits", 0), "<f4", 1e3, false),
        new Filter(config("bitround", "keepbits", 7), "<f4", 1e3, false),
        new Filter(config("bitround", "keepbits", 22), "<f4", 1e6, false),
        new Filter(config("bitround", "keepbits", 23), "<f4", 1e3, false),
        new Filter(config("bitround", "keepbits", 3), "<f2", 100, false),
        new Filter(config("bitround", "keepbits", 9), "<f2", 100, false),
        new Filter(config("bitround", "keepbits", 1), "<f8", 1e300, false),
        new Filter(config("bitround", "keepbits", 30), "<f8", 1e3, false),
        new Filter(config("bitround", "keepbits", 51), "<f8", 1e-300, false));
    for (Filter f : filters) {
      for (int n : new int[] {1, 7, 5000}) {
        cases.add(new Case("a" + cases.size(), "array", f.config, f.dtype, raw(values(random, n, f.scale, f.integers), f.dtype, allocator), null));
      }
    }
    for (String dtype : List.of("<i4", "<f8", ">f8", "|u1", "<i8", ">u2", "<f4", "|i1")) {
      List<double[]> items = new ArrayList<>();
      boolean unsigned = dtype.contains("u");
      for (int i = 0; i < 13; i++) {
        double[] item = new double[random.nextInt(4) == 0 ? 0 : random.nextInt(9)];
        for (int k = 0; k < item.length; k++) {
          item[k] = dtype.contains("f") ? random.nextGaussian() * 1e3 : unsigned ? random.nextInt(250) : random.nextInt(250) - 125;
        }
        if (dtype.contains("f4")) {
          for (int k = 0; k < item.length; k++) {
            item[k] = (float) item[k];
          }
        }
        items.add(item);
      }
      cases.add(new Case("v" + cases.size(), "vlen", config("vlen-array", "dtype", dtype), null, null, items));
    }
    return cases;
  }

  @Test
  void readsAndWritesWhatNumcodecsDoes(@TempDir Path dir, BufferAllocator allocator) throws IOException {
    PythonPeer.assumeAvailable();
    List<Case> cases = cases(allocator);
    ArrayNode manifest = F.arrayNode();
    for (Case c : cases) {
      ObjectNode m = manifest.addObject().put("id", c.id).put("kind", c.kind);
      m.set("config", c.config);
      if (c.dtype != null) {
        m.put("dtype", c.dtype);
      }
      Codec codec = codec(c.config);
      switch (c.kind) {
        case "bytes" -> {
          Files.write(dir.resolve(c.id + ".raw"), c.raw);
          Files.write(dir.resolve(c.id + ".zenc"), Vectors.toArray(((BytesToBytesCodec) codec).encode(ByteBuffer.wrap(c.raw))));
        }
        case "array" -> {
          Files.write(dir.resolve(c.id + ".raw"), c.raw);
          Files.write(dir.resolve(c.id + ".zenc"), encodeArray((ArrayToArrayCodec) codec, c, allocator));
        }
        default -> {
          ArrayNode items = m.putArray("items");
          c.items.forEach(item -> items.add(JSON.valueToTree(item)));
          try (FieldVector lists = lists(c, allocator)) {
            ArrayToBytesCodec vlen = (ArrayToBytesCodec) codec;
            Files.write(dir.resolve(c.id + ".zenc"), Vectors.toArray(vlen.encode(lists, vlenSpec(c), allocator)));
          }
        }
      }
    }
    Files.writeString(dir.resolve("manifest.json"), manifest.toString());
    JsonNode result = PythonPeer.run(Duration.ofMinutes(3), "numcodecs_codecs.py", "run", dir.toString());
    assertEquals("0.11", result.get("numcodecs").asText().substring(0, 4), "the numcodecs the tests are written for");

    for (Case c : cases) {
      String what = c.id + " " + c.config + (c.dtype == null ? "" : " on " + c.dtype);
      Codec codec = codec(c.config);
      byte[] enc = Files.readAllBytes(dir.resolve(c.id + ".enc"));
      byte[] zenc = Files.readAllBytes(dir.resolve(c.id + ".zenc"));
      switch (c.kind) {
        case "bytes" -> {
          BytesToBytesCodec b = (BytesToBytesCodec) codec;
          assertArrayEquals(c.raw, Vectors.toArray(b.decode(ByteBuffer.wrap(enc), -1, Integer.MAX_VALUE)), what + ": numcodecs' encoding read by zarrow");
          assertArrayEquals(c.raw, Vectors.toArray(b.decode(ByteBuffer.allocateDirect(enc.length).put(enc).flip(), c.raw.length, c.raw.length)),
              what + ": numcodecs' encoding read by zarrow, size known");
          if (c.raw.length == 0 && List.of("lz4", "zstd").contains(c.config.get("id").asText())) {
            // numcodecs 0.11 cannot decode an empty LZ4 or Zstd chunk, not even its own (the script writes nothing)
            assertEquals(false, Files.exists(dir.resolve(c.id + ".zdec")), what);
          } else {
            assertArrayEquals(c.raw, Files.readAllBytes(dir.resolve(c.id + ".zdec")), what + ": zarrow's encoding read by numcodecs");
          }
          if (c.config.get("id").asText().equals("shuffle")) {
            assertArrayEquals(enc, zenc, what + ": the same shuffled bytes");
          }
        }
        case "array" -> {
          ArrayToArrayCodec a = (ArrayToArrayCodec) codec;
          assertArrayEquals(enc, zenc, what + ": zarrow encodes numcodecs' bytes");
          assertArrayEquals(Files.readAllBytes(dir.resolve(c.id + ".rt")), decodeArray(a, c, enc, allocator),
              what + ": numcodecs' encoding decodes alike");
          assertArrayEquals(decodeArray(a, c, zenc, allocator), Files.readAllBytes(dir.resolve(c.id + ".zdec")),
              what + ": zarrow's encoding decodes alike in numcodecs");
        }
        default -> {
          JsonNode lists = result.get("lists").get(c.id);
          assertEquals(JSON.valueToTree(c.items).toString(), asDoubles(lists.get("zdec")), what + ": zarrow's encoding read by numcodecs");
          assertArrayEquals(enc, zenc, what + ": zarrow writes numcodecs' bytes");
          ArrayToBytesCodec vlen = (ArrayToBytesCodec) codec;
          try (FieldVector expected = lists(c, allocator);
              FieldVector got = vlen.decode(ByteBuffer.wrap(enc), vlenSpec(c), allocator)) {
            Vectors.assertSameValues(expected, got, what + ": numcodecs' encoding read by zarrow");
          }
        }
      }
    }
  }

  private static String asDoubles(JsonNode lists) {
    ArrayNode out = F.arrayNode();
    for (JsonNode list : lists) {
      ArrayNode l = out.addArray();
      list.forEach(x -> l.add(x.doubleValue()));
    }
    return out.toString();
  }

  private static ChunkSpec arraySpec(Case c) {
    FixedType t = NumpyType.parse(c.dtype).type();
    return new ChunkSpec(new int[] {c.raw.length / t.byteWidth()}, t, t.defaultFill());
  }

  private static byte[] encodeArray(ArrayToArrayCodec codec, Case c, BufferAllocator allocator) {
    ChunkSpec spec = arraySpec(c);
    FixedType to = (FixedType) codec.encodedSpec(spec).dataType();
    try (FieldVector in = Vectors.fromBytes((FixedType) spec.dataType(), c.raw, allocator);
        FieldVector out = codec.encode(in, spec, allocator)) {
      return Vectors.bytes(to, out);
    }
  }

  private static byte[] decodeArray(ArrayToArrayCodec codec, Case c, byte[] encoded, BufferAllocator allocator) {
    ChunkSpec spec = arraySpec(c);
    FixedType to = (FixedType) codec.encodedSpec(spec).dataType();
    try (FieldVector in = Vectors.fromBytes(to, encoded, allocator);
        FieldVector out = codec.decode(in, spec, allocator)) {
      return Vectors.bytes((FixedType) spec.dataType(), out);
    }
  }

  static ChunkSpec vlenSpec(Case c) {
    VlenArrayCodec codec = (VlenArrayCodec) codec(c.config);
    ArrowDataType type = ArrowDataType.of(codec.field());
    return new ChunkSpec(new int[] {c.items.size()}, type, type.defaultFill());
  }

  /** The items as a list vector of the codec's field. */
  private static FieldVector lists(Case c, BufferAllocator allocator) {
    VlenArrayCodec codec = (VlenArrayCodec) codec(c.config);
    FixedType t = NumpyType.parse(c.config.get("dtype").asText()).type();
    ListVector list = (ListVector) codec.field().createVector(allocator);
    int total = c.items.stream().mapToInt(i -> i.length).sum();
    double[] flat = new double[total];
    int at = 0;
    for (double[] item : c.items) {
      System.arraycopy(item, 0, flat, at, item.length);
      at += item.length;
    }
    try (FieldVector values = Lanes.fromDoubles(flat, t, allocator);
        ArrowBuf offsets = allocator.buffer(4L * (c.items.size() + 1))) {
      at = 0;
      offsets.setInt(0, 0);
      for (int i = 0; i < c.items.size(); i++) {
        at += c.items.get(i).length;
        offsets.setInt(4L * (i + 1), at);
      }
      list.loadFieldBuffers(new ArrowFieldNode(c.items.size(), 0), List.of(allocator.getEmpty(), offsets));
      ((FieldVector) list.getDataVector()).loadFieldBuffers(new ArrowFieldNode(total, 0), List.of(allocator.getEmpty(), values.getDataBuffer()));
      return list;
    }
  }
}
