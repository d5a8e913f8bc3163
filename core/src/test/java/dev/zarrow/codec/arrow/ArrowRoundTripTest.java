package dev.zarrow.codec.arrow;

import static dev.zarrow.testing.ArrowJsonFiles.text;
import static dev.zarrow.testing.ArrowJsonFiles.withAllocator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.ValueEquals;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Arrow JSON-integration file (the project's fixtures and Arrow's gold files) goes column by
 * column into Zarr arrays of the {@code arrow} data type ({@code arrow} + {@code crc32c} +
 * {@code zstd}, and the same inside {@code sharding_indexed}; chunks that cut across the file's
 * batches, so partial chunks are read, modified and written) and comes back equal: the same values and nulls, dictionaries decoded, and the field
 * JSON in {@code zarr.json} exactly {@code FieldJson.write} of the file's field.
 */
class ArrowRoundTripTest {
  @TempDir Path tmp;

  /** Gold cases whose types Arrow Java cannot carry: the data type refuses them (ArrowDataTypeTest). */
  static final List<String> REFUSED = List.of("decimal32", "decimal64");

  static List<NamedConfig> codecs() {
    return List.of(NamedConfig.of("arrow", null), ArraySpec.crc32c(), ArraySpec.zstd(3));
  }

  /** Shards of three inner chunks, each arrow + crc32c + zstd. */
  static List<NamedConfig> sharded(int inner) {
    return List.of(ArraySpec.shardingIndexed(new int[] {inner}, codecs()));
  }

  @TestFactory
  Stream<DynamicTest> fixtures() {
    return ArrowJsonFiles.fixtureFiles().stream()
        .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> roundTrip(f, 3)));
  }

  @TestFactory
  Stream<DynamicTest> golden() {
    return ArrowJsonFiles.goldenFiles().stream()
        .filter(f -> !REFUSED.contains(ArrowJsonFiles.caseName(f)))
        .map(f -> DynamicTest.dynamicTest(ArrowJsonFiles.caseName(f), () -> roundTrip(f, 4)));
  }

  private void roundTrip(Path file, int chunk) throws Exception {
    withAllocator(allocator -> {
      String name = file.getFileName().toString().replaceAll("\\..*", "");
      Path dir = Files.createDirectories(tmp.resolve(name));
      Path plain = file.toString().endsWith(".gz") ? ArrowJsonFiles.plain(file, dir) : file;
      JsonNode fieldsJson = ArrowJsonFiles.read(file).get("schema").get("fields");
      List<VectorSchemaRoot> batches = new ArrayList<>();
      try (JsonFileReader reader = new JsonFileReader(plain.toFile(), allocator)) {
        org.apache.arrow.vector.types.pojo.Schema memory = reader.start();
        for (VectorSchemaRoot b = ArrowJsonFiles.nextBatch(reader, memory, allocator); b != null;
            b = ArrowJsonFiles.nextBatch(reader, memory, allocator)) {
          batches.add(b);
        }
        for (int c = 0; c < fieldsJson.size(); c++) {
          Field stored = FieldJson.parse(fieldsJson.get(c));
          int column = c;
          column(dir.resolve("col" + c), stored, batches, b -> b.getFieldVectors().get(column),
              reader, new int[] {chunk}, codecs(), allocator);
          column(dir.resolve("sharded" + c), stored, batches, b -> b.getFieldVectors().get(column),
              reader, new int[] {3 * chunk}, sharded(chunk), allocator);
        }
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
    });
  }

  /** One column through a Zarr array and back. */
  static void column(Path dir, Field stored, List<VectorSchemaRoot> batches,
      Function<VectorSchemaRoot, FieldVector> pick, JsonFileReader reader, int[] chunks, List<NamedConfig> codecs,
      BufferAllocator allocator) {
    String context = "column '" + stored.getName() + "'";
    long rows = batches.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
    FileSystemStore store = FileSystemStore.open(dir);
    ArrowDataType type = ArrowDataType.of(stored);
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(type, rows).chunks(chunks).codecs(codecs));
    List<FieldVector> expected = new ArrayList<>();
    try {
      for (VectorSchemaRoot b : batches) {
        expected.add(decoded(pick.apply(b), stored, reader, allocator));
      }
      long offset = 0;
      for (FieldVector e : expected) {
        array.write(new Box(new long[] {offset}, new long[] {e.getValueCount()}), e, allocator); // null-type data has no allocator
        offset += e.getValueCount();
      }
      ZarrArray back = Zarr.openArray(store, "a");
      JsonNode zarrJson = Json.parse(store.get("a/zarr.json").orElseThrow(), "zarr.json");
      assertEquals(text(FieldJson.write(stored)), text(zarrJson.at("/data_type/configuration/field")),
          context + ": zarr.json keeps the field JSON exactly");
      assertEquals(type, back.dataType());
      offset = 0;
      for (FieldVector e : expected) {
        int n = e.getValueCount();
        try (NdVector got = back.read(new Box(new long[] {offset}, new long[] {n}), allocator)) {
          assertEqualVectors(e, got.vector(), context + " rows " + offset + ".." + (offset + n));
        }
        offset += n;
      }
      if (rows > 0) {
        try (NdVector all = back.read(allocator)) {
          assertEquals(rows, all.vector().getValueCount());
        }
      }
    } finally {
      expected.forEach(FieldVector::close);
    }
  }

  /**
   * The batch's column with its dictionaries decoded (by zarrow's decoder, checked here element by
   * element against a plain lookup of the file's dictionaries), or a copy when it has none.
   */
  static FieldVector decoded(FieldVector column, Field stored, JsonFileReader reader, BufferAllocator allocator) {
    Map<Long, FieldVector> dictionaries = new HashMap<>();
    for (long id : Dictionaries.valueFields(stored).keySet()) {
      dictionaries.put(id, reader.lookup(id).getVector());
    }
    FieldVector out = Dictionaries.decode(column, stored, dictionaries, allocator);
    if (Dictionaries.isEncoded(stored)) {
      for (int i = 0; i < column.getValueCount(); i++) {
        Object want = ExpectedValues.lookup(column, stored, reader, i);
        Object got = out.getObject(i);
        assertTrue(ExpectedValues.deepEquals(want, got),
            "decoded element " + i + " of '" + stored.getName() + "': expected " + want + ", got " + got);
      }
    }
    return out;
  }

  /** Same length, and every element equal (nulls included); field names may differ. */
  static void assertEqualVectors(FieldVector expected, FieldVector actual, String context) {
    assertEquals(expected.getValueCount(), actual.getValueCount(), context + ": length");
    assertTrue(dev.zarrow.vector.Fields.sameLayout(Dictionaries.decodedField(expected.getField()), actual.getField()),
        context + ": type " + actual.getField().getType());
    boolean equal = expected.getValueCount() == 0
        || new ValueEquals(expected, actual, (a, b) -> true)
            .rangeEquals(new Range(0, 0, expected.getValueCount()));
    if (!equal) {
      // Run-end encoded vectors compare by runs; equal values may be split into other runs.
      StringBuilder diff = new StringBuilder();
      for (int i = 0; i < expected.getValueCount() && diff.length() < 2000; i++) {
        if (!new ValueEquals(expected, actual, (a, b) -> true).rangeEquals(new Range(i, i, 1))) {
          diff.append("\n  [").append(i).append("] expected ").append(expected.getObject(i))
              .append(", got ").append(actual.getObject(i));
        }
      }
      if (diff.length() > 0) {
        throw new AssertionError(context + ": vectors differ" + diff);
      }
    }
  }
}
