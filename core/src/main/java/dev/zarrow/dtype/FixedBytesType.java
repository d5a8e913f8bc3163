package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Fixed-size byte strings as zarr-python 3 names them: {@code null_terminated_bytes} (numpy {@code |Sn},
 * whose trailing NULs numpy drops) and {@code raw_bytes} (numpy {@code |Vn}), each
 * {@code {"length_bytes": n}}. Arrow form: FixedSizeBinary(n) (not nullable), the stored bytes
 * themselves (decoding shares them). Fill value: base64 of the bytes; for {@code null_terminated_bytes}
 * at most n bytes, NUL-padded (printed without trailing NULs, as numpy holds it), for {@code raw_bytes}
 * exactly n. New arrays default to all zero bytes.
 */
public final class FixedBytesType extends ConvertedType {
  public static final String NULL_TERMINATED = "null_terminated_bytes";
  public static final String RAW = "raw_bytes";
  private static final int MAX_BYTES = 1 << 24;

  private final String name;
  private final int length;

  private FixedBytesType(String name, int length) {
    this.name = name;
    this.length = length;
  }

  /** {@code null_terminated_bytes} ({@code raw = false}) or {@code raw_bytes} of {@code length} bytes. */
  public static FixedBytesType of(boolean raw, long length) {
    String name = raw ? RAW : NULL_TERMINATED;
    if (length < 1 || length > MAX_BYTES) {
      throw new MetadataException("/data_type/configuration/length_bytes: data type " + name
          + " needs an integer in [1, " + MAX_BYTES + "], got " + length);
    }
    return new FixedBytesType(name, (int) length);
  }

  public boolean isRaw() {
    return name.equals(RAW);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(name, JsonNodeFactory.instance.objectNode().put("length_bytes", length));
  }

  @Override
  public int byteWidth() {
    return length;
  }

  @Override
  public int swapUnit() {
    return 1;
  }

  @Override
  public boolean bytesAreArrowData() {
    return true;
  }

  private ArrowType arrowType() {
    return new ArrowType.FixedSizeBinary(length);
  }

  @Override
  public Field field(String fieldName) {
    return new Field(fieldName, FieldType.notNullable(arrowType()), null);
  }

  @Override
  public FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator) {
    FixedChecks.holds(name, data, count, length);
    FieldVector vector = field("").createVector(allocator);
    try {
      vector.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty(), data));
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    FixedChecks.arrowType(this, arrowType(), vector);
    if (Buffers.hasNulls(vector)) {
      throw new IllegalArgumentException("data type " + this + " cannot store nulls (" + vector.getNullCount() + " found)");
    }
    return Buffers.readOnlyView(vector.getDataBuffer(), 0, (long) vector.getValueCount() * length);
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (!json.isTextual()) {
      throw badFill(json, "a base64 string");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(json.textValue());
    } catch (IllegalArgumentException e) {
      throw badFill(json, "a base64 string (" + e.getMessage() + ")");
    }
    if (isRaw() ? bytes.length != length : bytes.length > length) {
      throw badFill(json, (isRaw() ? "exactly " : "at most ") + length + " bytes in base64, not " + bytes.length);
    }
    return FillValue.of(Arrays.copyOf(bytes, length));
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    byte[] bytes = rawBytes(fill);
    int n = bytes.length;
    while (!isRaw() && n > 0 && bytes[n - 1] == 0) {
      n--;
    }
    return JsonNodeFactory.instance.textNode(Base64.getEncoder().encodeToString(Arrays.copyOf(bytes, n)));
  }
}
