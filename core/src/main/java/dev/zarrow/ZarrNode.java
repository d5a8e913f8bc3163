package dev.zarrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.store.Store;

/** A node of a Zarr hierarchy: an array or a group. Nodes are cheap values over a store they do not own. */
public sealed interface ZarrNode permits ZarrArray, ZarrGroup {

  /** The store the node lives in (borrowed: the node never closes it). */
  Store store();

  /** The path from the root, without leading or trailing {@code /}; empty for the root. */
  String path();

  /** The last segment of the path; empty for the root. */
  default String name() {
    String p = path();
    return p.substring(p.lastIndexOf('/') + 1);
  }

  /** The user attributes (a copy). */
  ObjectNode attributes();

  /** The options the node was opened with. */
  ZarrOptions options();

  /** The key of the {@code zarr.json} of the node at {@code path}. */
  static String metadataKey(String path) {
    return key(path, "zarr.json");
  }

  /** The key of {@code name} (such as {@code .zarray}) in the node at {@code path}. */
  static String key(String path, String name) {
    return path.isEmpty() ? name : path + "/" + name;
  }

  /**
   * The keys that make {@code path} a node, in the order a node is opened: {@code zarr.json}, then Zarr
   * v2's {@code .zarray} and {@code .zgroup}.
   */
  static java.util.List<String> nodeKeys(String path) {
    return java.util.List.of(metadataKey(path), key(path, dev.zarrow.metadata.V2Metadata.ZARRAY),
        key(path, dev.zarrow.metadata.V2Metadata.ZGROUP));
  }

  /**
   * True when {@code key} is metadata of the node at {@code path}: its {@code zarr.json}, or Zarr v2's
   * {@code .zarray}, {@code .zgroup} or {@code .zattrs} (not chunks, not stray keys).
   */
  static boolean isMetadataKey(String path, String key) {
    return nodeKeys(path).contains(key) || key.equals(key(path, dev.zarrow.metadata.V2Metadata.ZATTRS));
  }

  /** True when {@code store} holds a node (v3 or v2) at {@code path}. */
  static boolean exists(Store store, String path) {
    for (String key : nodeKeys(path)) {
      if (store.exists(key)) {
        return true;
      }
    }
    return false;
  }

  /** The key of the metadata document of a node of {@code zarrFormat} at {@code path}. */
  static String metadataKey(String path, int zarrFormat, boolean array) {
    return zarrFormat == 3 ? metadataKey(path)
        : key(path, array ? dev.zarrow.metadata.V2Metadata.ZARRAY : dev.zarrow.metadata.V2Metadata.ZGROUP);
  }

  /**
   * {@code path} without leading and trailing slashes; {@code ""} and {@code "/"} are the root. A path
   * that is not a valid store key (a {@code ..} segment, a backslash, a control character) is the
   * caller's mistake: an {@link IllegalArgumentException} naming it.
   */
  static String normalize(String path) {
    String p = path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.isEmpty()) {
      try {
        dev.zarrow.store.Keys.check(p);
      } catch (dev.zarrow.error.StoreException e) {
        throw new IllegalArgumentException("invalid node path: " + e.getMessage(), e);
      }
    }
    return p;
  }

  /** {@code child} below {@code parent}. */
  static String join(String parent, String child) {
    String c = normalize(child);
    return parent.isEmpty() ? c : c.isEmpty() ? parent : parent + "/" + c;
  }
}
