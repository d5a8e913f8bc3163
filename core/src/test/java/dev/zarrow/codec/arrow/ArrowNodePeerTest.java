package dev.zarrow.codec.arrow;

import dev.zarrow.testing.ProjectPaths;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.testing.ArrowJsonFiles;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.NodePeer;
import dev.zarrow.testing.PeerValues;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * apache-arrow (npm) reads chunks of the arrow codec as IPC streams: the same schema and values as
 * it reads from Arrow Java's own stream of the same fixture column. One column per type family that
 * apache-arrow's reader turns into values (not unions, views or run-end encoded; see
 * src/test/node/README.md).
 */
@ExtendWith(AllocatorExtension.class)
class ArrowNodePeerTest {
  @TempDir Path tmp;

  static final Map<String, List<String>> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("primitives", List.of("bool", "int32", "uint64", "float64", "int32_required"));
    COLUMNS.put("strings_binary", List.of("utf8", "binary"));
    COLUMNS.put("large_strings_binary", List.of("largeutf8"));
    COLUMNS.put("fixedsizebinary", List.of("fsb3"));
    COLUMNS.put("decimals", List.of("decimal_76_20"));
    COLUMNS.put("temporal", List.of("ts_ms_paris", "date_ms", "duration_us"));
    COLUMNS.put("lists", List.of("list_list_utf8", "fixedsizelist_int16", "largelist_int32"));
    COLUMNS.put("struct", List.of("struct"));
    COLUMNS.put("map", List.of("map_utf8_int32"));
    COLUMNS.put("dictionary", List.of("dict_utf8", "list_of_dict_utf8", "dict_int64_unsigned_index"));
    COLUMNS.put("null", List.of("null"));
    COLUMNS.put("metadata", List.of("with_metadata"));
  }

  /** A check to run once the peer has read a file. */
  private record Job(String what, Path file, Path reference, int column, long rows, JsonNode stored) {}

  private static JsonNode sortedMetadata(JsonNode field) {
    com.fasterxml.jackson.databind.node.ObjectNode copy = field.deepCopy();
    if (copy.has("metadata")) {
      List<JsonNode> entries = new ArrayList<>();
      copy.get("metadata").forEach(entries::add);
      entries.sort(java.util.Comparator.comparing(n -> n.get("key").asText()));
      copy.putArray("metadata").addAll(entries);
    }
    return copy;
  }

  @Test
  void apacheArrowReadsChunksAsStreams(BufferAllocator allocator) throws Exception {
    NodePeer.assumeAvailable();
    List<Job> jobs = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : COLUMNS.entrySet()) {
      Path fixture = ProjectPaths.fixture(e.getKey());
      JsonNode fields = ArrowJsonFiles.read(fixture).get("schema").get("fields");
      try (JsonFileReader reader = new JsonFileReader(fixture.toFile(), allocator)) {
        reader.start();
        try (VectorSchemaRoot batch = reader.read()) {
          Path reference = tmp.resolve(e.getKey() + ".arrows");
          try (OutputStream out = Files.newOutputStream(reference);
              ArrowStreamWriter writer = new ArrowStreamWriter(batch, reader, out)) {
            writer.start();
            writer.writeBatch();
            writer.end();
          }
          for (int c = 0; c < fields.size(); c++) {
            Field stored = FieldJson.parse(fields.get(c));
            if (!e.getValue().contains(stored.getName())) {
              continue;
            }
            ArrowDataType type = ArrowDataType.of(stored);
            try (FieldVector values = ArrowRoundTripTest.decoded(batch.getVector(c), stored, reader, allocator)) {
              ByteBuffer chunk = ArrowIpcCodec.arrow().encode(values, ArrowIpcCodecTest.spec(type, batch.getRowCount()), allocator);
              Path file = tmp.resolve(e.getKey() + "-" + c + ".chunk");
              try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(chunk);
              }
              jobs.add(new Job(e.getKey() + ":" + stored.getName(), file, reference, c, batch.getRowCount(),
                  FieldJson.write(stored)));
            }
          }
        }
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Map<Path, Future<JsonNode>> read = new LinkedHashMap<>();
      for (Job job : jobs) {
        read.computeIfAbsent(job.reference, f -> pool.submit(() -> NodePeer.arrowRead(f)));
        read.computeIfAbsent(job.file, f -> pool.submit(() -> NodePeer.arrowRead(f)));
      }
      for (Job job : jobs) {
        JsonNode want = read.get(job.reference).get();
        JsonNode got = read.get(job.file).get();
        assertEquals("stream", got.get("format").asText(), job.what);
        assertEquals(job.rows, got.get("num_rows").asLong(), job.what);
        assertEquals(1, got.get("schema").get("fields").size(), job.what);
        JsonNode field = got.get("schema").get("fields").get(0);
        assertEquals(sortedMetadata(want.get("schema").get("fields").get(job.column)), sortedMetadata(field),
            job.what + ": the chunk's schema is the column's");
        // Arrow Java's writer loses the metadata order; the chunk keeps the field's.
        assertEquals(job.stored.path("metadata"), field.path("metadata"), job.what + ": metadata in order");
        PeerValues.assertSameValues(want.get("columns").get(job.column).get("values"),
            got.get("columns").get(0).get("values"), job.what);
      }
    } finally {
      pool.shutdown();
    }
  }
}
