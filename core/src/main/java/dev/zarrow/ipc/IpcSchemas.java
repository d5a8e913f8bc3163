package dev.zarrow.ipc;

import dev.zarrow.error.UnsupportedExtensionException;
import org.apache.arrow.flatbuf.Decimal;
import org.apache.arrow.flatbuf.Schema;
import org.apache.arrow.flatbuf.Type;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Checks of a schema message read from an untrusted IPC stream or file. */
final class IpcSchemas {
  private IpcSchemas() {}

  /** Arrow C++'s limit on nesting, which no real schema reaches. */
  static final int MAX_DEPTH = 64;
  /** Fields in one schema, counted over the whole tree. */
  static final int MAX_FIELDS = 1 << 20;

  /**
   * Refuses a flatbuffer schema nested deeper than {@link #MAX_DEPTH} or of more than {@link
   * #MAX_FIELDS} fields before it is converted (flatbuffer offsets can make a field its own
   * descendant, or share subtrees until the tree is exponentially large), and decimals of 32 and 64
   * bits, which Arrow Java 18 has no type for.
   */
  static void checkShape(Schema schema, long at) {
    try {
      int[] count = {0};
      for (int i = 0; i < schema.fieldsLength(); i++) {
        walk(schema.fields(i), 1, count, at);
      }
    } catch (dev.zarrow.error.ZarrException e) {
      throw e;
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, "unreadable schema (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static void walk(org.apache.arrow.flatbuf.Field field, int depth, int[] count, long at) {
    if (field == null) {
      throw IpcMessages.corrupt(at, "the schema has a missing field");
    }
    if (depth > MAX_DEPTH) {
      throw IpcMessages.corrupt(at, "the schema nests fields more than " + MAX_DEPTH + " deep");
    }
    if (++count[0] > MAX_FIELDS) {
      throw IpcMessages.corrupt(at, "the schema has more than " + MAX_FIELDS + " fields");
    }
    if (field.typeType() == Type.Decimal) {
      Decimal decimal = (Decimal) field.type(new Decimal());
      int bits = decimal == null ? 128 : decimal.bitWidth();
      if (bits != 128 && bits != 256) {
        throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + at + ": field '" + field.name()
            + "' is a " + bits + "-bit decimal, which Arrow Java 18 does not support (supported: 128, 256 bits)");
      }
    }
    for (int i = 0; i < field.childrenLength(); i++) {
      walk(field.children(i), depth + 1, count, at);
    }
  }

  /** Refuses unions in metadata version V4 (with validity bitmaps), which zarrow does not read. */
  static void checkSupported(org.apache.arrow.vector.types.pojo.Schema schema, boolean v4, long at) {
    for (Field field : schema.getFields()) {
      checkSupported(field, v4, at);
    }
  }

  private static void checkSupported(Field field, boolean v4, long at) {
    ArrowType type = field.getType();
    if (v4 && type instanceof ArrowType.Union) {
      throw new UnsupportedExtensionException("Arrow IPC stream, message at byte " + at + ": field '" + field.getName()
          + "' is a union in metadata version V4 (with a validity bitmap), which zarrow does not read");
    }
    for (Field child : field.getChildren()) {
      checkSupported(child, v4, at);
    }
  }
}
