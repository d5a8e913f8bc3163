package dev.zarrow.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import dev.zarrow.error.MetadataException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link Json} reads and writes trees without data binding: the same nodes and bytes as Jackson's
 * {@code ObjectMapper} with the same settings ({@link Json#mapper}).
 */
class JsonTreeTest {
  private static final String DOCUMENT = "{\"zarr_format\": 3, \"shape\": [67108864, 0, 9223372036854775807, 92233720368547758070],"
      + " \"fill\": [0.1, -0.0, 1e300, 3.4028234663852886E38, 5e-324], \"empty\": {}, \"none\": [], \"text\": \"h\\u00e9llo \\ud83d\\ude00 \\\"q\\\"\\n\","
      + " \"flags\": [true, false, null], \"nested\": {\"a\": [[1], {\"b\": {}}]}}";

  @Test
  void parsesAndWritesAsDataBindingDoes() throws Exception {
    JsonNode ours = Json.parse(DOCUMENT, "doc");
    JsonNode theirs = Json.mapper().readTree(DOCUMENT);
    assertEquals(theirs, ours);
    for (String path : new String[] {"/shape/0", "/shape/2", "/shape/3", "/fill/0", "/fill/1"}) {
      assertEquals(theirs.at(path).getClass(), ours.at(path).getClass(), path);
    }
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
        .withObjectIndenter(new DefaultIndenter("  ", "\n")).withArrayIndenter(new DefaultIndenter("  ", "\n"));
    assertArrayEquals(Json.mapper().writer(printer).writeValueAsBytes(theirs), Json.pretty(ours));
    assertArrayEquals(Json.mapper().writer(printer).with(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII)
        .writeValueAsBytes(theirs), Json.prettyAscii(ours));
    assertEquals(Json.mapper().writeValueAsString(theirs), Json.compact(ours));
    assertTrue(new String(Json.pretty(ours), StandardCharsets.UTF_8).contains("\"none\" : [ ]"));
  }

  @Test
  void refusesWhatDataBindingRefuses() {
    for (String bad : new String[] {"", "  ", "{\"a\": 1, \"a\": 2}", "{\"a\": 1} {}", "[1] 2", "{\"a\": NaN}", "[1,]", "{\"a\" 1}",
        "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1)}) {
      assertThrows(Exception.class, () -> Json.mapper().readTree(bad.isBlank() ? "x" : bad), bad); // blank: readTree gives a missing node
      MetadataException e = assertThrows(MetadataException.class, () -> Json.parse(bad, "doc"), bad);
      assertTrue(e.getMessage().startsWith("doc: "), e.getMessage());
    }
    assertTrue(assertThrows(MetadataException.class, () -> Json.parse("{\"a\": 1, \"a\": 2}", "doc")).getMessage().contains("duplicate key \"a\""));
    assertTrue(assertThrows(MetadataException.class, () -> Json.parse("", "doc")).getMessage().contains("empty document"));
  }
}
