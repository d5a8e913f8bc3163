package dev.zarrow.cli;

import dev.zarrow.table.TableWriter;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.spi.Registry;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.vector.JsonValueWriter;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableReader;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow demo DIR}: writes a small real dataset into the store DIR, reads every array back,
 * compares it with what was written, checks the store, and says what it did. Every array has crc32c
 * (a shard in its inner chunks and its index), so that the check verifies every byte. Numbers always (1-d int64
 * and 2-d float32 with zstd and crc32c, the 2-d one transposed, with partial edge chunks); strings, an
 * Arrow struct column, a group table (TableWriter.write, then TableReader) and a sharded array when the
 * data types and codecs they need are in the registry
 * (skipped with a note otherwise, never an error).
 */
@Command(name = "demo", description = "Write, read back and check a small dataset (numbers, strings, a struct column, a group table, shards) in DIR.")
final class DemoCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "DIR", description = "The store to write (created when missing): a directory, a .zip archive, s3://BUCKET/PREFIX or memory:.")
  String dir;

  private static final List<String> WORDS =
      List.of("zarr", "arrow", "", "naïve", "日本語", "emoji 🙂", "chunk", "shard", "a \"quoted\" word", "tab\there", "end");

  @Override
  public Integer call() {
    ZarrOptions options = options();
    Registry registry = options.registry();
    out().println("zarrow demo: writing into " + dir);
    try (WritableStore store = openWritable(dir); BufferAllocator allocator = new RootAllocator()) {
      ObjectNode attributes = JsonNodeFactory.instance.objectNode().put("description", "written by zarrow demo");
      Zarr.createGroup(store, "", options).withAttributes(attributes);

      try (BigIntVector counts = new BigIntVector("counts", allocator)) {
        counts.allocateNew(1000);
        for (int i = 0; i < 1000; i++) {
          counts.set(i, (long) i * i - 500);
        }
        counts.setValueCount(1000);
        ArraySpec spec = ArraySpec.of(FixedType.INT64, 1000).chunks(128)
            .compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c()));
        roundTrip(store, "numbers/counts", spec, new NdVector(counts, new long[] {1000}), options, allocator);
      }

      try (Float4Vector grid = new Float4Vector("grid", allocator)) {
        int rows = 48;
        int cols = 64;
        grid.allocateNew(rows * cols);
        for (int i = 0; i < rows; i++) {
          for (int j = 0; j < cols; j++) {
            grid.set(i * cols + j, (float) (Math.sin(i / 7.0) * Math.cos(j / 5.0)));
          }
        }
        grid.setValueCount(rows * cols);
        ArraySpec spec = ArraySpec.of(FixedType.FLOAT32, rows, cols).chunks(20, 24)
            .arrayCodecs(List.of(CodecSpecs.parse(List.of("transpose:1,0")).get(0)))
            .compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c()));
        roundTrip(store, "numbers/grid", spec, new NdVector(grid, new long[] {rows, cols}), options, allocator);
      }

      if (registry.dataTypeNames().contains("string")) {
        DataType string = registry.dataType(NamedConfig.plain("string"));
        try (FieldVector words = string.field("words").createVector(allocator)) {
          if (words instanceof VariableWidthFieldVector v) {
            for (int i = 0; i < WORDS.size(); i++) {
              v.setSafe(i, WORDS.get(i).getBytes(StandardCharsets.UTF_8));
            }
            words.setValueCount(WORDS.size());
            ArraySpec spec = ArraySpec.of(string, WORDS.size()).chunks(4)
                .compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c()));
            roundTrip(store, "strings/words", spec, NdVector.of(words), options, allocator);
          } else {
            skipped("strings/words", "data type 'string' is a " + words.getMinorType() + " vector here, not variable-width text");
          }
        }
      } else {
        skipped("strings/words", "data type 'string' is not in the registry of this build");
      }

      if (registry.dataTypeNames().contains("arrow")) {
        structColumn(store, registry, options, allocator);
      } else {
        skipped("table/people", "data type 'arrow' is not in the registry of this build");
      }

      if (registry.dataTypeNames().contains("arrow") && registry.codecNames().contains(Layout.SHARDING)) {
        groupTable(store, options, allocator);
      } else {
        skipped("readings", "the arrow data type or sharding is not in the registry of this build");
      }

      if (registry.codecNames().contains(Layout.SHARDING)) {
        sharded(store, options, allocator);
      } else {
        skipped("numbers/sharded", "codec '" + Layout.SHARDING + "' is not in the registry of this build");
      }

      ObjectNode check = CheckCommand.run(store, "", options);
      int problems = check.get("problems").size();
      out().println("check: " + check.get("arrays").asLong() + " arrays, " + check.get("chunks").asLong() + " chunks ("
          + check.get("checksummed").asLong() + " verified by crc32c, " + check.get("only_decoded").asLong() + " only decoded), "
          + LsCommand.bytes(check.get("bytes").asLong()) + ", " + (problems == 0 ? "no problems" : problems + " problems"));
      if (problems > 0) {
        printJson(check);
        return Main.DATA_ERROR;
      }
    }
    String d = dir.toString();
    out().println("next: zarrow ls " + d + "   |   zarrow cat " + d + " numbers/grid --json --region 0:2,0:4   |   zarrow check " + d);
    return Main.OK;
  }

  /** An Arrow struct column with nulls, stored with the arrow data type. */
  private void structColumn(WritableStore store, Registry registry, ZarrOptions options, BufferAllocator allocator) {
    String field = """
        {"name": "people", "nullable": true, "type": {"name": "struct"}, "children": [
          {"name": "id", "nullable": false, "type": {"name": "int", "bitWidth": 32, "isSigned": true}, "children": []},
          {"name": "name", "nullable": true, "type": {"name": "utf8"}, "children": []},
          {"name": "score", "nullable": true, "type": {"name": "floatingpoint", "precision": "DOUBLE"}, "children": []}
        ]}""";
    ObjectNode config = JsonNodeFactory.instance.objectNode().put("version", "0.1.0");
    config.set("field", Json.parse(field, "the demo's struct field"));
    DataType type = registry.dataType(NamedConfig.of("arrow", config));
    String[] names = {"Ada", null, "Grace", "Linus", "Barbara", null, "Ken"};
    int n = names.length;
    try (FieldVector vector = type.field("people").createVector(allocator)) {
      if (!(vector instanceof StructVector people)
          || !(people.getChild("id") instanceof IntVector id)
          || !(people.getChild("name") instanceof VariableWidthFieldVector name)
          || !(people.getChild("score") instanceof Float8Vector score)) {
        skipped("table/people", "the arrow data type does not give a struct<id: int32, name: utf8, score: float64> vector");
        return;
      }
      people.allocateNew();
      for (int i = 0; i < n; i++) {
        if (i == 3) {
          people.setNull(i); // a missing row
          continue;
        }
        people.setIndexDefined(i);
        id.setSafe(i, 100 + i);
        if (names[i] != null) {
          name.setSafe(i, names[i].getBytes(StandardCharsets.UTF_8));
        }
        if (i % 3 != 2) {
          score.setSafe(i, i * 1.5);
        }
      }
      id.setValueCount(n);
      name.setValueCount(n);
      score.setValueCount(n);
      people.setValueCount(n);
      ArraySpec spec = ArraySpec.of(type, n).chunks(3).compressors(List.of(ArraySpec.zstd(3), ArraySpec.crc32c()));
      roundTrip(store, "table/people", spec, NdVector.of(vector), options, allocator);
    }
  }

  /**
   * An Arrow table written into the group {@code readings} (one array per column: native int64 and
   * string where the column allows, the arrow type for nullable floats and lists; sharded), then
   * streamed back with the group's table reader and compared batch by batch.
   */
  private void groupTable(WritableStore store, ZarrOptions options, BufferAllocator allocator) {
    int rows = 300;
    Field tags = new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
        List.of(Field.notNullable("item", ArrowType.Utf8.INSTANCE)));
    Schema schema = new Schema(List.of(
        Field.notNullable("time", new ArrowType.Int(64, true)),
        Field.notNullable("station", ArrowType.Utf8.INSTANCE),
        Field.nullable("temperature °C", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        tags));
    try (VectorSchemaRoot table = VectorSchemaRoot.create(schema, allocator)) {
      BigIntVector time = (BigIntVector) table.getVector(0);
      VarCharVector station = (VarCharVector) table.getVector(1);
      Float8Vector temperature = (Float8Vector) table.getVector(2);
      ListVector tagLists = (ListVector) table.getVector(3);
      UnionListWriter tagWriter = tagLists.getWriter();
      for (int i = 0; i < rows; i++) {
        time.setSafe(i, 1_700_000_000L + 600L * i);
        station.setSafe(i, WORDS.get(i % WORDS.size()).getBytes(StandardCharsets.UTF_8));
        if (i % 7 == 3) {
          temperature.setNull(i); // a sensor that did not report
        } else {
          temperature.setSafe(i, 12.5 + Math.sin(i / 10.0) * 8);
        }
        tagWriter.setPosition(i);
        if (i % 5 != 4) {
          tagWriter.startList();
          for (int t = 0; t < i % 3; t++) {
            byte[] tag = ("tag" + t).getBytes(StandardCharsets.UTF_8);
            try (ArrowBuf buf = allocator.buffer(tag.length)) {
              buf.setBytes(0, tag);
              tagWriter.varChar().writeVarChar(0, tag.length, buf);
            }
          }
          tagWriter.endList();
        }
      }
      table.setRowCount(rows);
      TableOptions tableOptions = TableOptions.defaults().withChunkRows(64).withShardRows(128);
      ZarrGroup group = TableWriter.write(Zarr.createGroup(store, "readings", options), table, tableOptions);
      int batches = 0;
      int offset = 0;
      try (TableReader reader = TableReader.of(Zarr.openGroup(store, "readings", options), allocator)) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        if (!batch.getSchema().equals(schema)) {
          throw new IllegalStateException("readings: the table reads back with schema " + batch.getSchema() + ", not " + schema);
        }
        while (reader.loadNextBatch()) {
          for (int c = 0; c < schema.getFields().size(); c++) {
            try (FieldVector want = slice(table.getVector(c), offset, batch.getRowCount(), allocator)) {
              String expected = json(want);
              String got = json(batch.getVector(c));
              if (!expected.equals(got)) {
                throw new IllegalStateException("readings: column '" + schema.getFields().get(c).getName() + "' rows from " + offset
                    + " read back differ: wrote " + abbreviate(expected) + ", read " + abbreviate(got));
              }
            }
          }
          offset += batch.getRowCount();
          batches++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (offset != rows) {
        throw new IllegalStateException("readings: " + offset + " rows read back, " + rows + " written");
      }
      StringBuilder columns = new StringBuilder();
      for (String name : group.childNames()) {
        ZarrArray column = group.array(name);
        columns.append(columns.length() == 0 ? "" : ", ").append(name).append(": ").append(column.dataType().name());
      }
      out().println("  readings: a table of " + rows + " rows written with TableWriter (" + columns
          + "; shards of 128 rows), read back equal in " + batches + " batches");
    }
  }

  private static FieldVector slice(FieldVector vector, int start, int length, BufferAllocator allocator) {
    TransferPair pair = vector.getTransferPair(allocator);
    pair.splitAndTransfer(start, length);
    return (FieldVector) pair.getTo();
  }

  /**
   * A 2-d int32 array in 32x32 shards of 8x8 chunks (zstd, crc32c; the index with crc32c), only partly
   * written (empty inner chunks and shards).
   */
  private void sharded(WritableStore store, ZarrOptions options, BufferAllocator allocator) {
    int side = 64;
    Layout layout = new Layout(new int[] {8, 8}, null,
        List.of(ArraySpec.bytes("little"), ArraySpec.zstd(3), ArraySpec.crc32c()),
        null, null).withShards(new int[] {32, 32});
    ArraySpec spec = ArraySpec.of(FixedType.INT32, side, side).chunks(32, 32).fillValue(JsonNodeFactory.instance.numberNode(-1));
    int filled = 40; // rows and columns 0..39 hold data; the rest stays the fill value
    try (IntVector values = new IntVector("sharded", allocator)) {
      values.allocateNew(filled * filled);
      for (int i = 0; i < filled * filled; i++) {
        values.set(i, i);
      }
      values.setValueCount(filled * filled);
      ZarrArray array = Zarr.createArray(store, "numbers/sharded", layout.applyTo(spec.toMetadata()), options);
      array.write(new long[] {0, 0}, new NdVector(values, new long[] {filled, filled}));
      verify(array, new Box(new long[] {0, 0}, new long[] {filled, filled}), values, allocator);
      try (NdVector empty = array.read(new Box(new long[] {filled, filled}, new long[] {side - filled, side - filled}), allocator)) {
        for (int i = 0; i < empty.vector().getValueCount(); i++) {
          if (((IntVector) empty.vector()).get(i) != -1) {
            throw new IllegalStateException("numbers/sharded: element " + i + " of the unwritten corner is not the fill value");
          }
        }
      }
      report(array, "read back equal; the unwritten corner reads as the fill value -1");
    }
  }

  private void roundTrip(WritableStore store, String path, ArraySpec spec, NdVector data, ZarrOptions options, BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(store, path, spec, options);
    array.write(new long[data.rank()], data);
    verify(Zarr.openArray(store, path, options), Box.of(data.shape()), data.vector(), allocator);
    report(array, "read back equal");
  }

  /** Reads {@code region} back and compares it with {@code expected}, value by value in their JSON form. */
  private static void verify(ZarrArray array, Box region, FieldVector expected, BufferAllocator allocator) {
    try (NdVector got = array.read(region, allocator)) {
      String want = json(expected);
      String have = json(got.vector());
      if (!want.equals(have)) {
        throw new IllegalStateException("array '" + array.path() + "' read back differs: wrote " + abbreviate(want) + ", read " + abbreviate(have));
      }
    }
  }

  private void report(ZarrArray array, String outcome) {
    StoredKeys keys = StoredKeys.of(array);
    Layout layout = Layout.of(array.metadata());
    out().println("  " + array.path() + ": " + array.dataType().name() + " " + java.util.Arrays.toString(array.shape())
        + ", codecs " + CodecSpecs.format(array.metadata().codecs()) + "; " + keys.chunks().size()
        + (layout.shards() != null ? " shards" : " chunks") + " stored (" + LsCommand.bytes(keys.chunkBytes(array.store())) + "); " + outcome);
  }

  private void skipped(String path, String why) {
    out().println("  " + path + ": skipped, " + why);
  }

  private static String json(FieldVector vector) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = Json.FACTORY.createGenerator(text)) {
      g.writeStartArray();
      new JsonValueWriter(g).writeAll(vector);
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 197) + "...";
  }
}
