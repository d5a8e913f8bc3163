package dev.zarrow.dtype;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The fill value of an array as the bytes of one element: little-endian bytes for fixed-width types,
 * UTF-8 for strings, the raw value for binary. {@link #NULL} (no bytes) means missing chunks read as
 * nulls, which only nullable (Arrow) types allow.
 */
public final class FillValue {
  public static final FillValue NULL = new FillValue(null);

  private final byte[] bytes;

  private FillValue(byte[] bytes) {
    this.bytes = bytes;
  }

  public static FillValue of(byte[] bytes) {
    return new FillValue(bytes.clone());
  }

  public boolean isNull() {
    return bytes == null;
  }

  /** A copy of the element bytes; throws for {@link #NULL}. */
  public byte[] bytes() {
    if (bytes == null) {
      throw new IllegalStateException("the null fill value has no bytes");
    }
    return bytes.clone();
  }

  /** The element bytes without copying; callers must not modify them. */
  byte[] raw() {
    return bytes;
  }

  public int length() {
    return bytes == null ? 0 : bytes.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FillValue f && Arrays.equals(bytes, f.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return bytes == null ? "FillValue[null]" : "FillValue[0x" + HexFormat.of().formatHex(bytes) + "]";
  }
}
