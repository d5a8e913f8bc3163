package dev.zarrow.codec.arrow;

import static dev.zarrow.testing.ArrowJsonFiles.withAllocator;
import static dev.zarrow.codec.arrow.ArrowIpcCodecTest.assertMessage;
import static dev.zarrow.codec.arrow.ArrowIpcCodecTest.spec;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.error.ZarrException;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.grid.Box;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.compare.RangeEqualsVisitor;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged chunks: every truncation and random bit flips of chunks of every fixture type, and
 * streams built to break one rule each. Decoding must either succeed with a usable vector or
 * throw a {@link ZarrException}; nothing else may escape, nothing may leak.
 */
@ExtendWith(AllocatorExtension.class)
class ArrowIpcCorruptionTest {
  @TempDir Path tmp;

  /** A chunk of the codec's own making, with its spec. */
  record Sample(String name, ChunkSpec spec, byte[] bytes) {}

  /** The first batch of every column of every fixture, encoded by the arrow codec. */
  private List<Sample> samples() throws Exception {
    List<Sample> out = new ArrayList<>();
    for (Path file : ArrowJsonFiles.fixtureFiles()) {
      JsonNode fields = ArrowJsonFiles.read(file).get("schema").get("fields");
      withAllocator(allocator -> {
        try (JsonFileReader reader = new JsonFileReader(file.toFile(), allocator)) {
          reader.start();
          try (VectorSchemaRoot batch = reader.read()) {
            for (int c = 0; c < fields.size(); c++) {
              Field stored = FieldJson.parse(fields.get(c));
              ArrowDataType type = ArrowDataType.of(stored);
              ChunkSpec spec = spec(type, batch.getRowCount());
              try (FieldVector values = ArrowRoundTripTest.decoded(batch.getVector(c), stored, reader, allocator)) {
                byte[] bytes = IpcBytes.array(ArrowIpcCodec.arrow().encode(values, spec, allocator));
                out.add(new Sample(file.getFileName() + ":" + stored.getName(), spec, bytes));
              }
            }
          }
        }
      });
    }
    return out;
  }

  /** Decodes {@code bytes}; a success must give a vector zarrow can use. Returns whether it decoded. */
  private static boolean decodeOrRefuse(Sample s, byte[] bytes, BufferAllocator allocator, String what) {
    FieldVector v;
    try {
      v = ArrowIpcCodec.arrow().decode(IpcBytes.direct(bytes), s.spec, allocator);
    } catch (ZarrException expected) {
      return false;
    } catch (RuntimeException | Error e) {
      throw new AssertionError(s.name + ", " + what + ": " + e, e);
    }
    try (v) {
      int n = v.getValueCount();
      // Arrow Java 18 hashes 12-byte views as if they were out of line: not ours to test.
      if (!s.name.contains("view")) {
        for (int i = 0; i < n; i++) {
          v.hashCode(i);
        }
      }
      if (n > 0) {
        new RangeEqualsVisitor(v, v).rangeEquals(new Range(0, 0, n));
        try (FieldVector part = Regions.extract(v, new long[] {n}, new Box(new long[] {n / 2}, new long[] {n - n / 2}),
            allocator)) {
          ArrowIpcCodec.arrow().encode(v, s.spec, allocator);
          assertTrue(part.getValueCount() == n - n / 2);
        }
      }
    } catch (ZarrException e) {
      // e.g. a flipped bit made a null in a non-nullable field
    } catch (RuntimeException | Error e) {
      throw new AssertionError(s.name + ", " + what + ": decoded, then " + e, e);
    }
    return true;
  }

  @Test
  void everyTruncationIsRefused() throws Exception {
    for (Sample s : samples()) {
      withAllocator(allocator -> {
        for (int length = 0; length < s.bytes.length; length++) {
          byte[] cut = java.util.Arrays.copyOf(s.bytes, length);
          boolean decoded = decodeOrRefuse(s, cut, allocator, "truncated to " + length);
          // Only the end-of-stream marker may go missing.
          if (decoded && length != s.bytes.length - 8) {
            fail(s.name + ": truncated to " + length + " of " + s.bytes.length + " bytes still decodes");
          }
        }
      });
    }
  }

  @Test
  void bitFlipsGiveZarrExceptionsOnly() throws Exception {
    Random random = Seeds.random("arrow IPC bit flips");
    List<Sample> samples = samples();
    for (Sample s : samples) {
      withAllocator(allocator -> {
        for (int round = 0; round < Integer.getInteger("zarrow.arrow.flips", 80); round++) {
          byte[] bad = s.bytes.clone();
          int flips = 1 + random.nextInt(3);
          StringBuilder what = new StringBuilder("flipped");
          for (int f = 0; f < flips; f++) {
            int at = random.nextInt(bad.length);
            int bit = random.nextInt(8);
            bad[at] ^= (byte) (1 << bit);
            what.append(" byte ").append(at).append(" bit ").append(bit);
          }
          decodeOrRefuse(s, bad, allocator, what.toString());
        }
      });
    }
  }

  // ---- streams built to break one rule each (field: nullable int32, 2 rows) ----

  static final Field INT32 = ArrowIpcCodecTest.INT32;

  private static void refused(byte[] batch, String part, BufferAllocator allocator) {
    refused(INT32, 2, batch, part, allocator);
  }

  private static void refused(Field field, int rows, byte[] batch, String part, BufferAllocator allocator) {
    byte[] stream = IpcBytes.concat(IpcBytes.schema(field), batch, IpcBytes.eos());
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(field), rows),
        allocator).close(), part);
  }

  @Test
  void layoutErrors(BufferAllocator allocator) {
    byte[] body = IpcBytes.ints(7, 8);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 16}}, body), "lies outside the body", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {-8, 8}}, body), "lies outside the body", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, -1}}, body), "lies outside the body", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}, {2, 0}}, new long[][] {{0, 0}, {0, 8}}, body), "2 field nodes", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 8}}, body), "1 buffers", allocator);
    refused(IpcBytes.batch(2, new long[][] {{3, 0}}, new long[][] {{0, 0}, {0, 8}}, body), "its column 3", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 3}}, new long[][] {{0, 0}, {0, 8}}, body), "3 nulls", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 4}}, body), "the data buffer has 4 bytes", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 1}}, new long[][] {{0, 0}, {0, 8}}, body), "validity bitmap", allocator);
    refused(IpcBytes.batch(-1, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 8}}, body), "-1 rows", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 8}}, new long[] {1}, (byte) -1, body),
        "variadic", allocator);
    refused(IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 8}}, null, (byte) 1, body),
        "compressed buffer 1 declares", allocator);
  }

  @Test
  void offsetAndChildErrors(BufferAllocator allocator) {
    Field utf8 = new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    byte[] body = IpcBytes.concat(IpcBytes.ints(0, 2, 1, 0), new byte[] {'a', 'b', 'c', 0, 0, 0, 0, 0});
    long[][] buffers = {{0, 0}, {0, 12}, {16, 3}};
    refused(utf8, 2, IpcBytes.batch(2, new long[][] {{2, 0}}, buffers, body), "offsets decrease", allocator);
    byte[] beyond = IpcBytes.concat(IpcBytes.ints(0, 2, 9, 0), new byte[] {'a', 'b', 'c', 0, 0, 0, 0, 0});
    refused(utf8, 2, IpcBytes.batch(2, new long[][] {{2, 0}}, buffers, beyond), "offsets reach 9", allocator);
    byte[] negative = IpcBytes.concat(IpcBytes.ints(-4, 2, 3, 0), new byte[] {'a', 'b', 'c', 0, 0, 0, 0, 0});
    refused(utf8, 2, IpcBytes.batch(2, new long[][] {{2, 0}}, buffers, negative), "first offset is negative", allocator);
    // 64-bit offsets take a loop of their own: the same checks.
    Field large = new Field("s", FieldType.nullable(ArrowType.LargeUtf8.INSTANCE), null);
    long[][] largeBuffers = {{0, 0}, {0, 24}, {24, 3}};
    byte[] abc = {'a', 'b', 'c', 0, 0, 0, 0, 0};
    refused(large, 2, IpcBytes.batch(2, new long[][] {{2, 0}}, largeBuffers, IpcBytes.concat(IpcBytes.ints(0, 0, 2, 0, 1, 0), abc)),
        "offsets decrease at element 1 (2 then 1)", allocator);
    refused(large, 2, IpcBytes.batch(2, new long[][] {{2, 0}}, largeBuffers, IpcBytes.concat(IpcBytes.ints(0, 0, 2, 0, 9, 0), abc)),
        "offsets reach 9", allocator);

    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    byte[] listBody = IpcBytes.concat(IpcBytes.ints(0, 1, 3, 0), IpcBytes.ints(5, 6));
    refused(list, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {2, 0}}, new long[][] {{0, 0}, {0, 12}, {0, 0}, {16, 8}},
        listBody), "offsets reach 3 but there are 2 child elements", allocator);
    // A child claiming a billion elements without bitmap or data.
    Field struct = new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of());
    Field listOfStruct = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(struct));
    refused(listOfStruct, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {1_000_000_000, 0}},
        new long[][] {{0, 0}, {0, 12}, {0, 0}}, IpcBytes.ints(0, 1, 2, 0)), "without validity bitmaps", allocator);
  }

  @Test
  void unionAndDictionaryErrors(BufferAllocator allocator) {
    Field a = new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field b = new Field("b", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field sparse = new Field("u", FieldType.notNullable(new ArrowType.Union(
        org.apache.arrow.vector.types.UnionMode.Sparse, new int[] {5, 7})), List.of(a, b));
    byte[] sparseBody = IpcBytes.concat(new byte[] {5, 6, 0, 0, 0, 0, 0, 0}, IpcBytes.ints(1, 2), IpcBytes.ints(3, 4));
    refused(sparse, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {2, 0}, {2, 0}},
        new long[][] {{0, 2}, {0, 0}, {8, 8}, {0, 0}, {16, 8}}, sparseBody), "type id 6, not a member", allocator);

    Field dense = new Field("u", FieldType.notNullable(new ArrowType.Union(
        org.apache.arrow.vector.types.UnionMode.Dense, new int[] {5, 7})), List.of(a, b));
    byte[] denseBody = IpcBytes.concat(new byte[] {5, 7, 0, 0, 0, 0, 0, 0}, IpcBytes.ints(0, 1), IpcBytes.ints(1, 0),
        IpcBytes.ints(3, 0));
    refused(dense, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {1, 0}, {1, 0}},
        new long[][] {{0, 2}, {8, 8}, {0, 0}, {16, 4}, {0, 0}, {24, 4}}, denseBody), "points to element 1 of member 1",
        allocator);

    DictionaryEncoding encoding = new DictionaryEncoding(0, false, new ArrowType.Int(8, true));
    Field dict = new Field("d", new FieldType(true, ArrowType.Utf8.INSTANCE, encoding), null);
    byte[] dictionary = IpcBytes.dictionary(0, false, 1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 8}, {8, 1}},
        IpcBytes.concat(IpcBytes.ints(0, 1), new byte[] {'z'}));
    byte[] indices = IpcBytes.batch(2, new long[][] {{2, 0}}, new long[][] {{0, 0}, {0, 2}}, new byte[] {0, 4});
    byte[] stream = IpcBytes.concat(IpcBytes.schema(dict), dictionary, indices, IpcBytes.eos());
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(dict), 2), allocator),
        "dictionary index 4 at element 1 is outside dictionary 0 of 1 values");
    byte[] noDictionary = IpcBytes.concat(IpcBytes.schema(dict), indices, IpcBytes.eos());
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(noDictionary), spec(ArrowDataType.of(dict), 2),
        allocator), "no dictionary with id 0");
    byte[] unknownId = IpcBytes.concat(IpcBytes.schema(dict),
        IpcBytes.dictionary(9, false, 1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 8}, {8, 1}},
            IpcBytes.concat(IpcBytes.ints(0, 1), new byte[] {'z'})), indices, IpcBytes.eos());
    assertMessage(() -> ArrowIpcCodec.arrow().decode(IpcBytes.direct(unknownId), spec(ArrowDataType.of(dict), 2),
        allocator), "id 9, which the schema does not use");
  }

  @Test
  void runEndAndViewErrors(BufferAllocator allocator) {
    Field ends = new Field("run_ends", FieldType.notNullable(new ArrowType.Int(32, true)), null);
    Field values = new Field("values", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field ree = new Field("r", FieldType.nullable(ArrowType.RunEndEncoded.INSTANCE), List.of(ends, values));
    byte[] body = IpcBytes.concat(IpcBytes.ints(2, 1), IpcBytes.ints(10, 20));
    refused(ree, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {2, 0}, {2, 0}},
        new long[][] {{0, 0}, {0, 8}, {0, 0}, {8, 8}}, body), "run ends must increase", allocator);
    byte[] shortRuns = IpcBytes.concat(IpcBytes.ints(1, 0), IpcBytes.ints(10, 20));
    refused(ree, 2, IpcBytes.batch(2, new long[][] {{2, 0}, {1, 0}, {1, 0}},
        new long[][] {{0, 0}, {0, 4}, {0, 0}, {8, 4}}, shortRuns), "runs cover 1 of 2", allocator);

    Field view = new Field("v", FieldType.nullable(ArrowType.Utf8View.INSTANCE), null);
    java.nio.ByteBuffer views = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    views.putInt(20).put("abcd".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(0).putInt(0);
    byte[] viewBody = IpcBytes.concat(views.array(), new byte[16]);
    refused(view, 1, IpcBytes.batch(1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 16}, {16, 16}},
        new long[] {1}, (byte) -1, viewBody), "lies outside data buffer 0", allocator);
    refused(view, 1, IpcBytes.batch(1, new long[][] {{1, 0}}, new long[][] {{0, 0}, {0, 16}},
        new long[] {0}, (byte) -1, viewBody), "points to data buffer 0 of 0", allocator);
  }

  @Test
  void allocationBudget(BufferAllocator allocator) {
    // A million-row chunk of nulls is 125 000 bytes of bitmap: fine by default, refused under a lower limit.
    Field nulls = INT32;
    byte[] stream = IpcBytes.concat(IpcBytes.schema(nulls),
        IpcBytes.batch(1_000_000, new long[][] {{1_000_000, 1_000_000}}, new long[][] {{0, 0}, {0, 4_000_000}},
            new byte[4_000_000]), IpcBytes.eos());
    ArrowIpcCodec.arrow().decode(IpcBytes.direct(stream), spec(ArrowDataType.of(nulls), 1_000_000), allocator).close();
    ArrowIpcCodec tight = (ArrowIpcCodec) dev.zarrow.spi.Registry.defaults().codec(dev.zarrow.metadata.NamedConfig.of("arrow", null),
        dev.zarrow.codec.CodecOptions.DEFAULT.withMaxChunkBytes(100_000));
    assertMessage(() -> tight.decode(IpcBytes.direct(stream), spec(ArrowDataType.of(nulls), 1_000_000), allocator),
        "more than the limit of 100000");
  }
}
