package dev.zarrow.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.ipc.SchemaRootReader;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.JsonValueWriter;
import dev.zarrow.metadata.Json;
import dev.zarrow.table.TableWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a stream holds, in comparable text: the stored (IPC) schema in the JSON-integration spelling,
 * and each column's values over all batches as one JSON array (dictionary-encoded columns through
 * the dictionaries current at each batch, so batches with other dictionaries compare by value).
 */
public record StreamSnapshot(String schema, List<String> columns, long rows) {

  /**
   * The stored form of a reader's schema: zarrow's readers know it exactly; for others, what Arrow
   * Java's writer writes for it.
   */
  public static Schema storedSchema(ArrowReader reader) throws Exception {
    if (reader instanceof SchemaRootReader own) {
      return own.storedSchema();
    }
    return storedSchema(reader.getVectorSchemaRoot().getSchema(), reader);
  }

  /** The stored form of {@code memory} (dictionary-encoded fields as their index type), its dictionaries in {@code dictionaries}. */
  public static Schema storedSchema(Schema memory, DictionaryProvider dictionaries) {
    return TableWriter.storedSchema(memory, dictionaries);
  }

  /** Reads {@code reader} to its end. */
  public static StreamSnapshot of(ArrowReader reader) throws Exception {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    Collector collector = new Collector(storedSchema(reader));
    while (reader.loadNextBatch()) {
      collector.add(root, reader);
    }
    return collector.finish();
  }

  /** The parts one after the other, as one stream; they must share a schema. */
  public static StreamSnapshot concat(List<StreamSnapshot> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no parts");
    }
    StreamSnapshot first = parts.get(0);
    List<StringBuilder> columns = new ArrayList<>();
    first.columns().forEach(c -> columns.add(new StringBuilder()));
    long rows = 0;
    for (StreamSnapshot part : parts) {
      if (!part.schema().equals(first.schema())) {
        throw new IllegalArgumentException("parts of different schemas:\n" + first.schema() + "\n" + part.schema());
      }
      rows += part.rows();
      for (int c = 0; c < columns.size(); c++) {
        String values = part.columns().get(c);
        String inner = values.substring(1, values.length() - 1);
        if (!inner.isEmpty()) {
          columns.get(c).append(columns.get(c).length() == 0 ? "" : ",").append(inner);
        }
      }
    }
    return new StreamSnapshot(first.schema(), columns.stream().map(b -> "[" + b + "]").toList(), rows);
  }

  /** Batches given one at a time (from any source: a reader, a Flight stream), then {@link #finish}. */
  public static final class Collector {
    private final String schema;
    private final List<StringWriter> texts = new ArrayList<>();
    private final List<JsonGenerator> generators = new ArrayList<>();
    private long rows;

    public Collector(Schema stored) throws IOException {
      this.schema = ArrowJsonFiles.text(FieldJson.writeSchema(stored));
      for (int c = 0; c < stored.getFields().size(); c++) {
        StringWriter text = new StringWriter();
        JsonGenerator g = Json.FACTORY.createGenerator(text);
        g.writeStartArray();
        texts.add(text);
        generators.add(g);
      }
    }

    /** Adds the rows of {@code batch} (borrowed), its dictionary-encoded columns resolved through {@code dictionaries}. */
    public void add(VectorSchemaRoot batch, DictionaryProvider dictionaries) throws IOException {
      rows += batch.getRowCount();
      for (int c = 0; c < generators.size(); c++) {
        FieldVector v = batch.getFieldVectors().get(c);
        new JsonValueWriter(generators.get(c), dictionaries).writeAll(v);
      }
    }

    public StreamSnapshot finish() throws IOException {
      List<String> columns = new ArrayList<>();
      for (int c = 0; c < generators.size(); c++) {
        generators.get(c).writeEndArray();
        generators.get(c).close();
        columns.add(texts.get(c).toString());
      }
      return new StreamSnapshot(schema, columns, rows);
    }
  }
}
