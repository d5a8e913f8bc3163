package dev.zarrow.codec.numcodecs;

import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.MetadataException;

/**
 * A numeric numpy data type string as numcodecs writes it ({@code dtype.str}: {@code "<i4"},
 * {@code ">f8"}, {@code "|u1"}) and the zarrow type of its values. The codecs here compute on values, so
 * the byte order matters only to the serializer after them.
 *
 * @param text the string as read
 * @param type the integer or floating-point type of the values
 * @param bigEndian true for {@code '>'}
 */
record NumpyType(String text, FixedType type, boolean bigEndian) {

  static NumpyType parse(String text) {
    String s = text;
    boolean big = false;
    if (!s.isEmpty() && "<>|=".indexOf(s.charAt(0)) >= 0) {
      big = s.charAt(0) == '>';
      s = s.substring(1);
    }
    FixedType type =
        switch (s) {
          case "i1", "b" -> FixedType.INT8;
          case "i2" -> FixedType.INT16;
          case "i4" -> FixedType.INT32;
          case "i8" -> FixedType.INT64;
          case "u1", "B" -> FixedType.UINT8;
          case "u2" -> FixedType.UINT16;
          case "u4" -> FixedType.UINT32;
          case "u8" -> FixedType.UINT64;
          case "f2" -> FixedType.FLOAT16;
          case "f4" -> FixedType.FLOAT32;
          case "f8" -> FixedType.FLOAT64;
          default -> throw new MetadataException(
              "'" + text + "' is not a numeric numpy dtype these codecs handle (i1..i8, u1..u8, f2, f4, f8 with < > |)");
        };
    return new NumpyType(text, type, big);
  }

  /** The string numpy would write for {@code type} in little-endian order. */
  static NumpyType of(FixedType type) {
    String code =
        switch (type.kind()) {
          case INT -> "i";
          case UINT -> "u";
          case FLOAT -> "f";
          default -> throw new MetadataException("data type " + type.name() + " has no numeric numpy dtype");
        };
    return new NumpyType((type.byteWidth() == 1 ? "|" : "<") + code + type.byteWidth(), type, false);
  }

  boolean isFloat() {
    return type.kind() == FixedType.Kind.FLOAT;
  }
}
