package dev.zarrow;

import dev.zarrow.error.MetadataException;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.ZarrException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.GroupMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Entry point: open and create Zarr v3 (and v2: {@link dev.zarrow.metadata.V2Metadata}) arrays and groups in a store. Paths are {@code /}-separated
 * from the store root ({@code ""} or {@code "/"} is the root).
 *
 * <pre>{@code
 * try (var store = FileSystemStore.open(Path.of("data.zarr"));
 *      var allocator = new RootAllocator()) {
 *   ZarrArray a = Zarr.createArray(store, "temps", ArraySpec.of(FixedType.FLOAT32, 1000, 1000).chunks(100, 100));
 *   try (NdVector region = a.read(new Box(new long[] {0, 0}, new long[] {10, 10}), allocator)) { ... }
 * }
 * }</pre>
 */
public final class Zarr {
  private Zarr() {}

  /** The node at {@code path}; a missing one is a {@link NoSuchNodeException}. */
  public static ZarrNode open(Store store, String path) {
    return open(store, path, ZarrOptions.defaults());
  }

  public static ZarrNode open(Store store, String path, ZarrOptions options) {
    String p = ZarrNode.normalize(path);
    return tryOpen(store, p, options)
        .orElseThrow(() -> new NoSuchNodeException("no array or group at '" + p + "' in " + store.describe()
            + " (no " + ZarrNode.metadataKey(p) + ")"));
  }

  /**
   * The node at {@code path}, or empty when there is none. Its {@code zarr.json} is read first; without
   * one, a Zarr v2 {@code .zarray}, then {@code .zgroup} (attributes from {@code .zattrs}), converted to the
   * v3 model and kept as v2 ({@link V2Metadata}).
   */
  public static Optional<ZarrNode> tryOpen(Store store, String path, ZarrOptions options) {
    String p = ZarrNode.normalize(path);
    String key = ZarrNode.metadataKey(p);
    String what = key + " in " + store.describe();
    Optional<JsonNode> document = readDocument(store, key);
    if (document.isPresent()) {
      JsonNode doc = document.get();
      JsonNode type = doc.get("node_type");
      if (type != null && "group".equals(type.asText())) {
        return Optional.of(new ZarrGroup(store, p, GroupMetadata.parse(doc, what), options));
      }
      return Optional.of(ZarrArray.of(store, p, ArrayMetadata.parse(doc, what), options));
    }
    String zarrayKey = ZarrNode.key(p, V2Metadata.ZARRAY);
    Optional<JsonNode> zarray = readDocument(store, zarrayKey);
    if (zarray.isPresent()) {
      JsonNode zattrs = readDocument(store, ZarrNode.key(p, V2Metadata.ZATTRS)).orElse(null);
      return Optional.of(ZarrArray.of(store, p,
          V2Metadata.parseArray(zarray.get(), zattrs, zarrayKey + " in " + store.describe()), options));
    }
    String zgroupKey = ZarrNode.key(p, V2Metadata.ZGROUP);
    Optional<JsonNode> zgroup = readDocument(store, zgroupKey);
    if (zgroup.isPresent()) {
      JsonNode zattrs = readDocument(store, ZarrNode.key(p, V2Metadata.ZATTRS)).orElse(null);
      return Optional.of(new ZarrGroup(store, p,
          V2Metadata.parseGroup(zgroup.get(), zattrs, zgroupKey + " in " + store.describe()), options));
    }
    return Optional.empty();
  }

  /** The JSON document at {@code key}, or empty when there is none. */
  private static Optional<JsonNode> readDocument(Store store, String key) {
    String what = key + " in " + store.describe();
    // One request on a network store (the hint fetches up to the limit); an oversized document is
    // refused before it is read whole.
    ByteBuffer bytes;
    Optional<ByteSource> source = store.source(key, ByteRange.of(0, Json.MAX_DOCUMENT_BYTES + 1L));
    if (source.isEmpty()) {
      return Optional.empty();
    }
    try (ByteSource document = source.get()) {
      if (document.size() > Json.MAX_DOCUMENT_BYTES) {
        throw new MetadataException(what + ": document of " + document.size() + " bytes exceeds the limit of " + Json.MAX_DOCUMENT_BYTES);
      }
      bytes = document.readAll();
    }
    return Optional.of(Json.parse(bytes, what));
  }

  public static ZarrArray openArray(Store store, String path) {
    return openArray(store, path, ZarrOptions.defaults());
  }

  public static ZarrArray openArray(Store store, String path, ZarrOptions options) {
    ZarrNode node = open(store, path, options);
    if (node instanceof ZarrArray a) {
      return a;
    }
    throw new NoSuchNodeException("'" + node.path() + "' in " + store.describe() + " is a group, not an array");
  }

  public static ZarrGroup openGroup(Store store, String path) {
    return openGroup(store, path, ZarrOptions.defaults());
  }

  public static ZarrGroup openGroup(Store store, String path, ZarrOptions options) {
    ZarrNode node = open(store, path, options);
    if (node instanceof ZarrGroup g) {
      return g;
    }
    throw new NoSuchNodeException("'" + node.path() + "' in " + store.describe() + " is an array, not a group");
  }

  public static ZarrArray createArray(WritableStore store, String path, ArraySpec spec) {
    return createArray(store, path, spec, ZarrOptions.defaults());
  }

  /**
   * Creates the array {@code path} (of no stored chunks: every element the fill value), replacing
   * whatever node was there and creating missing parent groups. The metadata is checked (data type,
   * codecs) before anything is written; the old node is replaced whole, as {@link NodeWriter} does.
   */
  public static ZarrArray createArray(WritableStore store, String path, ArraySpec spec, ZarrOptions options) {
    return createArray(store, path, spec.toMetadata(), options);
  }

  public static ZarrArray createArray(WritableStore store, String path, ArrayMetadata metadata, ZarrOptions options) {
    String p = ZarrNode.normalize(path);
    ZarrArray.of(store, p, metadata, options); // checked before anything changes
    try (NodeWriter writer = NodeWriter.begin(store, p, options)) {
      return (ZarrArray) writer.commit(writer.array("", metadata));
    }
  }

  public static ZarrGroup createGroup(WritableStore store, String path) {
    return createGroup(store, path, ZarrOptions.defaults());
  }

  /** Creates the group {@code path} and missing parents; an existing group is kept as it is. */
  public static ZarrGroup createGroup(WritableStore store, String path, ZarrOptions options) {
    return createGroup(store, path, 3, options);
  }

  /**
   * Creates the group {@code path} and missing parents in {@code zarrFormat} (3: {@code zarr.json}; 2:
   * {@code .zgroup} and {@code .zattrs}); an existing group, of either format, is kept as it is.
   */
  public static ZarrGroup createGroup(WritableStore store, String path, int zarrFormat, ZarrOptions options) {
    if (zarrFormat != 2 && zarrFormat != 3) {
      throw new IllegalArgumentException("zarr format " + zarrFormat + ": expected 2 or 3");
    }
    String p = ZarrNode.normalize(path);
    createParents(store, p, zarrFormat, options);
    Optional<ZarrNode> existing = tryOpen(store, p, options);
    if (existing.isPresent() && existing.get() instanceof ZarrGroup g) {
      return g;
    }
    if (existing.isPresent()) {
      throw new ZarrException("cannot create group '" + p + "': an array is there");
    }
    NodeWriter.dropIncomplete(store, p);
    ZarrGroup group = new ZarrGroup(store, p, GroupMetadata.empty().withZarrFormat(zarrFormat), options);
    group.writeMetadata();
    ConsolidatedMetadata.dropAbove(store, p);
    return group;
  }

  /** Creates the missing groups above {@code path}, in {@code zarrFormat}. */
  static void createParents(WritableStore store, String path, int zarrFormat, ZarrOptions options) {
    int slash = path.lastIndexOf('/');
    String parent = path.isEmpty() ? null : slash < 0 ? "" : path.substring(0, slash);
    if (parent != null && !ZarrNode.exists(store, parent)) {
      createGroup(store, parent, zarrFormat, options);
    }
  }
}
