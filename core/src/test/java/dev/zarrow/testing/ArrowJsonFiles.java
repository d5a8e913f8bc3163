package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import dev.zarrow.vector.Fields;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.DictionaryUtility;

/** Where the Arrow JSON-integration files used by the tests live, and how to read them. */
public final class ArrowJsonFiles {
  /** Lenient like Arrow's own readers: integration files may hold NaN and infinities. */
  public static final JsonMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private ArrowJsonFiles() {}

  /**
   * The Arrow project's gold files, kept in the checkout: {@code arrow-json-fixtures/arrow-testing}
   * (its README says where they come from and their license).
   */
  public static Path goldenDir() {
    Path dir = ProjectPaths.fixtures().resolve("arrow-testing");
    if (!Files.isDirectory(dir)) {
      fail("Arrow's gold files are missing from the checkout: " + dir);
    }
    return dir;
  }

  /** The gold files {@code generated_*.json.gz}, sorted by name. */
  public static List<Path> goldenFiles() {
    try (Stream<Path> files = Files.list(goldenDir())) {
      return files
          .filter(p -> p.getFileName().toString().matches("generated_.*\\.json\\.gz"))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The case name of a gold file: {@code generated_map.json.gz} gives {@code map}. */
  public static String caseName(Path golden) {
    return golden.getFileName().toString().replaceAll("^generated_|\\.json\\.gz$", "");
  }

  /** The project's own fixtures, {@code arrow-json-fixtures/*.json}, sorted by name. */
  public static List<Path> fixtureFiles() {
    try (Stream<Path> files = Files.list(ProjectPaths.fixtures())) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".json"))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads a JSON file, gunzipping it when its name ends in {@code .gz}. */
  public static JsonNode read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return MAPPER.readTree(
          file.toString().endsWith(".gz") ? new GZIPInputStream(in) : in);
    }
  }

  /**
   * Copies a file to {@code dir}, gunzipped when its name ends in {@code .gz}: Arrow Java's
   * JsonFileReader reads only plain files.
   */
  public static Path plain(Path file, Path dir) throws IOException {
    Path target = dir.resolve(file.getFileName().toString().replaceAll("\\.gz$", ""));
    try (InputStream in = Files.newInputStream(file)) {
      Files.copy(file.toString().endsWith(".gz") ? new GZIPInputStream(in) : in, target);
    }
    return target;
  }

  /** Compact JSON text, the form in which round trips are compared. */
  public static String text(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A test body that uses an allocator. */
  public interface AllocatorBody {
    void run(BufferAllocator allocator) throws Exception;
  }

  /**
   * Runs {@code body} with a fresh allocator and fails if it leaves any memory allocated: a check
   * per dynamic test, where {@code AllocatorExtension} checks once per test factory.
   */
  public static void withAllocator(AllocatorBody body) throws Exception {
    try (RootAllocator allocator = new RootAllocator()) {
      body.run(allocator);
      assertEquals(0, allocator.getAllocatedMemory(), "memory left allocated");
    }
  }

  /**
   * The next batch of {@code reader} (started; {@code memory} is what {@code start()} returned) in a
   * new root of zarrow's vectors, which keep struct children that repeat a name (the root Arrow
   * Java's {@code read()} makes loses them); null after the last batch. The caller closes the root.
   */
  public static VectorSchemaRoot nextBatch(JsonFileReader reader, Schema memory, BufferAllocator allocator)
      throws IOException {
    List<FieldVector> vectors = new ArrayList<>();
    for (Field field : memory.getFields()) {
      vectors.add(Fields.createVector(field, allocator));
    }
    VectorSchemaRoot root = new VectorSchemaRoot(memory, vectors, 0);
    try {
      if (reader.read(root)) {
        return root;
      }
    } catch (IOException | RuntimeException e) {
      root.close();
      throw e;
    }
    root.close();
    return null;
  }

  /** Arrow Java's JsonFileReader hands out fields in memory form (dictionary index types). */
  public static List<Field> memoryFormat(List<Field> fields, BufferAllocator allocator) {
    Map<Long, Dictionary> dictionaries = new HashMap<>();
    try {
      List<Field> converted = new ArrayList<>();
      for (Field field : fields) {
        converted.add(DictionaryUtility.toMemoryFormat(field, allocator, dictionaries));
      }
      return converted;
    } finally {
      dictionaries.values().forEach(d -> d.getVector().close());
    }
  }
}
