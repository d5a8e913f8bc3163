package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A fixed-width type whose Arrow form is not its stored bytes: {@link #fromBytes} and {@link #toBytes}
 * convert (UTF-32 to utf8, packed records to structs, NaT to null). Its fill value is the element's
 * little-endian stored bytes, so {@link #filled} and {@link #isAllFill} work through the conversion
 * for every such type. Equal types have equal metadata.
 */
public abstract class ConvertedType implements FixedWidthType {

  @Override
  public boolean bytesAreArrowData() {
    return false;
  }

  @Override
  public Optional<NamedConfig> defaultSerializer() {
    return Optional.of(NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", "little")));
  }

  @Override
  public FillValue defaultFill() {
    return FillValue.of(new byte[byteWidth()]);
  }

  @Override
  public FieldVector filled(BufferAllocator allocator, int count, FillValue fill) {
    byte[] pattern = fill.isNull() ? null : fill.raw();
    if (pattern == null || pattern.length != byteWidth()) {
      throw new IllegalArgumentException("data type " + name() + " needs a fill value of " + byteWidth() + " bytes, got " + fill);
    }
    try (ArrowBuf data = allocator.buffer(Math.max(1, (long) count * pattern.length))) {
      Buffers.fill(data, 0, count, pattern);
      return fromBytes(data, count, allocator);
    }
  }

  /** Compares the stored form: a vector that cannot be stored (a string too long, nulls where none fit) is not all fill. */
  @Override
  public boolean isAllFill(FieldVector vector, FillValue fill) {
    byte[] pattern = fill.isNull() ? null : fill.raw();
    if (pattern == null || pattern.length != byteWidth()) {
      return false;
    }
    ByteBuffer bytes;
    try {
      bytes = toBytes(vector);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int n = bytes.remaining();
    for (int i = 0; i < n; i++) {
      if (bytes.get(bytes.position() + i) != pattern[i % pattern.length]) {
        return false;
      }
    }
    return true;
  }

  /** The fill value problem as a {@link MetadataException} naming {@code /fill_value}. */
  protected final MetadataException badFill(com.fasterxml.jackson.databind.JsonNode json, String expected) {
    return new MetadataException("/fill_value: data type " + name() + " needs " + expected + ", got " + Json.kind(json));
  }

  /** The fill value's element bytes without copying. */
  protected final byte[] rawBytes(FillValue fill) {
    if (fill.isNull() || fill.length() != byteWidth()) {
      throw new IllegalArgumentException("data type " + this + " needs a fill value of " + byteWidth() + " bytes, got " + fill);
    }
    return fill.raw();
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass()
        && ((ConvertedType) o).toMetadata().toJson().equals(toMetadata().toJson());
  }

  @Override
  public int hashCode() {
    return toMetadata().toJson().hashCode();
  }

  @Override
  public String toString() {
    return Json.compact(toMetadata().toJson());
  }
}
