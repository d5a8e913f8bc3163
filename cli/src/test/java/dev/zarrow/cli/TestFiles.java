package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/** Files the write tests make and compare: IPC streams of int64 tables, and byte-for-byte snapshots of a tree. */
final class TestFiles {
  private TestFiles() {}

  /** Row {@code i} of column {@code c} of the tables written by {@link #int64Stream}. */
  static long value(int c, long i, long seed) {
    return i * 31 + c * 1_000_003L + seed;
  }

  /** An IPC stream of {@code rows} rows of int64 columns {@code names}, in batches of {@code batchRows}. */
  static Path int64Stream(Path file, List<String> names, int rows, int batchRows, long seed, BufferAllocator allocator)
      throws IOException {
    List<FieldVector> vectors = new ArrayList<>();
    for (String name : names) {
      vectors.add(new BigIntVector(name, allocator));
    }
    try (VectorSchemaRoot root = new VectorSchemaRoot(vectors); OutputStream out = Files.newOutputStream(file);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
      writer.start();
      for (int first = 0; first < rows; first += batchRows) {
        int n = Math.min(batchRows, rows - first);
        for (int c = 0; c < names.size(); c++) {
          BigIntVector v = (BigIntVector) root.getVector(c);
          v.allocateNew(n);
          for (int i = 0; i < n; i++) {
            v.set(i, value(c, first + i, seed));
          }
          v.setValueCount(n);
        }
        root.setRowCount(n);
        writer.writeBatch();
      }
      writer.end();
    }
    return file;
  }

  /** Every file (base64 of its bytes) and directory (as "dir") under {@code root}, by relative path. */
  static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        String name = root.relativize(p).toString();
        out.put(name, Files.isDirectory(p) ? "dir" : Base64.getEncoder().encodeToString(Files.readAllBytes(p)));
      }
    }
    return out;
  }

  static void assertUntouched(Map<String, String> before, Path root, String what) throws IOException {
    assertEquals(before, snapshot(root), what + ": the store changed");
  }

  /** The names under {@code root} that an unfinished write leaves: temporary files and directories, markers. */
  static List<String> leftovers(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.map(p -> root.relativize(p).toString())
          .filter(p -> p.endsWith(".zarrow-tmp") || p.endsWith("__zarrow_incomplete") || p.endsWith(".part"))
          .toList();
    }
  }
}
