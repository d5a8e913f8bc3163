package dev.zarrow.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrOptions;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.metadata.Json;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.vector.Dictionaries;
import dev.zarrow.vector.Fields;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.TableLayout;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow import FILE STORE PATH}: an Arrow IPC stream, IPC file or JSON-integration file
 * becomes a group table at PATH ({@link TableWriter}). The format is told by the content: the IPC
 * file magic {@code ARROW1}, a JSON object, else an IPC stream; FILE {@code -} is standard input
 * ({@link ImportInput}). IPC is read by zarrow's {@link IpcReader}, which checks every message length
 * against what remains before anything is allocated for it, and every batch before use. The table is written through {@link TableWriter} (so a failed or interrupted
 * import leaves the old node or none); a node already at PATH is replaced only with {@code
 * --overwrite} ({@link Destination}). Prints a JSON summary (rows, and per column its name, node and
 * data type); progress on stderr.
 */
@Command(
    name = "import",
    description = {
      "Import an Arrow IPC stream, IPC file or Arrow JSON-integration file as a group table at PATH:"
          + " one array per column (a native Zarr data type where the column has one and no nulls, else"
          + " the arrow data type), and the exact schema in the group attribute zarrow_table.",
      "--codec takes bytes->bytes codecs in copy's spelling (zstd[:LEVEL], gzip[:LEVEL], crc32c, ...),"
          + " one per option, in order."
    })
final class ImportCommand extends ZarrowCommand {
  private static final byte[] FILE_MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};
  /** How many first bytes {@link #detect} looks at. */
  static final int HEAD = 16;
  /** Like Arrow's JSON reader: the batches may hold NaN and infinities; the rest of the file is not read here. */
  private static final JsonMapper LENIENT = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  enum Format { STREAM, FILE, JSON }

  @Parameters(index = "0", paramLabel = "FILE", description = "The Arrow IPC stream, IPC file or JSON-integration file; - for stdin.")
  Path file;

  @Parameters(index = "1", paramLabel = "STORE", description = "The store to write (created when missing): a directory, s3://BUCKET/PREFIX, a .zip archive.")
  String store;

  @Parameters(index = "2", paramLabel = "PATH", description = "The group to write the table into (created when missing).")
  String path;

  @Mixin TableLayoutOptions layout = new TableLayoutOptions();

  @Option(names = "--overwrite", description = "Replace the node at PATH (a table, a group, an array, the root).")
  boolean overwrite;

  /** The input, and where the table goes: set by {@link #call}. */
  private ImportInput input;
  private WritableStore target;
  private String targetPath;
  private ZarrOptions zarrOptions;

  @Override
  public Integer call() throws IOException {
    String group = nodePath(path);
    zarrOptions = options();
    TableOptions table = layout.toTableOptions(zarrOptions, this::usage);
    try (ImportInput in = ImportInput.open(file, System.in); WritableStore out = openWritable(store);
        BufferAllocator allocator = new RootAllocator()) {
      input = in;
      target = out;
      targetPath = group;
      Destination.check(this, out, store, group, overwrite, zarrOptions);
      Progress progress = new Progress();
      ZarrGroup written = switch (in.format) {
        case JSON -> importJson(table, allocator, progress);
        case FILE, STREAM -> importIpc(table, allocator, progress);
      };
      TableLayout layout = TableLayout.fromAttributes(written.attributes()).orElseThrow();
      err().println("import: " + progress.rows + " rows in " + progress.batches + " batches, " + layout.nodes().size()
          + " columns, from " + in.name + " (" + in.format.name().toLowerCase() + ") to " + (group.isEmpty() ? "/" : group)
          + " in " + store);
      printJson(summary(written, layout, progress.rows, in.format));
    }
    return Main.OK;
  }

  /** The writer of the table of {@code schema} at PATH. */
  private TableWriter tableWriter(Schema schema, TableOptions options, BufferAllocator allocator) {
    return TableWriter.create(target, targetPath, zarrOptions, schema, options, allocator);
  }

  /** The format of {@code input} by its first bytes. */
  static Format detect(Path input) {
    byte[] head = new byte[HEAD];
    int n = 0;
    try (InputStream in = Files.newInputStream(input)) {
      for (int r; n < head.length && (r = in.read(head, n, head.length - n)) > 0; ) {
        n += r;
      }
    } catch (NoSuchFileException e) {
      throw new StoreException("cannot read " + input + ": no such file");
    } catch (IOException e) {
      throw new StoreException("cannot read " + input + ": " + e.getMessage(), e);
    }
    return detect(head, n, input.toString());
  }

  /**
   * The format of an input ({@code name} in messages) whose first {@code n} bytes (at most {@link #HEAD})
   * are {@code head}: an IPC file by its magic, JSON by its first non-blank {@code '{'}, an IPC stream by
   * its first message's prefix: the continuation marker 0xFFFFFFFF, or (streams before Arrow 0.15) the
   * metadata length itself, a positive multiple of 8 (Arrow pads metadata to 8 bytes) under 16 MiB.
   * Anything else is refused, naming what it starts with.
   */
  static Format detect(byte[] head, int n, String name) {
    if (n >= FILE_MAGIC.length && Arrays.equals(head, 0, FILE_MAGIC.length, FILE_MAGIC, 0, FILE_MAGIC.length)) {
      return Format.FILE;
    }
    int first = 0;
    while (first < n && Character.isWhitespace(head[first])) {
      first++;
    }
    if (first == n) {
      throw new CodecException(name + " is empty or blank: not an Arrow IPC stream, IPC file or JSON-integration file");
    }
    if (head[first] == '{') {
      return Format.JSON;
    }
    if (n >= 4) {
      int prefix = ByteBuffer.wrap(head, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if (prefix == -1 || (prefix > 0 && prefix < 1 << 24 && prefix % 8 == 0)) {
        return Format.STREAM;
      }
    }
    throw new CodecException(name + " is not an Arrow IPC stream, IPC file or JSON-integration file: it starts with "
        + startOf(head, Math.min(n, 8)));
  }

  /** The first {@code n} bytes in hex, and as text where they are printable ASCII. */
  private static String startOf(byte[] head, int n) {
    StringBuilder hex = new StringBuilder();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int b = head[i] & 0xFF;
      hex.append(i == 0 ? "" : " ").append(String.format("%02x", b));
      text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
    }
    return hex + " (\"" + text + "\")";
  }

  /** IPC: zarrow's own reader, which checks everything and keeps what Arrow Java's readers lose. */
  private ZarrGroup importIpc(TableOptions options, BufferAllocator allocator, Progress progress) throws IOException {
    try (IpcReader reader = read(() -> input.ipcReader(allocator))) {
      VectorSchemaRoot root = read(reader::getVectorSchemaRoot);
      Schema schema = read(reader::storedSchema);
      try (TableWriter writer = tableWriter(schema, options, allocator)) {
        while (read(reader::loadNextBatch)) {
          writer.append(root, reader);
          progress.batch(root.getRowCount());
        }
        return writer.finish();
      }
    }
  }

  /**
   * JSON: the schema as the file spells it (metadata order kept), the batches through Arrow Java's
   * reader into a root of zarrow's vectors (whose structs keep children that repeat a name).
   */
  private ZarrGroup importJson(TableOptions options, BufferAllocator allocator, Progress progress) throws IOException {
    Schema schema;
    try {
      schema = FieldJson.parseSchema(jsonSchema(), "/schema");
    } catch (ZarrException e) {
      throw e.getMessage().contains(input.name) ? e : e.withContext(input.name);
    }
    try (JsonFileReader reader = new JsonFileReader(input.file().toFile(), allocator);
        VectorSchemaRoot root = emptyRoot(schema, allocator)) {
      read(reader::start);
      try (TableWriter writer = tableWriter(schema, options, allocator)) {
        while (read(() -> reader.read(root))) {
          writer.append(root, reader);
          progress.batch(root.getRowCount());
        }
        return writer.finish();
      }
    }
  }

  /** An empty root of {@code schema}'s columns in memory form (dictionary-encoded levels as indexes). */
  private static VectorSchemaRoot emptyRoot(Schema schema, BufferAllocator allocator) {
    List<Field> fields = new ArrayList<>();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (Field field : schema.getFields()) {
        Field indexed = Dictionaries.indexedField(field);
        fields.add(indexed);
        vectors.add(Fields.createVector(indexed, allocator));
      }
      return new VectorSchemaRoot(fields, vectors, 0);
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  /** The {@code schema} member of the JSON file, read without reading the batches. */
  private JsonNode jsonSchema() {
    try (JsonParser parser = LENIENT.createParser(input.file().toFile())) {
      // The messages leave out the input's name: the caller adds it as context.
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new CodecException("not an Arrow JSON-integration file (not a JSON object)");
      }
      for (JsonToken t = parser.nextToken(); t == JsonToken.FIELD_NAME; t = parser.nextToken()) {
        String name = parser.currentName();
        parser.nextToken();
        if (name.equals("schema")) {
          return LENIENT.readTree(parser);
        }
        parser.skipChildren();
      }
      throw new CodecException("not an Arrow JSON-integration file (no \"schema\")");
    } catch (JsonProcessingException e) {
      throw new CodecException("not readable as an Arrow JSON-integration file: " + Json.reason(e), e);
    } catch (IOException e) {
      throw new CodecException("not readable as an Arrow JSON-integration file: " + e.getMessage(), e);
    }
  }

  private interface Step<T> {
    T get() throws IOException;
  }

  /**
   * A read of the input: what the readers throw on malformed input becomes a data error naming the
   * input (zarrow's own errors keep their kind and get the input as context).
   */
  private <T> T read(Step<T> step) {
    try {
      return step.get();
    } catch (ZarrException e) {
      throw e.getMessage().contains(input.name) ? e : e.withContext(input.name);
    } catch (IOException | RuntimeException e) {
      String reason = e instanceof JsonProcessingException j ? Json.reason(j) : String.valueOf(e.getMessage() == null ? e : e.getMessage());
      throw new CodecException(input.name + ": not a readable Arrow " + describe() + ": " + Main.oneLine(reason), e);
    }
  }

  private String describe() {
    return switch (input.format) {
      case FILE -> "IPC file";
      case STREAM -> "IPC stream";
      case JSON -> "JSON-integration file";
    };
  }

  private static ObjectNode summary(ZarrGroup group, TableLayout layout, long rows, Format format) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("path", group.path());
    out.put("format", format.name().toLowerCase());
    out.put("rows", rows);
    ArrayNode columns = out.putArray("columns");
    for (int i = 0; i < layout.nodes().size(); i++) {
      String node = layout.nodes().get(i);
      columns.addObject()
          .put("name", layout.schema().getFields().get(i).getName())
          .put("node", node)
          .put("data_type", group.array(node).dataType().name());
    }
    return out;
  }

  /** Rows and batches so far, reported on stderr as they grow. */
  private final class Progress {
    final ProgressLine line = new ProgressLine(err());
    long rows;
    long batches;

    void batch(int n) {
      rows += n;
      batches++;
      line.update(() -> "import: " + rows + " rows (" + batches + " batches)");
    }
  }
}
