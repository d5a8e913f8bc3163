package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writer process ({@link CrashWriter}) with SIGKILL at random moments while it rewrites every
 * chunk (one array's chunks are shards) and the metadata of several arrays in a loop, then proves the store holds no torn value: every
 * chunk decodes (its crc32c verifies) to exactly one version's values, versions advance in the order
 * the writer goes (each key holds the old or the new value), the metadata parses and agrees, and no
 * temporary file shows in a listing. {@code -Dzarrow.crash.kills=N} sets the number of kills.
 */
@ExtendWith(AllocatorExtension.class)
class CrashSafetyTest {
  private static final int CHUNKS = 16;
  private static final int CHUNK = 4096;
  private static final NamedConfig LITTLE =
      NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little"));
  /** The arrays the writer rewrites, each with a crc32c over every chunk. */
  private static final Map<String, ArraySpec> ARRAYS = Map.of(
      "plain", ArraySpec.of(FixedType.INT32, (long) CHUNKS * CHUNK).chunks(CHUNK).compressors(List.of(ArraySpec.crc32c())),
      "zstd", ArraySpec.of(FixedType.INT32, (long) CHUNKS * CHUNK).chunks(CHUNK)
          .compressors(List.of(ArraySpec.zstd(1), ArraySpec.crc32c())),
      // each chunk a shard of 8 inner chunks, each with its crc32c, and a crc32c over the index
      "sharded", ArraySpec.of(FixedType.INT32, (long) CHUNKS * CHUNK).chunks(CHUNK).codecs(List.of(
          ArraySpec.shardingIndexed(new int[] {CHUNK / 8}, List.of(LITTLE, ArraySpec.zstd(1), ArraySpec.crc32c())))));

  @TempDir Path dir;

  @Test
  void killedWriterLeavesEveryKeyOldOrNewAndComplete(BufferAllocator allocator) throws Exception {
    int kills = Integer.getInteger("zarrow.crash.kills", 30);
    FileSystemStore store = FileSystemStore.open(dir);
    List<String> paths = new ArrayList<>(ARRAYS.keySet());
    paths.sort(null);
    for (String path : paths) {
      Zarr.createArray(store, path, ARRAYS.get(path).attributes(JsonNodeFactory.instance.objectNode().put("version", 0)));
    }
    Random random = Seeds.random("crash safety kill times");
    Map<String, int[]> seen = new HashMap<>();
    int midVersion = 0;
    int maxVersion = 0;
    long started = System.nanoTime();
    for (int kill = 1; kill <= kills; kill++) {
      Process writer = startWriter(paths);
      awaitReady(writer);
      Thread.sleep(random.nextInt(300));
      writer.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no finally blocks
      assertTrue(writer.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
      // the writer resumes after the highest version any array's first chunk holds
      int start = 1 + paths.stream().mapToInt(p -> seen.computeIfAbsent(p, q -> new int[CHUNKS])[0]).max().getAsInt();
      for (String path : paths) {
        int[] versions = verify(store, path, seen.get(path), start, allocator);
        midVersion += Arrays.stream(versions).distinct().count() > 1 ? 1 : 0;
        maxVersion = Math.max(maxVersion, versions[0]);
      }
      verifyListing(store, paths);
    }
    long leftovers;
    try (Stream<Path> files = Files.walk(dir)) {
      leftovers = files.filter(p -> p.getFileName().toString().endsWith(".zarrow-tmp")).count();
    }
    System.out.printf("crash safety: %d kills (SIGKILL) in %.1f s, %d arrays, up to version %d; %d times an array was "
            + "caught between versions; %d temporary files left on disk, none listed; every key old or new and complete%n",
        kills, (System.nanoTime() - started) / 1e9, paths.size(), maxVersion, midVersion, leftovers);
    assertTrue(maxVersion > 1, "the writer never got past its first version: the kills proved nothing");
  }

  /**
   * Checks one array after a kill and returns its chunks' versions. The killed run started at version
   * {@code start} and writes chunks in order, so some prefix of the chunks holds its last version W
   * and the rest the version before (W - 1 when the run completed one, else what they held before the
   * run): each key holds its old value or a new one, never a mixture.
   */
  private static int[] verify(FileSystemStore store, String path, int[] before, int start, BufferAllocator allocator) {
    ZarrArray array = Zarr.openArray(store, path); // zarr.json whole: it parses
    int[] versions = new int[CHUNKS];
    for (int c = 0; c < CHUNKS; c++) {
      Optional<FieldVector> chunk = array.decodeChunk(new long[] {c}, allocator); // crc32c verified
      if (chunk.isEmpty()) {
        versions[c] = 0;
        continue;
      }
      try (IntVector v = (IntVector) chunk.get()) {
        int version = v.get(0);
        for (int i = 0; i < CHUNK; i++) {
          if (v.get(i) != CrashWriter.value(version, c, i)) {
            fail(path + " chunk " + c + ": element " + i + " is not from version " + version + ": a torn chunk");
          }
        }
        versions[c] = version;
      }
    }
    String state = path + ": chunk versions " + Arrays.toString(versions) + " after " + Arrays.toString(before)
        + " (run from version " + start + ")";
    int last = versions[0];
    int k = 0;
    while (k < CHUNKS && versions[k] == last) {
      k++;
    }
    if (last == before[0]) {
      assertArrayEquals(before, versions, state + ": changed without its first chunk");
    } else {
      assertTrue(last >= start, state);
      for (int c = k; c < CHUNKS; c++) {
        assertEquals(last > start ? last - 1 : before[c], versions[c], state + ": chunk " + c + " neither old nor new");
      }
    }
    JsonNode recorded = array.attributes().get("version");
    assertTrue(recorded != null && recorded.isInt(), path + ": attributes lost their version: " + array.attributes());
    int attr = recorded.intValue();
    int oldest = Arrays.stream(versions).min().getAsInt();
    assertTrue(attr <= oldest && (last <= start || attr >= last - 1), state + ": metadata says version " + attr);
    System.arraycopy(versions, 0, before, 0, CHUNKS);
    return versions;
  }

  private static void verifyListing(FileSystemStore store, List<String> paths) {
    Set<String> allowed = new HashSet<>();
    allowed.add("zarr.json");
    for (String path : paths) {
      allowed.add(path + "/zarr.json");
      for (int c = 0; c < CHUNKS; c++) {
        allowed.add(path + "/c/" + c);
      }
    }
    for (String key : store.list("")) {
      assertTrue(allowed.contains(key), "listing shows " + key);
    }
  }

  private Process startWriter(List<String> paths) throws IOException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
        "-cp", classpath, CrashWriter.class.getName(), dir.toString()));
    command.addAll(paths);
    return new ProcessBuilder(command)
        .redirectError(dir.resolveSibling(dir.getFileName() + "-writer.err").toFile())
        .start();
  }

  private void awaitReady(Process writer) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (!"ready".equals(line)) {
      File err = dir.resolveSibling(dir.getFileName() + "-writer.err").toFile();
      fail("the writer did not start (" + line + "): " + Files.readString(err.toPath()));
    }
  }
}
