package dev.zarrow.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.metadata.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class TableLayoutTest {
  private static Field int32(String name) {
    return Field.nullable(name, new ArrowType.Int(32, true));
  }

  private static Schema schema(String... names) {
    return new Schema(java.util.Arrays.stream(names).map(TableLayoutTest::int32).toList());
  }

  @Test
  void safeNamesAreKeptAndOthersMapped() {
    TableLayout layout = TableLayout.forSchema(schema("a", "a", "A", "x/y", "", "..", "__meta", "zarr.json", "c", "é t", "b.c"));
    assertEquals(List.of("a", "a_2", "A_3", "x_y", "column", "column_..", "column___meta", "column_zarr.json", "column_c", "column___t", "b.c"), layout.nodes());
    for (String node : layout.nodes()) {
      assertTrue(TableLayout.isSafeNodeName(node), node);
    }
  }

  @Test
  void nodeNamesNeverCollideIgnoringCase() {
    TableLayout layout = TableLayout.forSchema(schema("x_2", "x", "X", "x"));
    assertEquals(List.of("x_2", "x", "X_3", "x_4"), layout.nodes());
  }

  @Test
  void unsafeNames() {
    for (String name : new String[] {"", ".", "..", "a/b", "__x", "c", "zarr.json", "a b", "ä", "x".repeat(201)}) {
      assertFalse(TableLayout.isSafeNodeName(name), name);
    }
    for (String name : new String[] {"a", "_x", "A-1.b", "x".repeat(200), "c0"}) {
      assertTrue(TableLayout.isSafeNodeName(name), name);
    }
  }

  @Test
  void jsonRoundTripKeepsSchemaExactly() {
    Schema schema = FieldJson.parseSchema(Json.parse("{\"fields\": ["
        + "{\"name\": \"n\", \"nullable\": true, \"type\": {\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}, \"children\": []},"
        + "{\"name\": \"n\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, \"children\": [],"
        + " \"dictionary\": {\"id\": 0, \"indexType\": {\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 8}, \"isOrdered\": false}},"
        + "{\"name\": \"s/t\", \"nullable\": false, \"type\": {\"name\": \"utf8\"}, \"children\": []}],"
        + " \"metadata\": [{\"key\": \"z\", \"value\": \"1\"}, {\"key\": \"a\", \"value\": \"2\"}]}", "test"));
    TableLayout layout = TableLayout.forSchema(schema);
    ObjectNode attributes = JsonNodeFactory.instance.objectNode().put("other", 1);
    ObjectNode with = layout.into(attributes);
    assertFalse(attributes.has(TableLayout.ATTRIBUTE), "the argument is not changed");
    String text = new String(Json.pretty(with), StandardCharsets.UTF_8);
    TableLayout back = TableLayout.fromAttributes((ObjectNode) Json.parse(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), "test")).orElseThrow();
    assertEquals(layout, back);
    assertEquals(List.of("z", "a"), List.copyOf(back.schema().getCustomMetadata().keySet()));
    assertEquals(List.of("n", "n_2", "s_t"), back.nodes());
    assertEquals(Json.compact(layout.toJson()), Json.compact(back.toJson()));
    assertEquals("{\"version\":\"0.1.0\",\"schema\":{\"fields\":[", Json.compact(layout.toJson()).substring(0, 39));
  }

  @Test
  void absentAndBadAttributes() {
    ObjectNode empty = JsonNodeFactory.instance.objectNode();
    assertTrue(TableLayout.fromAttributes(empty).isEmpty());
    ObjectNode good = TableLayout.forSchema(schema("a")).toJson();

    ObjectNode badVersion = good.deepCopy().put("version", "9.9");
    assertThrows(UnsupportedExtensionException.class, () -> TableLayout.fromAttributes(wrap(badVersion)));
    ObjectNode tooFewNodes = good.deepCopy();
    tooFewNodes.putArray("nodes");
    MetadataException e = assertThrows(MetadataException.class, () -> TableLayout.fromAttributes(wrap(tooFewNodes)));
    assertTrue(e.getMessage().contains("/attributes/zarrow_table/nodes"), e.getMessage());
    ObjectNode unsafeNode = good.deepCopy();
    unsafeNode.putArray("nodes").add("../x");
    assertThrows(MetadataException.class, () -> TableLayout.fromAttributes(wrap(unsafeNode)));
    ObjectNode badSchema = good.deepCopy();
    badSchema.putObject("schema").put("fields", 3);
    e = assertThrows(MetadataException.class, () -> TableLayout.fromAttributes(wrap(badSchema)));
    assertTrue(e.getMessage().contains("/attributes/zarrow_table/schema/fields"), e.getMessage());
    assertThrows(MetadataException.class, () -> TableLayout.fromAttributes(JsonNodeFactory.instance.objectNode().put(TableLayout.ATTRIBUTE, 5)));
  }

  private static ObjectNode wrap(ObjectNode layout) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.set(TableLayout.ATTRIBUTE, layout);
    return out;
  }
}
