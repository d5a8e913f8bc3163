package dev.zarrow.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.NodeWriter;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.ZarrException;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Store;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow check STORE [PATH]}: reads every {@code zarr.json} below PATH and decodes every stored
 * chunk of every array (checksums, sizes, and whatever structure the codecs verify: shard indexes,
 * offsets, IPC), then prints
 * {@code {"arrays": N, "chunks": N, "checksummed": N, "only_decoded": N, "bytes": N, "problems": [{"key": K,
 * "error": E}], "ignored_keys": [K]}}. {@code chunks} counts stored chunk keys (a shard is one) and
 * {@code bytes} their stored size. Of them, {@code checksummed} were verified by a checksum: crc32c
 * covers every one of their bytes (the array's codec chain has {@code crc32c}; for a shard, both its
 * inner chunks' chain and its index's chain have one, so that a flipped byte anywhere in it is caught)
 * and checksums are verified (not {@code --no-verify-checksums}). The others, {@code only_decoded},
 * were only decoded: a flipped byte in them can decode to other values unnoticed, so stderr says how
 * many there are. {@code ignored_keys} are keys no reader looks
 * at (under an array but not a chunk of its grid; under a group but in no node): listed, not problems.
 * What an interrupted write left ({@link NodeWriter}: a node being written or set aside, hidden
 * beside its path; keys below a write-in-place marker) is a problem, named by its key. Exit code 3
 * when there is any problem.
 */
@Command(
    name = "check",
    description = {
      "Decode and verify every stored chunk of every array below PATH.",
      "Prints {\"arrays\",\"chunks\",\"checksummed\",\"only_decoded\",\"bytes\",\"problems\":[{\"key\",\"error\"}],"
          + "\"ignored_keys\"}: checksummed chunks were verified by crc32c over all their bytes (a shard: its inner"
          + " chunks and its index), only_decoded ones have no checksum. Exit 3 when any problem is found."
    })
final class CheckCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String store;

  @Parameters(index = "1", arity = "0..1", paramLabel = "PATH", defaultValue = "", description = "Where to start (default: the root).")
  String path;

  @Override
  public Integer call() {
    String p = nodePath(path);
    ObjectNode summary;
    try (Store s = openExisting(store)) {
      Zarr.open(s, p, options()); // a missing start node is an error of its own, not a problem found
      summary = run(s, p, options());
    }
    printJson(summary);
    int problems = summary.get("problems").size();
    long unchecked = summary.get("only_decoded").asLong();
    if (unchecked > 0) {
      err().println("zarrow: check: " + unchecked + " of " + summary.get("chunks").asLong() + (main.noVerifyChecksums
          ? " chunks decoded, their checksums not verified (--no-verify-checksums)"
          : " chunks have no checksum (no crc32c in their codecs): decoded, not verified"));
    }
    if (problems > 0) {
      err().println("zarrow: check found " + problems + (problems == 1 ? " problem" : " problems"));
      return Main.DATA_ERROR;
    }
    return Main.OK;
  }

  private static final String CRC32C = "crc32c";

  private record Problem(String key, String error) {}

  /** Checks everything below {@code path}; the summary JSON. */
  static ObjectNode run(Store store, String path, ZarrOptions options) {
    Walk walk = new Walk(store, options);
    // Over malloc, not Netty (Arrow's default here), whose set-up on a JVM's first allocator costs more
    // than decoding a large array: check allocates a few large buffers, lent from chunk to chunk.
    try (BufferAllocator allocator = new RootAllocator(
        RootAllocator.configBuilder().allocationManagerFactory(UnsafeAllocationManager.FACTORY).build())) {
      walk.node(path, allocator);
    }
    walk.problems.sort(Comparator.comparing(Problem::key));
    walk.ignored.sort(Comparator.naturalOrder());
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("arrays", walk.arrays);
    out.put("chunks", walk.chunks.get());
    out.put("checksummed", walk.checksummed.get());
    out.put("only_decoded", walk.chunks.get() - walk.checksummed.get());
    out.put("bytes", walk.bytes.get());
    ArrayNode problems = out.putArray("problems");
    for (Problem p : walk.problems) {
      problems.addObject().put("key", p.key()).put("error", p.error());
    }
    ArrayNode ignored = out.putArray("ignored_keys");
    walk.ignored.forEach(ignored::add);
    return out;
  }

  private static final class Walk {
    final Store store;
    final ZarrOptions options;
    final List<Problem> problems = new ArrayList<>();
    final List<String> ignored = new ArrayList<>();
    final AtomicLong chunks = new AtomicLong();
    final AtomicLong checksummed = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    long arrays;

    Walk(Store store, ZarrOptions options) {
      this.store = store;
      this.options = options;
    }

    void node(String path, BufferAllocator allocator) {
      ZarrNode node;
      try {
        node = Zarr.open(store, path, options);
      } catch (ZarrException e) {
        problem(ZarrNode.metadataKey(path), e);
        return;
      }
      try {
        if (node instanceof ZarrArray array) {
          array(array, allocator);
        } else {
          group((ZarrGroup) node, allocator);
        }
      } catch (ZarrException e) { // listing the store failed
        problem(ZarrNode.metadataKey(path), e);
      }
    }

    void group(ZarrGroup group, BufferAllocator allocator) {
      String prefix = group.path().isEmpty() ? "" : group.path() + "/";
      Store.Listing level = store.listDir(prefix);
      for (String key : level.keys()) {
        if (!ZarrNode.isMetadataKey(group.path(), key) && !interrupted(key, 0)) {
          ignored.add(key);
        }
      }
      for (String temporary : level.temporaries()) {
        interrupted(temporary + "/", 0);
      }
      for (String child : level.prefixes()) {
        String childPath = child.substring(0, child.length() - 1);
        if (ZarrNode.exists(store, childPath)) {
          node(childPath, allocator);
        } else {
          List<String> keys = store.list(child);
          if (!keys.contains(child + NodeWriter.INCOMPLETE) || !interrupted(child + NodeWriter.INCOMPLETE, keys.size())) {
            ignored.addAll(keys);
          }
        }
      }
    }

    /**
     * Reports {@code key} as a leftover of an interrupted write when it is one (with the {@code keys}
     * that write left, when it left no node); false when it is not.
     */
    boolean interrupted(String key, int keys) {
      String k = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
      return NodeWriter.interruptedWriteOf(k).map(node -> {
        String path = node.isEmpty() ? "/" : node;
        problems.add(new Problem(key, keys > 0
            ? "an interrupted write of '" + path + "' left " + keys + " keys here and no node; the next write of '" + path + "' removes them"
            : key.endsWith("/")
                ? "left by an interrupted write of '" + path + "' (part of no node); the next write of '" + path + "' removes it"
                    + " (or moves the old node back when nothing took its place)"
                : "the marker of a write of '" + path + "' that did not finish; the next write of '" + path + "' removes it"));
        return true;
      }).orElse(false);
    }

    void array(ZarrArray array, BufferAllocator allocator) {
      arrays++;
      StoredKeys keys = StoredKeys.of(array);
      keys.ignored().stream().filter(k -> !interrupted(k, 0)).forEach(ignored::add);
      List<Problem> found = new ArrayList<>();
      boolean verified = options.codecs().verifyChecksums() && checksummed(array.metadata().codecs());
      // Each task decodes one chunk and frees it at once: memory stays at a chunk per thread. Working
      // memory is lent from task to task: fresh memory costs a page fault per 4 KiB on first touch, more
      // than decoding it.
      try (ScratchBuffers scratch = new ScratchBuffers(allocator, "check of '" + array.path() + "'")) {
        List<CompletableFuture<Void>> tasks = new ArrayList<>();
        for (StoredKeys.Chunk chunk : keys.chunks()) {
          tasks.add(CompletableFuture.runAsync(() -> verify(array, chunk, verified, found, scratch, allocator), options.executor()));
        }
        CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).join(); // a bug (not a ZarrException) ends the check
      }
      problems.addAll(found);
    }

    private void verify(ZarrArray array, StoredKeys.Chunk chunk, boolean verified, List<Problem> found,
        ScratchBuffers scratch, BufferAllocator allocator) {
      try {
        Optional<ByteSource> stored = store.source(chunk.key());
        if (stored.isEmpty()) {
          return; // deleted while we looked: nothing to verify
        }
        try (ByteSource source = stored.get()) {
          counted(source.size(), verified);
          // A shard's inner chunks are decoded (in parallel) and checked, never assembled into one vector;
          // a chunk larger than any of its spec is refused from its size, before it is read.
          array.pipeline().verify(source, allocator, scratch);
        }
      } catch (ZarrException e) {
        synchronized (found) {
          found.add(new Problem(chunk.key(), Main.oneLine(e.getMessage())));
        }
      }
    }

    private void counted(long size, boolean verified) {
      bytes.addAndGet(size);
      chunks.incrementAndGet();
      if (verified) {
        checksummed.incrementAndGet();
      }
    }

    /**
     * Whether crc32c covers every byte {@code codecs} store: one of them is crc32c, or the serializer
     * is a shard whose inner chunks and index are both covered.
     */
    static boolean checksummed(List<NamedConfig> codecs) {
      for (NamedConfig c : codecs) {
        if (c.name().equals(CRC32C)) {
          return true;
        }
      }
      for (NamedConfig c : codecs) {
        if (c.name().equals(Layout.SHARDING) && c.config() != null) {
          try {
            return checksummed(Layout.codecList(c.config().path("codecs"), "codecs"))
                && checksummed(Layout.codecList(c.config().path("index_codecs"), "index_codecs"));
          } catch (ZarrException e) {
            return false; // the array opened, so this cannot happen; count it as not verified
          }
        }
      }
      return false;
    }

    void problem(String key, ZarrException e) {
      problems.add(new Problem(key, Main.oneLine(e.getMessage())));
    }
  }
}
