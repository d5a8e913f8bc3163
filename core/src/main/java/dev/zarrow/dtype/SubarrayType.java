package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.Fields;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * {@code zarrow.subarray}: a struct field holding a fixed-shape block of elements, numpy's sub-array
 * field ({@code ("v", "<i2", (2, 3))}, Zarr v2 {@code ["v", "<i2", [2, 3]]}). Zarr v3 has no registered
 * type for it yet (zarr-extensions issue 57 asks for one), so the name is zarrow's own: another
 * implementation refuses the array by that name rather than misreading the records.
 *
 * <pre>
 * {"name": "zarrow.subarray", "configuration": {"data_type": "int16", "shape": [2, 3]}}
 * </pre>
 *
 * <p>The elements are packed in C order, each in the {@code bytes} codec's byte order; the element type is
 * any fixed-size type other than a sub-array (numpy merges nested sub-arrays into one shape). Arrow form:
 * a FixedSizeList per dimension, outermost first ({@code [2, 3]} is FixedSizeList[2] of FixedSizeList[3]
 * of the element's Arrow form), none nullable: the shape stays in the Arrow type, a row reads as numpy's
 * {@code tolist()}, and no extension type is needed to understand it. Fill value: nested JSON arrays of
 * the element's fill values, as the shape nests them.
 */
public final class SubarrayType extends ConvertedType {
  public static final String NAME = "zarrow.subarray";
  private static final int MAX_BYTES = 1 << 24;

  private final FixedWidthType element;
  private final int[] shape;
  private final int count;

  private SubarrayType(FixedWidthType element, int[] shape, int count) {
    this.element = element;
    this.shape = shape;
    this.count = count;
  }

  /**
   * A block of {@code shape} elements of {@code element}, for a {@link StructType.Member}: at least one
   * dimension, every extent at least 1, at most {@value #MAX_BYTES} bytes in all, the element not itself a
   * sub-array; otherwise a {@link MetadataException}.
   */
  public static SubarrayType of(FixedWidthType element, long... shape) {
    return of(element, shape, "/data_type");
  }

  /** {@link #of(FixedWidthType, long...)}, a problem named at {@code pointer} (the data type's JSON pointer). */
  static SubarrayType of(FixedWidthType element, long[] shape, String pointer) {
    if (element instanceof SubarrayType) {
      throw new MetadataException(pointer + "/configuration/data_type: a sub-array of sub-arrays is one sub-array of both shapes");
    }
    if (shape.length == 0) {
      throw new MetadataException(pointer + "/configuration/shape: a sub-array needs at least one dimension");
    }
    long bytes = Math.max(1, element.byteWidth());
    long n = 1;
    int[] extents = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] < 1 || shape[d] > MAX_BYTES) {
        throw new MetadataException(pointer + "/configuration/shape/" + d + ": an extent must be in [1, " + MAX_BYTES
            + "], got " + shape[d]);
      }
      n *= shape[d];
      bytes *= shape[d];
      if (bytes > MAX_BYTES) {
        throw new MetadataException(pointer + "/configuration/shape: a sub-array of " + Arrays.toString(shape) + " "
            + element.name() + " elements is more than " + MAX_BYTES + " bytes");
      }
      extents[d] = (int) shape[d];
    }
    return new SubarrayType(element, extents, (int) n);
  }

  static SubarrayType fromMetadata(NamedConfig metadata, String pointer) {
    ObjectNode config = metadata.config();
    for (var it = config.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("data_type") && !key.equals("shape")) {
        throw new MetadataException(pointer + "/configuration/" + key + ": unknown option of data type " + NAME);
      }
    }
    JsonNode type = config.get("data_type");
    if (type == null) {
      throw new MetadataException(pointer + "/configuration/data_type: missing");
    }
    String at = pointer + "/configuration/data_type";
    FixedWidthType element = NumpyTypes.fixedWidth(NamedConfig.parse(type, at), at);
    return of(element, shape(config.get("shape"), pointer + "/configuration/shape"), pointer);
  }

  /** A JSON list of integer extents (the values are checked by {@link #of}). */
  private static long[] shape(JsonNode json, String pointer) {
    if (json == null || !json.isArray()) {
      throw new MetadataException(pointer + ": a sub-array needs a list of extents, got " + Json.kind(json));
    }
    long[] out = new long[json.size()];
    for (int d = 0; d < out.length; d++) {
      JsonNode e = json.get(d);
      if (!e.isIntegralNumber() || !e.canConvertToLong()) {
        throw new MetadataException(pointer + "/" + d + ": an extent must be an integer, got " + Json.kind(e));
      }
      out[d] = e.longValue();
    }
    return out;
  }

  public FixedWidthType element() {
    return element;
  }

  /** The extents, outermost first. */
  public int[] shape() {
    return shape.clone();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public NamedConfig toMetadata() {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.set("data_type", element.toMetadata().toJson());
    ArrayNode extents = config.putArray("shape");
    for (int e : shape) {
      extents.add(e);
    }
    return NamedConfig.of(NAME, config);
  }

  @Override
  public int byteWidth() {
    return count * element.byteWidth();
  }

  @Override
  public int swapUnit() {
    return element.swapUnit();
  }

  @Override
  public int[] swapUnits() {
    int[] one = element.swapUnits();
    int[] units = new int[one.length * count];
    for (int i = 0; i < count; i++) {
      System.arraycopy(one, 0, units, i * one.length, one.length);
    }
    return units;
  }

  @Override
  public Field field(String fieldName) {
    Field inner = element.field("item");
    for (int d = shape.length - 1; d >= 0; d--) {
      inner = new Field(d == 0 ? fieldName : "item", FieldType.notNullable(new ArrowType.FixedSizeList(shape[d])), List.of(inner));
    }
    return inner;
  }

  @Override
  public FieldVector fromBytes(ArrowBuf data, int records, BufferAllocator allocator) {
    FixedChecks.holds(NAME, data, records, byteWidth());
    int elements = Math.multiplyExact(records, count);
    FieldVector out = Fields.createVector(field(""), allocator);
    try (FieldVector items = element.fromBytes(data, elements, allocator)) {
      FieldVector level = out;
      int n = records;
      for (int d = 0; d < shape.length; d++) {
        level.loadFieldBuffers(new ArrowFieldNode(n, 0), List.of(allocator.getEmpty()));
        n *= shape[d];
        FieldVector inner = (FieldVector) ((FixedSizeListVector) level).getDataVector();
        if (d == shape.length - 1) {
          items.makeTransferPair(inner).transfer();
        }
        level = inner;
      }
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    int records = vector.getValueCount();
    FieldVector level = vector;
    int n = records;
    for (int d = 0; d < shape.length; d++) {
      if (!(level instanceof FixedSizeListVector list) || list.getListSize() != shape[d]) {
        throw new IllegalArgumentException("data type " + this + " needs nested Arrow fixed size lists of sizes "
            + Arrays.toString(shape) + ", got " + vector.getField());
      }
      if (Buffers.hasNulls(list)) {
        throw new IllegalArgumentException("data type " + NAME + " cannot store null sub-arrays (" + list.getNullCount() + " found)");
      }
      n = Math.multiplyExact(n, shape[d]);
      level = list.getDataVector();
      if (level.getValueCount() < n) {
        throw new IllegalArgumentException("a sub-array's list holds " + level.getValueCount() + " elements, fewer than "
            + n + " for " + records + " records of " + Arrays.toString(shape));
      }
    }
    ByteBuffer bytes = element.toBytes(level);
    long want = (long) n * element.byteWidth();
    return bytes.remaining() == want ? bytes : bytes.slice(bytes.position(), (int) want).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public FillValue defaultFill() {
    byte[] one = element.defaultFill().bytes();
    ByteBuffer out = ByteBuffer.allocate(byteWidth());
    for (int i = 0; i < count; i++) {
      out.put(one);
    }
    return FillValue.of(out.array());
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    ByteBuffer out = ByteBuffer.allocate(byteWidth());
    parseLevel(json, 0, "/fill_value", out);
    return FillValue.of(out.array());
  }

  private void parseLevel(JsonNode json, int d, String at, ByteBuffer out) {
    if (!json.isArray() || json.size() != shape[d]) {
      throw new MetadataException(at + ": data type " + NAME + " of shape " + Arrays.toString(shape) + " needs a list of "
          + shape[d] + " values here, got " + (json.isArray() ? "a list of " + json.size() : Json.kind(json)));
    }
    for (int i = 0; i < shape[d]; i++) {
      if (d + 1 < shape.length) {
        parseLevel(json.get(i), d + 1, at + "/" + i, out);
      } else {
        try {
          out.put(element.parseFill(json.get(i)).bytes());
        } catch (MetadataException e) {
          throw new MetadataException(e.getMessage().replaceFirst("^/fill_value", at + "/" + i));
        }
      }
    }
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    byte[] bytes = rawBytes(fill);
    return fillLevel(bytes, 0, new int[] {0});
  }

  private JsonNode fillLevel(byte[] bytes, int d, int[] next) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    int width = element.byteWidth();
    for (int i = 0; i < shape[d]; i++) {
      if (d + 1 < shape.length) {
        out.add(fillLevel(bytes, d + 1, next));
      } else {
        int at = next[0]++ * width;
        out.add(element.fillToJson(FillValue.of(Arrays.copyOfRange(bytes, at, at + width))));
      }
    }
    return out;
  }
}
