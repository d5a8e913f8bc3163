package dev.zarrow.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.metadata.Json;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Fuzzes the Arrow JSON-integration field and schema reader ({@link FieldJson}): only
 * {@link ZarrException}s may escape, and whatever parses must write and read back to the same field.
 * Corpora: {@code FieldJsonFuzzTestInputs/field/} and {@code .../schema/}.
 */
class FieldJsonFuzzTest {

  @FuzzTest
  @DictionaryEntries({
    "\"name\"", "\"type\"", "\"nullable\"", "\"children\"", "\"dictionary\"", "\"metadata\"", "\"key\"",
    "\"value\"", "\"bitWidth\"", "\"isSigned\"", "\"precision\"", "\"scale\"", "\"unit\"", "\"timezone\"",
    "\"listSize\"", "\"byteWidth\"", "\"mode\"", "\"typeIds\"", "\"keysSorted\"", "\"indexType\"",
    "\"isOrdered\"", "\"id\"", "\"int\"", "\"floatingpoint\"", "\"utf8\"", "\"list\"", "\"struct\"",
    "\"map\"", "\"union\"", "\"decimal\"", "\"timestamp\"", "\"runendencoded\"", "\"fixedsizelist\"",
    "\"SPARSE\"", "\"DENSE\"", "\"MICROSECOND\"", "\"DOUBLE\""
  })
  void field(byte[] input) {
    try {
      JsonNode node = Json.parse(input, "fuzz");
      Field field = FieldJson.parse(node);
      assertEquals(field, FieldJson.parse(FieldJson.write(field)), "a field changes when written and read back");
    } catch (ZarrException refused) {
      // the only acceptable failure
    }
  }

  @FuzzTest
  void schema(byte[] input) {
    try {
      JsonNode node = Json.parse(input, "fuzz");
      Schema schema = FieldJson.parseSchema(node);
      assertEquals(schema, FieldJson.parseSchema(FieldJson.writeSchema(schema)), "a schema changes when written and read back");
    } catch (ZarrException refused) {
      // the only acceptable failure
    }
  }
}
