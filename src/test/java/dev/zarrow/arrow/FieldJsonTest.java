package dev.zarrow.arrow;

import static dev.zarrow.arrow.ArrowJsonFiles.MAPPER;
import static dev.zarrow.arrow.ArrowJsonFiles.text;
import static dev.zarrow.arrow.ArrowJsonFiles.withAllocator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.UnsupportedExtensionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.DictionaryUtility;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

class FieldJsonTest {
  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> goldenFieldsRoundTripTextExactly() {
    return ArrowJsonFiles.goldenFiles().stream()
        .map(golden -> DynamicTest.dynamicTest(ArrowJsonFiles.caseName(golden), () -> {
          JsonNode schema = ArrowJsonFiles.read(golden).get("schema");
          if (isDecimal32or64(golden)) {
            for (JsonNode field : schema.get("fields")) {
              assertThrows(UnsupportedExtensionException.class, () -> FieldJson.parse(field));
            }
            return;
          }
          for (JsonNode field : schema.get("fields")) {
            assertEquals(text(field), text(FieldJson.write(FieldJson.parse(field))));
          }
          assertEquals(text(schema), text(FieldJson.writeSchema(FieldJson.parseSchema(schema))));
        }));
  }

  @TestFactory
  Stream<DynamicTest> goldenFieldsEqualArrowJavasReading() {
    return ArrowJsonFiles.goldenFiles().stream()
        .map(golden -> DynamicTest.dynamicTest(ArrowJsonFiles.caseName(golden), () -> {
          Path file = ArrowJsonFiles.plain(golden, tmp);
          withAllocator(allocator -> {
            try (JsonFileReader reader = new JsonFileReader(file.toFile(), allocator)) {
              Schema arrows = reader.start();
              if (isDecimal32or64(golden)) {
                // Arrow Java's JSON reader takes these in (its IPC reader refuses them), but would
                // back them with 128-bit vectors; zarrow refuses them instead.
                for (Field field : arrows.getFields()) {
                  assertTrue(((ArrowType.Decimal) field.getType()).getBitWidth() < 128);
                }
                JsonNode fields = ArrowJsonFiles.read(golden).get("schema").get("fields");
                assertThrows(
                    UnsupportedExtensionException.class, () -> FieldJson.parse(fields.get(0)));
                return;
              }
              Schema ours = FieldJson.parseSchema(ArrowJsonFiles.read(golden).get("schema"));
              Map<Long, Dictionary> dictionaries = new HashMap<>();
              try {
                List<Field> memoryFormat = new ArrayList<>();
                for (Field field : ours.getFields()) {
                  memoryFormat.add(DictionaryUtility.toMemoryFormat(field, allocator, dictionaries));
                }
                assertEquals(arrows.getFields(), memoryFormat);
                assertEquals(arrows.getCustomMetadata(), ours.getCustomMetadata());
              } finally {
                dictionaries.values().forEach(d -> d.getVector().close());
              }
            }
          });
        }));
  }

  private static boolean isDecimal32or64(Path golden) {
    String name = ArrowJsonFiles.caseName(golden);
    return name.equals("decimal32") || name.equals("decimal64");
  }
}
