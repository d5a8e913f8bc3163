package dev.zarrow.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.ipc.SchemaRootReader;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.vector.JsonValueWriter;
import dev.zarrow.metadata.Json;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;

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
    Set<Long> ids = new HashSet<>();
    List<Field> fields = new ArrayList<>();
    for (Field f : reader.getVectorSchemaRoot().getSchema().getFields()) {
      fields.add(DictionaryUtility.toMessageFormat(f, reader, ids));
    }
    return new Schema(fields, reader.getVectorSchemaRoot().getSchema().getCustomMetadata());
  }

  /** Reads {@code reader} to its end. */
  public static StreamSnapshot of(ArrowReader reader) throws Exception {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    String schema = ArrowJsonFiles.text(FieldJson.writeSchema(storedSchema(reader)));
    int n = root.getFieldVectors().size();
    List<StringWriter> texts = new ArrayList<>();
    List<JsonGenerator> generators = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      StringWriter text = new StringWriter();
      JsonGenerator g = Json.MAPPER.getFactory().createGenerator(text);
      g.writeStartArray();
      texts.add(text);
      generators.add(g);
    }
    long rows = 0;
    while (reader.loadNextBatch()) {
      rows += root.getRowCount();
      for (int c = 0; c < n; c++) {
        FieldVector v = root.getFieldVectors().get(c);
        new JsonValueWriter(generators.get(c), reader).writeAll(v);
      }
    }
    List<String> columns = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      generators.get(c).writeEndArray();
      generators.get(c).close();
      columns.add(texts.get(c).toString());
    }
    return new StreamSnapshot(schema, columns, rows);
  }
}
