package dev.zarrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.ZarrException;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.GroupMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A Zarr group (v3, or v2 kept as v2): attributes and children, over a store it does not own. Immutable. */
public final class ZarrGroup implements ZarrNode {
  private final Store store;
  private final String path;
  private final GroupMetadata metadata;
  private final ZarrOptions options;

  ZarrGroup(Store store, String path, GroupMetadata metadata, ZarrOptions options) {
    this.store = store;
    this.path = path;
    this.metadata = metadata;
    this.options = options;
  }

  @Override
  public Store store() {
    return store;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public ZarrOptions options() {
    return options;
  }

  public GroupMetadata metadata() {
    return metadata;
  }

  @Override
  public ObjectNode attributes() {
    return metadata.attributes().deepCopy();
  }

  /**
   * The names of the direct children (arrays and groups, i.e. prefixes holding a {@code zarr.json}, or Zarr
   * v2's {@code .zarray} or {@code .zgroup}), sorted.
   */
  public List<String> childNames() {
    String prefix = path.isEmpty() ? "" : path + "/";
    return store.listDir(prefix).prefixes().stream()
        .map(p -> p.substring(prefix.length(), p.length() - 1))
        .filter(name -> ZarrNode.exists(store, ZarrNode.join(path, name)))
        .toList();
  }

  /**
   * The direct children, in name order: every one that opens, and for each other one (a bad
   * {@code zarr.json}, an unsupported extension, a store error reading it) the {@link ZarrException}
   * that says why, so that one broken node hides none of its siblings. {@link Children#all()} is the
   * strict form: every child, or the first failure thrown.
   */
  public Children children() {
    Map<String, ZarrNode> nodes = new LinkedHashMap<>();
    Map<String, ZarrException> failures = new LinkedHashMap<>();
    for (String name : childNames()) {
      try {
        nodes.put(name, Zarr.open(store, ZarrNode.join(path, name), options));
      } catch (ZarrException e) {
        failures.put(name, e);
      }
    }
    return new Children(nodes, failures);
  }

  /**
   * The direct children of a group.
   *
   * @param nodes the children that opened, by name, in name order
   * @param failures the children that did not, by name, in name order, each with why
   */
  public record Children(Map<String, ZarrNode> nodes, Map<String, ZarrException> failures) {
    public Children {
      nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
      failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    /** True when every child opened. */
    public boolean complete() {
      return failures.isEmpty();
    }

    /** Every child, when all of them opened; otherwise the first failure (in name order) is thrown. */
    public Map<String, ZarrNode> all() {
      if (!failures.isEmpty()) {
        throw failures.values().iterator().next();
      }
      return nodes;
    }
  }

  /** The node at {@code relativePath} below this group, or empty. */
  public Optional<ZarrNode> get(String relativePath) {
    return Zarr.tryOpen(store, ZarrNode.join(path, relativePath), options);
  }

  /** The array at {@code relativePath}; a missing one or a group is a {@link dev.zarrow.error.NoSuchNodeException}. */
  public ZarrArray array(String relativePath) {
    return Zarr.openArray(store, ZarrNode.join(path, relativePath), options);
  }

  /** The group at {@code relativePath}; a missing one or an array is a {@link dev.zarrow.error.NoSuchNodeException}. */
  public ZarrGroup group(String relativePath) {
    return Zarr.openGroup(store, ZarrNode.join(path, relativePath), options);
  }

  /** Creates (or replaces) the array {@code relativePath} below this group. */
  public ZarrArray createArray(String relativePath, ArraySpec spec) {
    return Zarr.createArray(writable(), ZarrNode.join(path, relativePath), spec, options);
  }

  /** Creates the group {@code relativePath} below this group (keeping one that exists). */
  public ZarrGroup createGroup(String relativePath) {
    return Zarr.createGroup(writable(), ZarrNode.join(path, relativePath), metadata.zarrFormat(), options);
  }

  /** Replaces the attributes, writing the metadata; returns the updated group. */
  public ZarrGroup withAttributes(ObjectNode attributes) {
    ZarrGroup updated = new ZarrGroup(store, path, metadata.withAttributes(attributes), options);
    updated.writeMetadata();
    ConsolidatedMetadata.dropAbove(writable(), path);
    return updated;
  }

  void writeMetadata() {
    WritableStore out = writable();
    if (metadata.zarrFormat() == 2) {
      V2Writes.writeAttributes(out, path, metadata.attributes());
      out.set(ZarrNode.key(path, V2Metadata.ZGROUP), ByteBuffer.wrap(Json.prettyAscii(V2Metadata.zgroup())));
    } else {
      out.set(ZarrNode.metadataKey(path), ByteBuffer.wrap(Json.pretty(metadata.toJson())));
    }
  }

  private WritableStore writable() {
    if (store instanceof WritableStore w) {
      return w;
    }
    throw new IllegalStateException("group '" + path + "': " + store.describe() + " is read-only");
  }

  @Override
  public String toString() {
    return "ZarrGroup('" + path + "')";
  }
}
