package dev.zarrow.codec.arrow;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.ipc.IpcMessages;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.flatbuf.DictionaryEncoding;
import org.apache.arrow.flatbuf.Endianness;
import org.apache.arrow.flatbuf.Int;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Type;
import org.apache.arrow.flatbuf.Union;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Checks the schema message of a chunk against the field the array expects, walking the flatbuffer
 * alongside the expected field: the recursion follows the expected (finite, validated) tree, so a
 * hostile schema with cycles or huge counts cannot make it loop or allocate. Names, nullability and
 * metadata may differ (any single column is accepted); types, children and dictionary encodings
 * (index types) must match. Dictionary ids may differ: the result maps the stream's ids to the
 * field's.
 */
final class StreamSchema {
  private StreamSchema() {}

  static Map<Long, Long> check(Schema schema, Field expected, long at, boolean v4) {
    Map<Long, Long> ids = new HashMap<>();
    Map<Long, Long> back = new HashMap<>();
    try {
      if (schema == null) {
        throw IpcMessages.corrupt(at, "schema message without a schema");
      }
      if (schema.endianness() != Endianness.Little) {
        throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + at
            + ": big-endian data is not supported");
      }
      int columns = schema.fieldsLength();
      if (columns != 1) {
        throw IpcMessages.corrupt(at, "the schema has " + columns + " columns; a chunk holds exactly one");
      }
      compare(schema.fields(0), expected, "column", ids, back, at, v4);
      return ids;
    } catch (CorruptChunkException | UnsupportedExtensionException e) {
      throw e;
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, "unreadable schema (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static void compare(
      org.apache.arrow.flatbuf.Field actual, Field expected, String path, Map<Long, Long> ids, Map<Long, Long> back,
      long at, boolean v4) {
    if (actual == null) {
      throw IpcMessages.corrupt(at, path + ": missing field");
    }
    if (actual.typeType() == Type.Union) {
      if (v4) {
        throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + at
            + ": unions in metadata version V4 (with validity bitmaps) are not supported");
      }
      Union union = (Union) actual.type(new Union());
      if (union == null || union.typeIdsLength() < 0 || union.typeIdsLength() > 128) {
        throw IpcMessages.corrupt(at, path + ": malformed union type");
      }
    }
    ArrowType type;
    try {
      type = ArrowType.getTypeForField(actual);
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, path + ": unreadable type (" + e.getMessage() + ")");
    }
    if (!type.equals(expected.getType())) {
      throw IpcMessages.corrupt(at, path + " is of type " + type + ", the array's field '" + expected.getName()
          + "' of type " + expected.getType());
    }
    DictionaryEncoding dictionary = actual.dictionary();
    org.apache.arrow.vector.types.pojo.DictionaryEncoding want = expected.getDictionary();
    if ((dictionary == null) != (want == null)) {
      throw IpcMessages.corrupt(at, path + (want == null ? " is dictionary-encoded, the array's field is not"
          : " is not dictionary-encoded, the array's field is"));
    }
    if (dictionary != null) {
      Int index = dictionary.indexType();
      int bits = index == null ? 32 : index.bitWidth();
      boolean signed = index == null || index.isSigned();
      ArrowType.Int wantIndex = want.getIndexType();
      if (bits != wantIndex.getBitWidth() || signed != wantIndex.getIsSigned()) {
        throw IpcMessages.corrupt(at, path + " has dictionary indices of " + (signed ? "int" : "uint") + bits
            + ", the array's field " + wantIndex);
      }
      // One stream id per dictionary of the field, both ways, or batches would decode wrongly.
      Long known = ids.putIfAbsent(dictionary.id(), want.getId());
      Long knownBack = back.putIfAbsent(want.getId(), dictionary.id());
      if ((known != null && known != want.getId()) || (knownBack != null && knownBack != dictionary.id())) {
        throw IpcMessages.corrupt(at, path + ": dictionary id " + dictionary.id()
            + " does not match the array field's dictionaries one to one");
      }
    }
    int children = actual.childrenLength();
    if (children != expected.getChildren().size()) {
      throw IpcMessages.corrupt(at, path + " has " + children + " children, the array's field "
          + expected.getChildren().size());
    }
    for (int i = 0; i < children; i++) {
      compare(actual.children(i), expected.getChildren().get(i), path + " child " + i, ids, back, at, v4);
    }
  }
}
