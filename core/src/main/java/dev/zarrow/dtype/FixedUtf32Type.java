package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.Utf32;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * {@code fixed_length_utf32} (zarr-extensions; numpy {@code <Un}/{@code >Un}): {@code length_bytes / 4}
 * UTF-32 code units per element, NUL-padded; byte order is the {@code bytes} codec's.
 *
 * <pre>
 * {"name": "fixed_length_utf32", "configuration": {"length_bytes": 48}}
 * </pre>
 *
 * <p>Arrow form: utf8 (not nullable), trailing NULs removed as numpy does. A stored code unit that is
 * no Unicode code point is a corrupt chunk; a string of more code points than an element holds cannot
 * be written (an {@link IllegalArgumentException} naming the element). Fill value: a JSON string of at
 * most {@code length_bytes / 4} code points; new arrays default to {@code ""}.
 */
public final class FixedUtf32Type extends ConvertedType {
  public static final String NAME = "fixed_length_utf32";
  private static final int MAX_BYTES = 1 << 24;

  private final int lengthBytes;

  private FixedUtf32Type(int lengthBytes) {
    this.lengthBytes = lengthBytes;
  }

  /** The type of elements of {@code lengthBytes} bytes: a positive multiple of 4. */
  public static FixedUtf32Type of(long lengthBytes) {
    if (lengthBytes < 4 || lengthBytes % 4 != 0 || lengthBytes > MAX_BYTES) {
      throw new MetadataException("/data_type/configuration/length_bytes: data type " + NAME
          + " needs a positive multiple of 4 up to " + MAX_BYTES + ", got " + lengthBytes);
    }
    return new FixedUtf32Type((int) lengthBytes);
  }

  /** Code points per element. */
  public int units() {
    return lengthBytes / 4;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("length_bytes", lengthBytes));
  }

  @Override
  public int byteWidth() {
    return lengthBytes;
  }

  @Override
  public int swapUnit() {
    return 4;
  }

  @Override
  public Field field(String fieldName) {
    return new Field(fieldName, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
  }

  @Override
  public FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator) {
    FixedChecks.holds(NAME, data, count, lengthBytes);
    return Utf32.decode(field(""), data, count, units(), allocator);
  }

  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    if (!(vector instanceof VarCharVector strings)) {
      throw new IllegalArgumentException("data type " + this + " needs an Arrow utf8 vector, got " + vector.getField().getType());
    }
    return Utf32.encode(strings, units());
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (!json.isTextual()) {
      throw badFill(json, "a string");
    }
    String text = json.textValue();
    int points = text.codePointCount(0, text.length());
    if (points > units()) {
      throw badFill(json, "a string of at most " + units() + " code points, not " + points);
    }
    ByteBuffer out = ByteBuffer.allocate(lengthBytes).order(ByteOrder.LITTLE_ENDIAN);
    text.codePoints().forEach(out::putInt);
    return FillValue.of(out.array());
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    ByteBuffer in = ByteBuffer.wrap(rawBytes(fill)).order(ByteOrder.LITTLE_ENDIAN);
    int n = units();
    while (n > 0 && in.getInt((n - 1) * 4) == 0) {
      n--;
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      text.appendCodePoint(in.getInt(i * 4));
    }
    return JsonNodeFactory.instance.textNode(text.toString());
  }
}
