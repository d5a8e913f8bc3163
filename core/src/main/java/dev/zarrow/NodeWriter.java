package dev.zarrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.GroupMetadata;
import dev.zarrow.store.Keys;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Writes a whole node (an array and its chunks, or a group and everything below it) so that it exists
 * only once it is complete: a write that fails or is interrupted, even by {@code kill -9}, leaves the
 * old node whole or no node; never a mix, never a node that reads as complete and is not. Every writer
 * of whole nodes goes through it: {@link Zarr#createArray}, {@code TableWriter}, the command line's
 * {@code copy} and {@code import}.
 *
 * <p><b>Stores that rename</b> ({@link WritableStore#canRename}, any path but the root): the new node is
 * written beside the old one, at {@code PARENT/.NAME.new.zarrow-tmp} (a temporary name: never listed),
 * its metadata last. {@link #commit} then moves the old node aside ({@code .NAME.old.zarrow-tmp}), moves
 * the new one into its place and deletes the old: readers see the old node until the commit and the
 * new one after it. Only a crash in the instant between the two renames leaves no node at the path;
 * the next write of the path moves the old one back.
 *
 * <p><b>Other stores</b> (object stores, archives, and the root of any store): in place. The first
 * node made ({@link #array} or {@link #group}, once its metadata is checked) writes the marker key
 * {@code PATH/__zarrow_incomplete} ({@link #INCOMPLETE}), removes the old node's {@code zarr.json}
 * (from then on there is no node) and everything else below the path; the new
 * keys follow, each node's metadata after its content, the top node's {@code zarr.json} last, and then
 * the marker goes. Readers see the old node until the write begins, no node while it runs (a reader
 * that opened the old node before may read a mix of old and new chunks), and the new node once it is
 * committed.
 *
 * <p>{@link #begin} first removes what an interrupted write of the same path left: a node being
 * written, an old node set aside (moved back when nothing took its place); keys below a marker go
 * with the old node when the write in place starts. {@link #close} without {@link #commit} removes
 * what this write wrote.
 *
 * <pre>{@code
 * try (NodeWriter writer = NodeWriter.begin(store, "temps", options)) {
 *   ZarrArray array = writer.array("", metadata); // nothing is written yet
 *   array.write(offset, values);                  // chunks, out of sight
 *   writer.commit(array);                         // zarr.json last, then the swap
 * }
 * }</pre>
 *
 * <p>One writer per path at a time. The nodes it hands out are ordinary arrays and groups at the path
 * where the write happens ({@link #writePath}), which may be the temporary one.
 */
public final class NodeWriter implements AutoCloseable {
  /** The key below a path written in place that says the write has not finished. */
  public static final String INCOMPLETE = "__zarrow_incomplete";

  private static final String NEW = "new";
  private static final String OLD = "old";
  private static final byte[] MARKER = ("{\"zarrow\": \"a write of this node has not finished; the next write of this path"
      + " removes what it left\"}\n").getBytes(StandardCharsets.UTF_8);

  private final WritableStore store;
  private final String path;
  private final ZarrOptions options;
  private final boolean renaming;
  private final String writePath;
  private boolean started;
  private boolean finished;

  private NodeWriter(WritableStore store, String path, ZarrOptions options, boolean renaming) {
    this.store = store;
    this.path = path;
    this.options = options;
    this.renaming = renaming;
    this.writePath = renaming ? Keys.temporarySibling(path, NEW) : path;
  }

  /**
   * Starts writing the node at {@code path}, replacing whatever node is there when {@link #commit}
   * succeeds (on stores without rename and at the root: from the first node made). Removes what an
   * interrupted write of the path left. A path below an array is refused: nodes do not nest in arrays.
   */
  public static NodeWriter begin(WritableStore store, String path, ZarrOptions options) {
    String p = ZarrNode.normalize(path);
    refuseArrayAbove(store, p, options);
    NodeWriter writer = new NodeWriter(store, p, options, !p.isEmpty() && store.canRename());
    if (writer.renaming) {
      writer.recover();
    }
    return writer;
  }

  /** In place, before the first key is written: the marker, then the old node goes. */
  private void start() {
    if (started) {
      return;
    }
    started = true;
    if (!renaming) {
      store.set(marker(path), ByteBuffer.wrap(MARKER));
      for (String key : ZarrNode.nodeKeys(path)) {
        store.delete(key); // the old node is gone from here on
      }
      clearBelow();
    }
  }

  private static void refuseArrayAbove(Store store, String path, ZarrOptions options) {
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      String above = path.substring(0, slash);
      if (Zarr.tryOpen(store, above, options).orElse(null) instanceof ZarrArray) {
        throw new ZarrException("cannot write '" + path + "' in " + store.describe() + ": '" + above
            + "' is an array, and nodes do not nest in arrays");
      }
    }
    if (!path.isEmpty() && Zarr.tryOpen(store, "", options).orElse(null) instanceof ZarrArray) {
      throw new ZarrException("cannot write '" + path + "' in " + store.describe()
          + ": the root is an array, and nodes do not nest in arrays");
    }
  }

  /** Moves back an old node an interrupted commit set aside with nothing in its place; drops the rest. */
  private void recover() {
    String old = Keys.temporarySibling(path, OLD);
    if (!store.list(old + "/").isEmpty() && store.list(path + "/").isEmpty()) {
      store.rename(old, path);
    }
    store.deletePrefix(old + "/");
    store.deletePrefix(writePath + "/");
  }

  /**
   * Removes what an interrupted write in place left below {@code path} (a group about to be created
   * there must not adopt it).
   */
  static void dropIncomplete(WritableStore store, String path) {
    if (store.exists(marker(path))) {
      NodeWriter leftovers = new NodeWriter(store, path, ZarrOptions.defaults(), false);
      leftovers.started = true;
      leftovers.close();
    }
  }

  private static String marker(String path) {
    return path.isEmpty() ? INCOMPLETE : path + "/" + INCOMPLETE;
  }

  /** Removes everything below the path but the marker (in place). */
  private void clearBelow() {
    String prefix = path.isEmpty() ? "" : path + "/";
    Store.Listing level = store.listDir(prefix);
    for (String key : level.keys()) {
      if (!key.equals(marker(path))) {
        store.delete(key);
      }
    }
    for (String child : level.prefixes()) {
      store.deletePrefix(child);
    }
    for (String temporary : level.temporaries()) {
      store.deletePrefix(temporary + "/");
      store.delete(temporary);
    }
  }

  /** The path of the node being written (where it will be once committed). */
  public String path() {
    return path;
  }

  /**
   * Where the node is written until {@link #commit}: a temporary sibling of {@link #path} on stores
   * that rename, the path itself elsewhere.
   */
  public String writePath() {
    return writePath;
  }

  /**
   * The array {@code relativePath} below the node being written ({@code ""}: the node itself),
   * described by {@code metadata} (checked now); nothing is written. Write its chunks, then {@link
   * #claim} it (or {@link #commit} it when it is the node itself).
   */
  public ZarrArray array(String relativePath, ArrayMetadata metadata) {
    ZarrArray array = ZarrArray.of(store, ZarrNode.join(writePath, relativePath), metadata, options);
    start();
    return array;
  }

  /**
   * The group {@code relativePath} below the node being written ({@code ""}: the node itself) with
   * {@code attributes}; nothing is written.
   */
  public ZarrGroup group(String relativePath, ObjectNode attributes) {
    return group(relativePath, GroupMetadata.empty().withAttributes(attributes));
  }

  /**
   * The group {@code relativePath} below the node being written ({@code ""}: the node itself) with
   * {@code metadata} (its format, attributes and extensions); nothing is written.
   */
  public ZarrGroup group(String relativePath, GroupMetadata metadata) {
    start();
    return new ZarrGroup(store, ZarrNode.join(writePath, relativePath), metadata, options);
  }

  /** Writes the metadata of {@code node}, a node of this write below its top, once its content is complete. */
  public void claim(ZarrNode node) {
    if (!node.path().startsWith(writePath.isEmpty() ? "" : writePath + "/") || node.path().equals(writePath)) {
      throw new IllegalArgumentException("'" + node.path() + "' is not below '" + writePath + "', the node this writer writes");
    }
    writeMetadata(node);
  }

  private static void writeMetadata(ZarrNode node) {
    if (node instanceof ZarrArray a) {
      a.writeMetadata();
    } else {
      ((ZarrGroup) node).writeMetadata();
    }
  }

  /**
   * Claims {@code top} (the node itself, from {@link #array} or {@link #group} with {@code ""}): writes
   * its metadata last, creates missing parent groups, and swaps it in. Returns the node at {@link
   * #path}.
   */
  public ZarrNode commit(ZarrNode top) {
    return commit(top, false);
  }

  /**
   * {@link #commit(ZarrNode)}, with {@code consolidate}: the group {@code top}'s hierarchy consolidated
   * ({@link ConsolidatedMetadata#consolidate}, in its format) before it is swapped in, so that the node
   * appears with its consolidated metadata or not at all.
   */
  public ZarrNode commit(ZarrNode top, boolean consolidate) {
    if (consolidate && !(top instanceof ZarrGroup)) {
      throw new IllegalArgumentException("'" + top.path() + "' is an array; only a group's hierarchy is consolidated");
    }
    if (finished) {
      throw new IllegalStateException("the write of '" + path + "' is finished");
    }
    if (!top.path().equals(writePath) || top.store() != store) {
      throw new IllegalArgumentException("'" + top.path() + "' is not the node this writer writes ('" + writePath + "')");
    }
    writeMetadata(top);
    if (consolidate) {
      ConsolidatedMetadata.consolidate(store, writePath);
    }
    Zarr.createParents(store, path, top instanceof ZarrArray a ? a.metadata().zarrFormat()
        : ((ZarrGroup) top).metadata().zarrFormat(), options);
    if (renaming) {
      String old = Keys.temporarySibling(path, OLD);
      store.rename(path, old);
      try {
        store.rename(writePath, path);
      } catch (RuntimeException e) {
        try {
          store.rename(old, path); // the old node back in its place
        } catch (RuntimeException again) {
          e.addSuppressed(again);
        }
        throw e;
      }
      finished = true;
      store.deletePrefix(old + "/");
    } else {
      store.delete(marker(path));
      finished = true;
    }
    ConsolidatedMetadata.dropAbove(store, path); // stale now: never hide what was just written
    return top instanceof ZarrArray a
        ? ZarrArray.of(store, path, a.metadata(), options)
        : consolidate ? Zarr.openGroup(store, path, options) : new ZarrGroup(store, path, ((ZarrGroup) top).metadata(), options);
  }

  /** Without {@link #commit}: removes what this write wrote, leaving the old node (or, in place, none). */
  @Override
  public void close() {
    if (finished) {
      return;
    }
    finished = true;
    if (renaming) {
      store.deletePrefix(writePath + "/");
    } else if (started) {
      clearBelow();
      store.delete(marker(path));
    }
  }

  /**
   * The path of the node whose write left {@code key} behind, when {@code key} is such a leftover: a
   * node being written or set aside ({@code PARENT/.NAME.new.zarrow-tmp}, {@code .NAME.old.zarrow-tmp})
   * or the marker of a write in place ({@code PATH/__zarrow_incomplete}). For {@code check}.
   */
  public static Optional<String> interruptedWriteOf(String key) {
    int slash = key.lastIndexOf('/');
    String parent = key.substring(0, slash + 1);
    String name = key.substring(slash + 1);
    if (name.equals(INCOMPLETE)) {
      return Optional.of(slash < 0 ? "" : key.substring(0, slash));
    }
    for (String tag : new String[] {NEW, OLD}) {
      String end = "." + tag + Keys.TEMPORARY_SUFFIX;
      if (Keys.isTemporary(name) && name.endsWith(end) && name.length() > end.length() + 1) {
        return Optional.of(parent + name.substring(1, name.length() - end.length()));
      }
    }
    return Optional.empty();
  }
}
