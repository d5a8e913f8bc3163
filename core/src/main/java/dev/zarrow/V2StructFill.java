package dev.zarrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.StructType;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.NamedConfig;
import java.util.Base64;

/**
 * The fill value of a Zarr v2 structured array: zarr-python 2 writes base64 of the record bytes in the
 * dtype's byte order, while a {@link FillValue} holds little-endian bytes. Swapped field by field
 * ({@link StructType#swapUnits()}) when the array is big-endian.
 */
final class V2StructFill {
  private V2StructFill() {}

  /** Whether the array's {@code bytes} codec stores big-endian elements. */
  static boolean bigEndian(ArrayMetadata metadata) {
    for (NamedConfig c : metadata.codecs()) {
      if (c.name().equals("bytes")) {
        return "big".equals(c.config().path("endian").asText(null));
      }
    }
    return false;
  }

  /** The fill value of a v2 document: legacy base64 in the array's byte order, or the v3 object form. */
  static FillValue read(StructType type, JsonNode json, boolean bigEndian) {
    FillValue fill = type.parseFill(json);
    return json.isTextual() && bigEndian ? FillValue.of(swap(fill.bytes(), type.swapUnits())) : fill;
  }

  /** The {@code .zarray} spelling of {@code fill}: base64 of the record bytes in the array's byte order. */
  static JsonNode write(StructType type, FillValue fill, boolean bigEndian) {
    byte[] bytes = fill.bytes();
    return JsonNodeFactory.instance.textNode(
        Base64.getEncoder().encodeToString(bigEndian ? swap(bytes, type.swapUnits()) : bytes));
  }

  /** A copy of one record with each unit's bytes reversed (a swap is its own inverse). */
  static byte[] swap(byte[] record, int[] units) {
    byte[] out = new byte[record.length];
    int at = 0;
    for (int unit : units) {
      for (int j = 0; j < unit; j++) {
        out[at + j] = record[at + unit - 1 - j];
      }
      at += unit;
    }
    return out;
  }
}
