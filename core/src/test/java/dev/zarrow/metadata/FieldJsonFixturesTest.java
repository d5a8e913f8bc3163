package dev.zarrow.metadata;

import dev.zarrow.testing.ProjectPaths;
import dev.zarrow.testing.ArrowJsonFiles;
import static dev.zarrow.testing.ArrowJsonFiles.text;
import static dev.zarrow.testing.ArrowJsonFiles.withAllocator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's fixtures in {@code arrow-json-fixtures/}: what {@link FixtureGenerator} writes,
 * read back by Arrow Java, and their schemas read by {@link FieldJson}.
 *
 * <p>Most fixtures are Arrow Java's own JsonFileWriter output, whose field spelling differs from
 * the gold files' in ways {@link FieldJson} reads but does not write: key order ({@code nullable}
 * before {@code type}, {@code bitWidth} before {@code isSigned}, {@code isOrdered} before {@code
 * indexType}, {@code value} before {@code key}), union modes as {@code "Sparse"}/{@code "Dense"}
 * and {@code "timezone": null} for a timestamp without zone. FieldJson's canonical output is the
 * gold files' spelling; for these fixtures the tests check that it says the same thing, reads back
 * to equal fields, keeps the metadata order of the file, and is a fixed point of write(parse(..)).
 */
class FieldJsonFixturesTest {
  @TempDir Path tmp;

  @Test
  void fixturesAreWhatTheGeneratorWrites() throws Exception {
    FixtureGenerator.main(new String[] {tmp.toString()});
    List<String> expected =
        FixtureGenerator.FIXTURES.keySet().stream().map(n -> n + ".json").sorted()
            .collect(Collectors.toList());
    List<String> checkedIn =
        ArrowJsonFiles.fixtureFiles().stream().map(p -> p.getFileName().toString())
            .collect(Collectors.toList());
    assertEquals(expected, checkedIn, "arrow-json-fixtures/ holds exactly the generated files");
    for (String name : expected) {
      assertArrayEquals(
          Files.readAllBytes(tmp.resolve(name)),
          Files.readAllBytes(ProjectPaths.fixtures().resolve(name)),
          name + " is stale: regenerate with FixtureGenerator (see its javadoc)");
    }
  }

  @TestFactory
  Stream<DynamicTest> arrowJavaReadsEachFixtureBackToTheVectorsBuilt() {
    return FixtureGenerator.FIXTURES.keySet().stream()
        .map(name -> DynamicTest.dynamicTest(name, () -> withAllocator(allocator -> {
          try (FixtureGenerator.Content built =
                  FixtureGenerator.FIXTURES.get(name).apply(allocator);
              JsonFileReader reader = new JsonFileReader(fixture(name).toFile(), allocator)) {
            Schema read = reader.start();
            assertEquals(built.schema, read);
            for (long id : built.dictionaries.getDictionaryIds()) {
              assertTrue(VectorEqualsVisitor.vectorEquals(
                  built.dictionaries.lookup(id).getVector(), reader.lookup(id).getVector()),
                  "dictionary " + id);
            }
            for (VectorSchemaRoot expected : built.batches) {
              try (VectorSchemaRoot batch = reader.read()) {
                assertTrue(expected.equals(batch),
                    () -> "expected\n" + expected.contentToTSVString() + "got\n"
                        + batch.contentToTSVString());
              }
            }
            assertNull(reader.read(), "no batch beyond the built ones");
          }
        })));
  }

  @TestFactory
  Stream<DynamicTest> fieldJsonReadsEachFixtureSchema() {
    return FixtureGenerator.FIXTURES.keySet().stream()
        .map(name -> DynamicTest.dynamicTest(name, () -> withAllocator(allocator -> {
          JsonNode schema = ArrowJsonFiles.read(fixture(name)).get("schema");
          Schema ours = FieldJson.parseSchema(schema);
          try (JsonFileReader reader = new JsonFileReader(fixture(name).toFile(), allocator)) {
            assertEquals(
                reader.start().getFields(),
                ArrowJsonFiles.memoryFormat(ours.getFields(), allocator));
          }
          for (JsonNode field : schema.get("fields")) {
            Field parsed = FieldJson.parse(field);
            ObjectNode canonical = FieldJson.write(parsed);
            assertEquals(parsed, FieldJson.parse(canonical));
            assertEquals(text(canonical), text(FieldJson.write(FieldJson.parse(canonical))));
            assertEquals(withoutArrowJavaSpelling(field), canonical,
                "same JSON but for key order and Arrow Java's spellings");
            assertMetadataOrderKept(field, parsed);
          }
        })));
  }

  @Test
  void spelledFixturesAreCanonicalTextExactly() throws Exception {
    for (String name : List.of("large_strings_binary", "union_dense")) {
      JsonNode schema = ArrowJsonFiles.read(fixture(name)).get("schema");
      assertEquals(text(schema), text(FieldJson.writeSchema(FieldJson.parseSchema(schema))));
    }
  }

  private static Path fixture(String name) {
    return ProjectPaths.fixture(name);
  }

  /**
   * Arrow Java's field JSON with its spellings undone where key order (which JsonNode equality
   * ignores) is not enough: null-valued keys dropped, union modes upper-cased.
   */
  private static JsonNode withoutArrowJavaSpelling(JsonNode node) {
    JsonNode copy = node.deepCopy();
    undo(copy);
    return copy;
  }

  private static void undo(JsonNode node) {
    if (node.isObject()) {
      ObjectNode object = (ObjectNode) node;
      List<String> nulls = new ArrayList<>();
      for (Map.Entry<String, JsonNode> entry : object.properties()) {
        if (entry.getValue().isNull()) {
          nulls.add(entry.getKey());
        } else {
          undo(entry.getValue());
        }
      }
      object.remove(nulls);
      if (object.path("mode").isTextual()) {
        object.put("mode", object.get("mode").textValue().toUpperCase(Locale.ROOT));
      }
    } else if (node.isArray()) {
      node.forEach(FieldJsonFixturesTest::undo);
    }
  }

  private static void assertMetadataOrderKept(JsonNode json, Field field) {
    List<String> keys = new ArrayList<>();
    if (json.has("metadata")) {
      json.get("metadata").forEach(entry -> keys.add(entry.get("key").asText()));
    }
    assertEquals(keys, new ArrayList<>(field.getMetadata().keySet()));
    for (int i = 0; i < field.getChildren().size(); i++) {
      assertMetadataOrderKept(json.get("children").get(i), field.getChildren().get(i));
    }
  }
}
