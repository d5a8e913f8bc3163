package dev.zarrow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;

/** Writing the parts of Zarr v2 metadata that arrays and groups share. */
final class V2Writes {
  private V2Writes() {}

  /** {@code .zattrs} with {@code attributes}; none when they are empty (as zarr-python 2 does). */
  static void writeAttributes(WritableStore store, String path, ObjectNode attributes) {
    String key = ZarrNode.key(path, V2Metadata.ZATTRS);
    if (attributes.isEmpty()) {
      store.delete(key);
    } else {
      store.set(key, ByteBuffer.wrap(Json.prettyAscii(attributes)));
    }
  }
}
