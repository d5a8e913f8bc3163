package dev.zarrow.testing;

import dev.zarrow.ipc.IpcReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.JsonFileReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Arrow's gold IPC streams: which ones, what Arrow Java does with them, and how to read them. */
public final class GoldStreams {
  private GoldStreams() {}

  /** Arrow Java 18 cannot read these (see the gold folder's README): refused (ExportRoundTripTest checks it). */
  public static final Set<String> UNREADABLE = Set.of("decimal32", "decimal64");

  /**
   * Arrow Java's readers lose struct children that repeat a name (unless Arrow's JVM-wide property
   * {@code arrow.struct.conflict.policy} says otherwise): tests read these with zarrow's IpcReader.
   */
  public static final Set<String> REPEATED_NAMES = Set.of("duplicate_fieldnames");

  public static List<Path> goldenStreams() throws Exception {
    try (Stream<Path> files = Files.list(ArrowJsonFiles.goldenDir())) {
      return files.filter(p -> p.getFileName().toString().matches("generated_.*\\.stream")).sorted().toList();
    }
  }

  /** The gold streams zarrow round-trips: all but {@link #UNREADABLE}. */
  public static List<Path> roundTrippableStreams() throws Exception {
    return goldenStreams().stream()
        .filter(p -> !UNREADABLE.contains(caseName(p)))
        .toList();
  }

  public static String caseName(Path stream) {
    return stream.getFileName().toString().replaceAll("^generated_|\\.stream$", "");
  }

  /** A JSON-integration file as an IPC stream, written by Arrow Java. */
  public static byte[] jsonToStream(Path json, BufferAllocator allocator) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonFileReader reader = new JsonFileReader(json.toFile(), allocator)) {
      Schema schema = reader.start();
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
          ArrowStreamWriter writer = new ArrowStreamWriter(root, reader, out)) {
        writer.start();
        while (reader.read(root)) {
          writer.writeBatch();
        }
        writer.end();
      }
    }
    return out.toByteArray();
  }

  /** Whether the gold case of {@code stream} has a dictionary-encoded field (at any depth), by its JSON. */
  public static boolean hasDictionaries(Path stream) throws Exception {
    Path json = stream.resolveSibling(stream.getFileName().toString().replaceAll("\\.stream$", ".json.gz"));
    return !ArrowJsonFiles.read(json).get("schema").findValues("dictionary").isEmpty();
  }

  /**
   * What the IPC stream (or file) {@code ipc} holds, as Arrow Java's stream reader reads it, or
   * zarrow's {@link IpcReader} for a case of {@link #REPEATED_NAMES}.
   */
  public static StreamSnapshot snapshot(Path ipc, String name, BufferAllocator allocator) throws Exception {
    if (!REPEATED_NAMES.contains(name)) {
      return snapshotOf(Files.newInputStream(ipc), allocator);
    }
    try (IpcReader reader = IpcReader.open(ipc, allocator)) {
      return StreamSnapshot.of(reader);
    }
  }

  public static StreamSnapshot snapshotOf(InputStream in, BufferAllocator allocator) throws Exception {
    try (in; ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      return StreamSnapshot.of(reader);
    }
  }
}
