package dev.zarrow.metadata;

import dev.zarrow.testing.ArrowJsonFiles;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.JsonFileWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Builds the project's Arrow JSON-integration fixtures in Arrow Java and writes them with Arrow
 * Java's {@link JsonFileWriter} into {@code arrow-json-fixtures/}, one file per type family.
 *
 * <p>The fixtures are checked in; {@code FieldJsonFixturesTest} proves they are what this class
 * writes now, that Arrow Java reads them back to the vectors built here, and that {@link
 * FieldJson} reads their schemas. To regenerate after a change here:
 *
 * <pre>
 * mvn -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *   -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *   dev.zarrow.metadata.FixtureGenerator arrow-json-fixtures
 * </pre>
 */
public final class FixtureGenerator {
  /** Each fixture by file name (without {@code .json}), built on demand with an allocator. */
  static final Map<String, Function<BufferAllocator, Content>> FIXTURES = new LinkedHashMap<>();

  static {
    FIXTURES.put("primitives", FixtureGenerator::primitives);
    FIXTURES.put("strings_binary", FixtureGenerator::stringsBinary);
    FIXTURES.put("large_strings_binary", FixtureGenerator::largeStringsBinary);
    FIXTURES.put("fixedsizebinary", FixtureGenerator::fixedSizeBinary);
    FIXTURES.put("views", FixtureGenerator::views);
    FIXTURES.put("decimals", FixtureGenerator::decimals);
    FIXTURES.put("temporal", FixtureGenerator::temporal);
    FIXTURES.put("null", FixtureGenerator::nullType);
    FIXTURES.put("lists", FixtureGenerator::lists);
    FIXTURES.put("struct", FixtureGenerator::struct);
    FIXTURES.put("map", FixtureGenerator::map);
    FIXTURES.put("union_sparse", FixtureGenerator::unionSparse);
    FIXTURES.put("union_dense", FixtureGenerator::unionDense);
    FIXTURES.put("dictionary", FixtureGenerator::dictionary);
    FIXTURES.put("metadata", FixtureGenerator::metadata);
  }

  private FixtureGenerator() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "arrow-json-fixtures");
    Files.createDirectories(dir);
    try (BufferAllocator allocator = new RootAllocator()) {
      for (Map.Entry<String, Function<BufferAllocator, Content>> fixture : FIXTURES.entrySet()) {
        try (Content content = fixture.getValue().apply(allocator)) {
          content.write(dir.resolve(fixture.getKey() + ".json"));
        }
      }
    }
  }

  /** A fixture built in Arrow Java: its record batches (memory form) and their dictionaries. */
  static final class Content implements AutoCloseable {
    final Schema schema;
    final List<VectorSchemaRoot> batches = new ArrayList<>();
    final DictionaryProvider.MapDictionaryProvider dictionaries =
        new DictionaryProvider.MapDictionaryProvider();

    /** Set where Arrow Java's JsonFileWriter cannot write the types; see {@link #spell}. */
    private boolean spelledHere;

    Content(Schema schema) {
      this.schema = schema;
    }

    Content spelledHere() {
      spelledHere = true;
      return this;
    }

    /** Adds a batch of {@code rows} rows filled by {@code fill}. */
    Content batch(BufferAllocator allocator, int rows, BatchFiller fill) {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
      batches.add(root);
      try {
        // View vectors write into their buffers without growing them first.
        root.allocateNew();
        fill.fill(root);
        root.setRowCount(rows);
      } catch (RuntimeException e) {
        close();
        throw e;
      }
      return this;
    }

    void write(Path file) throws IOException {
      if (spelledHere) {
        spell(this, file);
        return;
      }
      try (JsonFileWriter writer =
          new JsonFileWriter(file.toFile(), JsonFileWriter.config().pretty(true))) {
        writer.start(schema, dictionaries);
        for (VectorSchemaRoot batch : batches) {
          writer.write(batch);
        }
      }
    }

    @Override
    public void close() {
      batches.forEach(VectorSchemaRoot::close);
      for (long id : dictionaries.getDictionaryIds()) {
        dictionaries.lookup(id).getVector().close();
      }
    }
  }

  /** Fills the vectors of one batch. */
  interface BatchFiller {
    void fill(VectorSchemaRoot root);
  }

  // ---------------------------------------------------------------------------------------------
  // The fixtures

  private static Content primitives(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("bool", ArrowType.Bool.INSTANCE),
                nullable("int8", new ArrowType.Int(8, true)),
                nullable("int16", new ArrowType.Int(16, true)),
                nullable("int32", new ArrowType.Int(32, true)),
                nullable("int64", new ArrowType.Int(64, true)),
                nullable("uint8", new ArrowType.Int(8, false)),
                nullable("uint16", new ArrowType.Int(16, false)),
                nullable("uint32", new ArrowType.Int(32, false)),
                nullable("uint64", new ArrowType.Int(64, false)),
                nullable("float32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                nullable("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                Field.notNullable("int32_required", new ArrowType.Int(32, true))));
    return new Content(schema)
        .batch(allocator, 8, root -> {
          set(root, "bool", true, false, null, true, false, true, null, false);
          set(root, "int8", Byte.MIN_VALUE, Byte.MAX_VALUE, null, 0, -1, 1, 42, null);
          set(root, "int16", Short.MIN_VALUE, Short.MAX_VALUE, null, 0, -1, 1, 4242, null);
          set(root, "int32", Integer.MIN_VALUE, Integer.MAX_VALUE, null, 0, -1, 1, 424242, null);
          set(root, "int64", Long.MIN_VALUE, Long.MAX_VALUE, null, 0L, -1L, 1L, 1L << 53, null);
          // Unsigned maxima as their two's-complement bit patterns.
          set(root, "uint8", 0, 0xFF, null, 1, 0x7F, 0x80, 200, null);
          set(root, "uint16", 0, 0xFFFF, null, 1, 0x7FFF, 0x8000, 60000, null);
          set(root, "uint32", 0, 0xFFFF_FFFFL, null, 1, 0x7FFF_FFFF, 0x8000_0000L, 4e9, null);
          set(root, "uint64", 0L, -1L, null, 1L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53, null);
          set(root, "float32", Float.NaN, -0.0f, Float.POSITIVE_INFINITY,
              Float.NEGATIVE_INFINITY, null, Float.MIN_VALUE, Float.MAX_VALUE, 0.1f);
          set(root, "float64", Double.NaN, -0.0, Double.POSITIVE_INFINITY,
              Double.NEGATIVE_INFINITY, null, Double.MIN_VALUE, Double.MAX_VALUE, 0.1);
          set(root, "int32_required", 0, 1, 2, 3, 4, 5, 6, 7);
        })
        .batch(allocator, 0, root -> { });
  }

  private static Content stringsBinary(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("utf8", ArrowType.Utf8.INSTANCE),
                nullable("binary", ArrowType.Binary.INSTANCE),
                Field.notNullable("utf8_required", ArrowType.Utf8.INSTANCE)));
    return new Content(schema)
        .batch(allocator, 7, root -> {
          set(root, "utf8", "", "a", null, "h\u00e9llo w\u00f6rld", "\u65e5\u672c\u8a9e",
              "\ud83d\ude00 emoji \ud83d\udc4d\ud83c\udffd", "a string longer than twelve bytes");
          set(root, "binary", new byte[0], new byte[] {0}, null, bytes(0xFF, 0xFE, 0x00, 0x7F),
              "text".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0x80}, new byte[32]);
          set(root, "utf8_required", "x", "", "y", "z", "", "\u0000", "end");
        })
        .batch(allocator, 2, root -> {
          set(root, "utf8", null, "second batch");
          set(root, "binary", bytes(1, 2, 3), null);
          set(root, "utf8_required", "", "\t\n\"\\");
        });
  }

  private static Content largeStringsBinary(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("largeutf8", ArrowType.LargeUtf8.INSTANCE),
                nullable("largebinary", ArrowType.LargeBinary.INSTANCE)));
    return new Content(schema)
        .spelledHere()
        .batch(allocator, 5, root -> {
          set(root, "largeutf8", "", null, "\u65e5\u672c\u8a9e",
              "\ud83d\ude00 emoji \ud83d\udc4d\ud83c\udffd", "a string longer than twelve bytes");
          set(root, "largebinary", new byte[0], null, bytes(0xFF, 0x00), new byte[] {0},
              "text".getBytes(StandardCharsets.UTF_8));
        })
        .batch(allocator, 0, root -> { });
  }

  private static Content views(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("utf8view", ArrowType.Utf8View.INSTANCE),
                nullable("binaryview", ArrowType.BinaryView.INSTANCE)));
    return new Content(schema)
        .batch(allocator, 5, root -> {
          set(root, "utf8view", "", "twelve bytes", null, "thirteen bytes",
              "\ud83d\ude00 a longer string that lives in a data buffer");
          set(root, "binaryview", new byte[0], null, new byte[12], new byte[13], bytes(0xFF));
        })
        // JsonFileWriter fails on a view batch whose values all fit inline (no data buffer).
        .batch(allocator, 2, root -> {
          set(root, "utf8view", "x", "second batch, out of line");
          set(root, "binaryview", null, new byte[20]);
        });
  }

  private static Content fixedSizeBinary(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("fsb3", new ArrowType.FixedSizeBinary(3)),
                nullable("fsb16", new ArrowType.FixedSizeBinary(16))));
    byte[] uuid = bytes(0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66,
        0x14, 0x17, 0x40, 0x00);
    return new Content(schema)
        .batch(allocator, 4, root -> {
          set(root, "fsb3", bytes(0, 0, 0), bytes(0xFF, 0xFF, 0xFF), null, bytes(1, 2, 3));
          set(root, "fsb16", uuid, null, new byte[16], uuid);
        })
        .batch(allocator, 1, root -> {
          set(root, "fsb3", (Object) null);
          set(root, "fsb16", (Object) new byte[16]);
        });
  }

  private static Content decimals(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("decimal_5_2", new ArrowType.Decimal(5, 2, 128)),
                nullable("decimal_38_10", new ArrowType.Decimal(38, 10, 128)),
                nullable("decimal_76_20", new ArrowType.Decimal(76, 20, 256)),
                nullable("decimal_10_0", new ArrowType.Decimal(10, 0, 256))));
    return new Content(schema)
        .batch(allocator, 5, root -> {
          set(root, "decimal_5_2", dec("999.99"), dec("-999.99"), dec("0.00"), null, dec("0.01"));
          set(root, "decimal_38_10", dec("9999999999999999999999999999.9999999999"),
              dec("-9999999999999999999999999999.9999999999"), dec("0E-10"), null,
              dec("1.0000000001"));
          set(root, "decimal_76_20",
              dec("99999999999999999999999999999999999999999999999999999999.99999999999999999999"),
              dec("-99999999999999999999999999999999999999999999999999999999.99999999999999999999"),
              dec("0E-20"), null, dec("-0.00000000000000000001"));
          set(root, "decimal_10_0", dec("9999999999"), dec("-9999999999"), dec("0"), null,
              dec("1"));
        })
        .batch(allocator, 1, root -> {
          set(root, "decimal_5_2", dec("1.50"));
          set(root, "decimal_38_10", (Object) null);
          set(root, "decimal_76_20", dec("3.14159265358979323846"));
          set(root, "decimal_10_0", dec("-1"));
        });
  }

  private static Content temporal(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("date_day", new ArrowType.Date(DateUnit.DAY)),
                nullable("date_ms", new ArrowType.Date(DateUnit.MILLISECOND)),
                nullable("time_s", new ArrowType.Time(TimeUnit.SECOND, 32)),
                nullable("time_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
                nullable("time_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
                nullable("time_ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
                nullable("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
                nullable("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                nullable("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
                nullable("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                nullable("ts_s_utc", new ArrowType.Timestamp(TimeUnit.SECOND, "UTC")),
                nullable("ts_ms_paris", new ArrowType.Timestamp(TimeUnit.MILLISECOND,
                    "Europe/Paris")),
                nullable("ts_us_offset", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "+05:30")),
                nullable("ts_ns_la", new ArrowType.Timestamp(TimeUnit.NANOSECOND,
                    "America/Los_Angeles")),
                nullable("duration_s", new ArrowType.Duration(TimeUnit.SECOND)),
                nullable("duration_ms", new ArrowType.Duration(TimeUnit.MILLISECOND)),
                nullable("duration_us", new ArrowType.Duration(TimeUnit.MICROSECOND)),
                nullable("duration_ns", new ArrowType.Duration(TimeUnit.NANOSECOND)),
                nullable("interval_ym", new ArrowType.Interval(IntervalUnit.YEAR_MONTH)),
                nullable("interval_dt", new ArrowType.Interval(IntervalUnit.DAY_TIME)),
                nullable("interval_mdn", new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO))));
    return new Content(schema)
        .batch(allocator, 4, root -> {
          set(root, "date_day", 0, -719162, null, 2932896);
          set(root, "date_ms", 0L, -62135596800000L, null, 253402214400000L);
          set(root, "time_s", 0, 86399, null, 43200);
          set(root, "time_ms", 0, 86399999, null, 1);
          set(root, "time_us", 0L, 86399999999L, null, 1L);
          set(root, "time_ns", 0L, 86399999999999L, null, 1L);
          for (String ts : List.of("ts_s", "ts_ms", "ts_us", "ts_ns", "ts_s_utc", "ts_ms_paris",
              "ts_us_offset", "ts_ns_la")) {
            set(root, ts, 0L, -1L, null, Long.MAX_VALUE);
          }
          for (String d : List.of("duration_s", "duration_ms", "duration_us", "duration_ns")) {
            set(root, d, 0L, Long.MIN_VALUE, null, Long.MAX_VALUE);
          }
          set(root, "interval_ym", 0, -13, null, Integer.MAX_VALUE);
          set(root, "interval_dt", new int[] {0, 0}, new int[] {-1, -86400000}, null,
              new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE});
          set(root, "interval_mdn", new long[] {0, 0, 0}, new long[] {-1, -2, -3}, null,
              new long[] {Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE});
        })
        .batch(allocator, 1, root -> {
          root.getFieldVectors().forEach(v -> v.setNull(0));
        });
  }

  private static Content nullType(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                nullable("null", ArrowType.Null.INSTANCE),
                nullable("int32", new ArrowType.Int(32, true)),
                // apache-arrow (JS) makes fields not nullable by default, null columns too: Arrow
                // says a null column's values are all null whatever the field says.
                Field.notNullable("null_required", ArrowType.Null.INSTANCE)));
    return new Content(schema)
        .batch(allocator, 3, root -> set(root, "int32", 1, null, 3))
        .batch(allocator, 0, root -> { });
  }

  private static Content lists(BufferAllocator allocator) {
    Field int32Item = nullable("item", new ArrowType.Int(32, true));
    Schema schema =
        new Schema(
            List.of(
                parent("list_int32", ArrowType.List.INSTANCE, int32Item),
                parent("largelist_int32", ArrowType.LargeList.INSTANCE, int32Item),
                parent("fixedsizelist_int16", new ArrowType.FixedSizeList(3),
                    nullable("item", new ArrowType.Int(16, true))),
                parent("list_list_utf8", ArrowType.List.INSTANCE,
                    parent("item", ArrowType.List.INSTANCE,
                        nullable("item", ArrowType.Utf8.INSTANCE)))));
    return new Content(schema)
        .batch(allocator, 5, root -> {
          set(root, "list_int32", List.of(1, 2, 3), List.of(), null, Arrays.asList(4, null, 6),
              List.of(Integer.MIN_VALUE));
          set(root, "largelist_int32", List.of(), List.of(7), Arrays.asList(null, null), null,
              List.of(8, 9, 10, 11));
          set(root, "fixedsizelist_int16", List.of(1, 2, 3), null, Arrays.asList(null, 5, null),
              List.of(-1, 0, 1), List.of(7, 8, 9));
          set(root, "list_list_utf8", List.of(List.of("a", "b"), List.of()), null, List.of(),
              Arrays.asList(null, Arrays.asList("c", null, "\u00e9")), List.of(List.of("")));
        })
        .batch(allocator, 2, root -> {
          set(root, "list_int32", null, List.of(0));
          set(root, "largelist_int32", List.of(1), List.of());
          set(root, "fixedsizelist_int16", List.of(0, 0, 0), null);
          set(root, "list_list_utf8", List.of(List.of("last")), null);
        });
  }

  private static Content struct(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                parent("struct", ArrowType.Struct.INSTANCE,
                    nullable("a", new ArrowType.Int(32, true)),
                    nullable("b", ArrowType.Utf8.INSTANCE),
                    parent("inner", ArrowType.Struct.INSTANCE,
                        nullable("c", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                        Field.notNullable("d", ArrowType.Bool.INSTANCE))),
                parent("struct_empty_names", ArrowType.Struct.INSTANCE,
                    nullable("", new ArrowType.Int(8, true)))));
    return new Content(schema)
        .batch(allocator, 4, root -> {
          set(root, "struct",
              row("a", 1, "b", "one", "inner", row("c", 1.5, "d", true)),
              null,
              row("a", null, "b", null, "inner", null),
              row("a", -1, "b", "", "inner", row("c", Double.NaN, "d", false)));
          set(root, "struct_empty_names", row("", 1), null, row("", null), row());
        })
        .batch(allocator, 1, root -> {
          set(root, "struct", row("a", 2, "b", "two", "inner", row("c", -0.0, "d", true)));
          set(root, "struct_empty_names", (Object) null);
        });
  }

  private static Content map(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                mapField("map_utf8_int32", false, ArrowType.Utf8.INSTANCE,
                    new ArrowType.Int(32, true)),
                mapField("map_sorted_int64_utf8", true, new ArrowType.Int(64, true),
                    ArrowType.Utf8.INSTANCE)));
    return new Content(schema)
        .batch(allocator, 4, root -> {
          set(root, "map_utf8_int32", entries("a", 1, "b", null), entries(), null,
              entries("\u00fc", -1));
          set(root, "map_sorted_int64_utf8", entries(1L, "x", 2L, "y", 3L, null), null,
              entries(), entries(Long.MIN_VALUE, ""));
        })
        .batch(allocator, 1, root -> {
          set(root, "map_utf8_int32", entries("k", 0));
          set(root, "map_sorted_int64_utf8", (Object) null);
        });
  }

  private static Content unionSparse(BufferAllocator allocator) {
    // Arrow Java's sparse union uses the minor type ordinals as type ids and names the members
    // after their minor type.
    Schema schema =
        new Schema(
            List.of(
                parent("sparse_union",
                    new ArrowType.Union(UnionMode.Sparse,
                        new int[] {MinorType.INT.ordinal(), MinorType.FLOAT8.ordinal()}),
                    nullable("int", new ArrowType.Int(32, true)),
                    nullable("float8",
                        new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))));
    return new Content(schema)
        .batch(allocator, 5, root -> {
          UnionVector sparse = (UnionVector) root.getVector("sparse_union");
          sparseInt(sparse, 0, 1);
          sparseFloat(sparse, 1, 2.5);
          sparseInt(sparse, 2, null);
          sparseFloat(sparse, 3, Double.NaN);
          sparseInt(sparse, 4, Integer.MIN_VALUE);
          sparse.getIntVector().setValueCount(5);
          sparse.getFloat8Vector().setValueCount(5);
        })
        .batch(allocator, 1, root -> {
          UnionVector sparse = (UnionVector) root.getVector("sparse_union");
          sparseFloat(sparse, 0, -0.0);
          sparse.getIntVector().setValueCount(1);
          sparse.getFloat8Vector().setValueCount(1);
        });
  }

  private static Content unionDense(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                parent("dense_union", new ArrowType.Union(UnionMode.Dense, new int[] {5, 7}),
                    nullable("i", new ArrowType.Int(32, true)),
                    nullable("s", ArrowType.Utf8.INSTANCE))));
    return new Content(schema)
        .spelledHere()
        .batch(allocator, 5, root -> {
          DenseUnionVector dense = (DenseUnionVector) root.getVector("dense_union");
          dense(dense, 0, (byte) 5, 0, 10);
          dense(dense, 1, (byte) 7, 0, "seven");
          dense(dense, 2, (byte) 7, 1, null);
          dense(dense, 3, (byte) 5, 1, null);
          dense(dense, 4, (byte) 5, 2, -10);
          dense.getVectorByType((byte) 5).setValueCount(3);
          dense.getVectorByType((byte) 7).setValueCount(2);
        })
        .batch(allocator, 1, root -> {
          DenseUnionVector dense = (DenseUnionVector) root.getVector("dense_union");
          dense(dense, 0, (byte) 7, 0, "");
          dense.getVectorByType((byte) 5).setValueCount(0);
          dense.getVectorByType((byte) 7).setValueCount(1);
        });
  }

  private static Content dictionary(BufferAllocator allocator) {
    DictionaryEncoding plain = new DictionaryEncoding(0, false, new ArrowType.Int(8, true));
    DictionaryEncoding ordered = new DictionaryEncoding(1, true, new ArrowType.Int(16, true));
    DictionaryEncoding unsigned = new DictionaryEncoding(2, false, new ArrowType.Int(8, false));
    Schema schema =
        new Schema(
            List.of(
                new Field("dict_utf8",
                    new FieldType(true, plain.getIndexType(), plain), null),
                parent("list_of_dict_utf8", ArrowType.List.INSTANCE,
                    new Field("item", new FieldType(true, ordered.getIndexType(), ordered), null)),
                new Field("dict_int64_unsigned_index",
                    new FieldType(false, unsigned.getIndexType(), unsigned), null)));
    Content content = new Content(schema);
    content.dictionaries.put(dictionaryOf(allocator, plain, true, ArrowType.Utf8.INSTANCE,
        "alpha", "beta", "\u03b3\u03ac\u03bc\u03bc\u03b1", "", null));
    content.dictionaries.put(dictionaryOf(allocator, ordered, true, ArrowType.Utf8.INSTANCE,
        "a", "b", "c"));
    content.dictionaries.put(dictionaryOf(allocator, unsigned, false, new ArrowType.Int(64, true),
        10L, -20L, Long.MAX_VALUE));
    return content
        .batch(allocator, 6, root -> {
          set(root, "dict_utf8", 0, 1, null, 3, 2, 4);
          set(root, "list_of_dict_utf8", List.of(0, 1), null, List.of(), Arrays.asList(2, null),
              List.of(2, 2, 2), List.of(0));
          set(root, "dict_int64_unsigned_index", 0, 1, 2, 2, 1, 0);
        })
        .batch(allocator, 2, root -> {
          set(root, "dict_utf8", null, 0);
          set(root, "list_of_dict_utf8", List.of(1), null);
          set(root, "dict_int64_unsigned_index", 2, 2);
        });
  }

  private static Content metadata(BufferAllocator allocator) {
    Map<String, String> fieldMetadata = new LinkedHashMap<>();
    fieldMetadata.put("units", "K");
    fieldMetadata.put("description", "temperature in \u00b0C");
    fieldMetadata.put("", "an empty key");
    fieldMetadata.put("empty", "");
    Map<String, String> extension = new LinkedHashMap<>();
    extension.put("ARROW:extension:name", "zarrow.test.unregistered");
    extension.put("ARROW:extension:metadata", "{\"version\":1}");
    Map<String, String> childMetadata = Map.of("child", "\ud83e\uddea");
    Map<String, String> schemaMetadata = new LinkedHashMap<>();
    schemaMetadata.put("zarrow", "fixture");
    schemaMetadata.put("pandas", "{\"index_columns\": []}");
    schemaMetadata.put("z-last-but-first", "order");
    Schema schema =
        new Schema(
            List.of(
                new Field("with_metadata", OrderedMetadata.fieldType(true,
                    new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), null,
                    fieldMetadata), null),
                new Field("extension_storage", OrderedMetadata.fieldType(true,
                    new ArrowType.FixedSizeBinary(4), null, extension), null),
                new Field("struct", FieldType.nullable(ArrowType.Struct.INSTANCE),
                    List.of(new Field("child", OrderedMetadata.fieldType(true,
                        new ArrowType.Int(32, true), null, childMetadata), null)))),
            schemaMetadata);
    return new Content(schema)
        .batch(allocator, 2, root -> {
          set(root, "with_metadata", 273.15, null);
          set(root, "extension_storage", bytes(1, 2, 3, 4), null);
          set(root, "struct", row("child", 1), null);
        })
        .batch(allocator, 1, root -> {
          set(root, "with_metadata", -40.0);
          set(root, "extension_storage", (Object) new byte[4]);
          set(root, "struct", row("child", null));
        });
  }

  // ---------------------------------------------------------------------------------------------
  // What JsonFileWriter cannot write

  /**
   * Spells a fixture in the integration format where Arrow Java 18's JsonFileWriter cannot: it has
   * no DATA case for large strings and binaries and no OFFSET case for dense unions. The schema is
   * {@link FieldJson}'s canonical spelling and the buffers follow Arrow's Integration.rst (64-bit
   * offsets as strings, binary as upper-case hex). Only the vector kinds these fixtures use are
   * covered; the fixture test proves Arrow Java's JsonFileReader reads the result back to the
   * vectors built here.
   */
  private static void spell(Content content, Path file) throws IOException {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.set("schema", FieldJson.writeSchema(content.schema));
    ArrayNode batches = root.putArray("batches");
    for (VectorSchemaRoot batch : content.batches) {
      ObjectNode spelled = batches.addObject().put("count", batch.getRowCount());
      ArrayNode columns = spelled.putArray("columns");
      for (FieldVector vector : batch.getFieldVectors()) {
        columns.add(column(vector));
      }
    }
    // Laid out like JsonFileWriter's pretty output, so all fixtures read alike.
    DefaultPrettyPrinter layout =
        new DefaultPrettyPrinter().withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance);
    ArrowJsonFiles.MAPPER.writer(layout).writeValue(file.toFile(), root);
  }

  private static ObjectNode column(FieldVector vector) {
    int count = vector.getValueCount();
    ObjectNode column =
        JsonNodeFactory.instance.objectNode().put("name", vector.getName()).put("count", count);
    if (vector instanceof DenseUnionVector) {
      DenseUnionVector union = (DenseUnionVector) vector;
      ArrayNode typeIds = column.putArray("TYPE_ID");
      ArrayNode offsets = column.putArray("OFFSET");
      for (int i = 0; i < count; i++) {
        typeIds.add(union.getTypeId(i));
        offsets.add(union.getOffset(i));
      }
      ArrayNode children = column.putArray("children");
      for (FieldVector child : union.getChildrenFromFields()) {
        children.add(column(child));
      }
      return column;
    }
    ArrayNode validity = column.putArray("VALIDITY");
    for (int i = 0; i < count; i++) {
      validity.add(vector.isNull(i) ? 0 : 1);
    }
    if (vector instanceof IntVector) {
      ArrayNode data = column.putArray("DATA");
      for (int i = 0; i < count; i++) {
        data.add(vector.getDataBuffer().getInt(4L * i));
      }
    } else if (vector instanceof BaseVariableWidthVector
        || vector instanceof BaseLargeVariableWidthVector) {
      boolean large = vector instanceof BaseLargeVariableWidthVector;
      boolean text = vector.getField().getType() instanceof ArrowType.Utf8
          || vector.getField().getType() instanceof ArrowType.LargeUtf8;
      ArrayNode offsets = column.putArray("OFFSET");
      ArrayNode data = column.putArray("DATA");
      long previous = 0;
      for (int i = 0; i <= count; i++) {
        long offset = i == 0 ? 0 : large
            ? vector.getOffsetBuffer().getLong(8L * i)
            : vector.getOffsetBuffer().getInt(4L * i);
        if (large) {
          offsets.add(Long.toString(offset));
        } else {
          offsets.add(offset);
        }
        if (i > 0) {
          byte[] value = new byte[Math.toIntExact(offset - previous)];
          vector.getDataBuffer().getBytes(previous, value);
          data.add(text ? new String(value, StandardCharsets.UTF_8)
              : HexFormat.of().withUpperCase().formatHex(value));
        }
        previous = offset;
      }
    } else {
      throw new IllegalArgumentException("cannot spell " + vector.getField());
    }
    return column;
  }

  // ---------------------------------------------------------------------------------------------
  // Building blocks

  private static Field nullable(String name, ArrowType type) {
    return Field.nullable(name, type);
  }

  private static Field parent(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.nullable(type), List.of(children));
  }

  private static Field mapField(String name, boolean keysSorted, ArrowType key, ArrowType value) {
    Field entries =
        new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
            List.of(Field.notNullable("key", key), Field.nullable("value", value)));
    return new Field(name, FieldType.nullable(new ArrowType.Map(keysSorted)), List.of(entries));
  }

  /**
   * A dictionary as Arrow Java's readers build it: named {@code DICT<id>} and as nullable as the
   * field it encodes.
   */
  private static Dictionary dictionaryOf(BufferAllocator allocator, DictionaryEncoding encoding,
      boolean nullable, ArrowType type, Object... values) {
    FieldVector vector =
        new Field("DICT" + encoding.getId(), new FieldType(nullable, type, null), null)
            .createVector(allocator);
    for (int i = 0; i < values.length; i++) {
      setAt(vector, i, values[i]);
    }
    vector.setValueCount(values.length);
    return new Dictionary(vector, encoding);
  }

  private static byte[] bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return bytes;
  }

  private static BigDecimal dec(String value) {
    return new BigDecimal(value);
  }

  /** A struct value: alternating child names and values. */
  private static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return row;
  }

  /** A map value: alternating keys and values, kept in order. */
  private static List<Object[]> entries(Object... keysAndValues) {
    List<Object[]> entries = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(new Object[] {keysAndValues[i], keysAndValues[i + 1]});
    }
    return entries;
  }

  private static void sparseInt(UnionVector union, int index, Integer value) {
    union.setType(index, MinorType.INT);
    setAt(union.getIntVector(), index, value);
  }

  private static void sparseFloat(UnionVector union, int index, Double value) {
    union.setType(index, MinorType.FLOAT8);
    setAt(union.getFloat8Vector(), index, value);
  }

  private static void dense(DenseUnionVector union, int index, byte typeId, int offset,
      Object value) {
    union.setTypeId(index, typeId);
    union.setOffset(index, offset);
    setAt((FieldVector) union.getVectorByType(typeId), offset, value);
  }

  /** Sets the column {@code name} of {@code root}, one value per row; null is a null slot. */
  private static void set(VectorSchemaRoot root, String name, Object... values) {
    FieldVector vector = root.getVector(name);
    for (int i = 0; i < values.length; i++) {
      setAt(vector, i, values[i]);
    }
  }

  /**
   * Sets one value, converting from plain Java values: numbers, Boolean, String (UTF-8), byte[],
   * BigDecimal, int[] {days, ms} and long[] {months, days, ns} for intervals, List for lists,
   * Map for structs and a List of {key, value} pairs for maps.
   */
  private static void setAt(FieldVector vector, int index, Object value) {
    if (value == null) {
      vector.setNull(index);
    } else if (vector instanceof BaseIntVector) {
      ((BaseIntVector) vector).setWithPossibleTruncate(index, ((Number) value).longValue());
    } else if (vector instanceof BitVector) {
      ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
    } else if (vector instanceof Float4Vector) {
      ((Float4Vector) vector).setSafe(index, ((Number) value).floatValue());
    } else if (vector instanceof Float8Vector) {
      ((Float8Vector) vector).setSafe(index, ((Number) value).doubleValue());
    } else if (vector instanceof DecimalVector) {
      ((DecimalVector) vector).setSafe(index, (BigDecimal) value);
    } else if (vector instanceof Decimal256Vector) {
      ((Decimal256Vector) vector).setSafe(index, (BigDecimal) value);
    } else if (vector instanceof VariableWidthFieldVector) {
      ((VariableWidthFieldVector) vector).setSafe(index, value instanceof String
          ? ((String) value).getBytes(StandardCharsets.UTF_8) : (byte[]) value);
    } else if (vector instanceof FixedSizeBinaryVector) {
      ((FixedSizeBinaryVector) vector).setSafe(index, (byte[]) value);
    } else if (vector instanceof DateDayVector) {
      ((DateDayVector) vector).setSafe(index, ((Number) value).intValue());
    } else if (vector instanceof DateMilliVector) {
      ((DateMilliVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof TimeSecVector) {
      ((TimeSecVector) vector).setSafe(index, ((Number) value).intValue());
    } else if (vector instanceof TimeMilliVector) {
      ((TimeMilliVector) vector).setSafe(index, ((Number) value).intValue());
    } else if (vector instanceof TimeMicroVector) {
      ((TimeMicroVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof TimeNanoVector) {
      ((TimeNanoVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof TimeStampVector) {
      ((TimeStampVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof DurationVector) {
      ((DurationVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof IntervalYearVector) {
      ((IntervalYearVector) vector).setSafe(index, ((Number) value).intValue());
    } else if (vector instanceof IntervalDayVector) {
      int[] dayTime = (int[]) value;
      ((IntervalDayVector) vector).setSafe(index, dayTime[0], dayTime[1]);
    } else if (vector instanceof IntervalMonthDayNanoVector) {
      long[] mdn = (long[]) value;
      ((IntervalMonthDayNanoVector) vector).setSafe(index, (int) mdn[0], (int) mdn[1], mdn[2]);
    } else if (vector instanceof MapVector) {
      setMap((MapVector) vector, index, (List<?>) value);
    } else if (vector instanceof ListVector) {
      ListVector list = (ListVector) vector;
      List<?> items = (List<?>) value;
      int start = list.startNewValue(index);
      for (int i = 0; i < items.size(); i++) {
        setAt(list.getDataVector(), start + i, items.get(i));
      }
      list.endValue(index, items.size());
    } else if (vector instanceof LargeListVector) {
      LargeListVector list = (LargeListVector) vector;
      List<?> items = (List<?>) value;
      long start = list.startNewValue(index);
      for (int i = 0; i < items.size(); i++) {
        setAt(list.getDataVector(), Math.toIntExact(start + i), items.get(i));
      }
      list.endValue(index, items.size());
    } else if (vector instanceof FixedSizeListVector) {
      FixedSizeListVector list = (FixedSizeListVector) vector;
      List<?> items = (List<?>) value;
      int start = list.startNewValue(index);
      for (int i = 0; i < items.size(); i++) {
        setAt(list.getDataVector(), start + i, items.get(i));
      }
    } else if (vector instanceof StructVector) {
      StructVector struct = (StructVector) vector;
      struct.setIndexDefined(index);
      Map<?, ?> row = (Map<?, ?>) value;
      for (FieldVector child : struct.getChildrenFromFields()) {
        setAt(child, index, row.get(child.getName()));
      }
    } else {
      throw new IllegalArgumentException("no setter for " + vector.getClass().getSimpleName());
    }
  }

  private static void setMap(MapVector map, int index, List<?> entries) {
    StructVector struct = (StructVector) map.getDataVector();
    FieldVector keys = struct.getChildrenFromFields().get(0);
    FieldVector values = struct.getChildrenFromFields().get(1);
    int start = map.startNewValue(index);
    for (int i = 0; i < entries.size(); i++) {
      Object[] entry = (Object[]) entries.get(i);
      struct.setIndexDefined(start + i);
      setAt(keys, start + i, entry[0]);
      setAt(values, start + i, entry[1]);
    }
    map.endValue(index, entries.size());
  }
}
