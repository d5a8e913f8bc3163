package dev.zarrow.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * {@code numpy.datetime64} and {@code numpy.timedelta64} (zarr-extensions): int64 counts of
 * {@code scale_factor * unit} since the Unix epoch (datetime) or as a duration, {@code -2^63} being NaT.
 *
 * <pre>
 * {"name": "numpy.datetime64", "configuration": {"unit": "ns", "scale_factor": 1}}
 * </pre>
 *
 * <p>Arrow form: units s, ms, us and ns with scale factor 1 are Timestamp (no time zone, as numpy's
 * are naive) and Duration of that unit, sharing the stored bytes. Every other unit (Y, M, W, D, h, m,
 * ps, fs, as, generic) or scale factor is Int64, the stored count unchanged, its field carrying the
 * data type's metadata under {@value #METADATA_KEY} so that no value is silently rescaled or rounded
 * (Y and M have no fixed length; D would overflow Date32 beyond year 5.8 million). In both forms NaT is
 * null, and a null is stored as NaT. Fill values: an integer or {@code "NaT"} ({@code -2^63} prints as
 * {@code "NaT"}); new arrays default to NaT, so missing chunks read as nulls.
 */
public final class NumpyTimeType extends ConvertedType {
  public static final String DATETIME = "numpy.datetime64";
  public static final String TIMEDELTA = "numpy.timedelta64";
  /** The Arrow field metadata key that names the data type of an Int64 field of another unit. */
  public static final String METADATA_KEY = "zarr.data_type";

  static final long NAT = Long.MIN_VALUE;
  private static final List<String> UNITS =
      List.of("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic");
  private static final Map<String, TimeUnit> ARROW_UNITS =
      Map.of("s", TimeUnit.SECOND, "ms", TimeUnit.MILLISECOND, "us", TimeUnit.MICROSECOND, "ns", TimeUnit.NANOSECOND);
  private static final String CONFIG = "/data_type/configuration";

  private final String name;
  private final String unit;
  private final long scale;

  private NumpyTimeType(String name, String unit, long scale) {
    this.name = name;
    this.unit = unit;
    this.scale = scale;
  }

  /** The datetime ({@code timedelta = false}) or timedelta type of {@code unit} (numpy's spelling) and scale factor. */
  public static NumpyTimeType of(boolean timedelta, String unit, long scaleFactor) {
    if (!UNITS.contains(unit)) {
      throw new MetadataException(CONFIG + "/unit: must be one of " + String.join(", ", UNITS) + ", got \"" + unit + "\"");
    }
    if (scaleFactor < 1 || scaleFactor > Integer.MAX_VALUE) {
      throw new MetadataException(CONFIG + "/scale_factor: must be an integer in [1, 2147483647], got " + scaleFactor);
    }
    return new NumpyTimeType(timedelta ? TIMEDELTA : DATETIME, unit.equals("μs") ? "us" : unit, scaleFactor);
  }

  static NumpyTimeType fromMetadata(NamedConfig metadata) {
    ObjectNode config = metadata.config();
    for (var it = config.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!key.equals("unit") && !key.equals("scale_factor")) {
        throw new MetadataException(CONFIG + "/" + key + ": unknown option of data type " + metadata.name());
      }
    }
    JsonNode unit = config.get("unit");
    JsonNode scale = config.get("scale_factor");
    if (unit == null || !unit.isTextual()) {
      throw new MetadataException(CONFIG + "/unit: data type " + metadata.name() + " needs a unit string, got " + Json.kind(unit));
    }
    if (scale == null || !scale.isIntegralNumber() || !scale.canConvertToLong()) {
      throw new MetadataException(CONFIG + "/scale_factor: data type " + metadata.name() + " needs an integer, got " + Json.kind(scale));
    }
    return of(metadata.name().equals(TIMEDELTA), unit.textValue(), scale.longValue());
  }

  public boolean isTimedelta() {
    return name.equals(TIMEDELTA);
  }

  /** The unit, {@code μs} spelled {@code us}. */
  public String unit() {
    return unit;
  }

  public long scaleFactor() {
    return scale;
  }

  /** True when the Arrow form is Timestamp or Duration (units s..ns, scale factor 1), false for Int64. */
  public boolean hasArrowUnit() {
    return scale == 1 && ARROW_UNITS.containsKey(unit);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public NamedConfig toMetadata() {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    config.put("unit", unit);
    config.put("scale_factor", scale);
    return NamedConfig.of(name, config);
  }

  @Override
  public int byteWidth() {
    return 8;
  }

  @Override
  public int swapUnit() {
    return 8;
  }

  private ArrowType arrowType() {
    if (!hasArrowUnit()) {
      return new ArrowType.Int(64, true);
    }
    TimeUnit u = ARROW_UNITS.get(unit);
    return isTimedelta() ? new ArrowType.Duration(u) : new ArrowType.Timestamp(u, null);
  }

  @Override
  public Field field(String fieldName) {
    Map<String, String> metadata = hasArrowUnit() ? null : Map.of(METADATA_KEY, Json.compact(toMetadata().toJson()));
    return new Field(fieldName, new FieldType(true, arrowType(), null, metadata), null);
  }

  /** Shares {@code data}; NaT elements become nulls (a validity buffer is made only when there are some). */
  @Override
  public FieldVector fromBytes(ArrowBuf data, int count, BufferAllocator allocator) {
    FixedChecks.holds(name, data, count, 8);
    int nulls = 0;
    for (int i = 0; i < count; i++) {
      if (data.getLong(8L * i) == NAT) {
        nulls++;
      }
    }
    FieldVector vector = field("").createVector(allocator);
    try {
      if (nulls == 0) {
        vector.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty(), data));
        return vector;
      }
      try (ArrowBuf validity = allocator.buffer(BitVectorHelper.getValidityBufferSize(count))) {
        validity.setZero(0, validity.capacity());
        for (int i = 0; i < count; i++) {
          if (data.getLong(8L * i) != NAT) {
            BitVectorHelper.setBit(validity, i);
          }
        }
        vector.loadFieldBuffers(new ArrowFieldNode(count, nulls), List.of(validity, data));
      }
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** A view of the vector's data without nulls; a copy with NaT for each null otherwise. */
  @Override
  public ByteBuffer toBytes(FieldVector vector) {
    FixedChecks.arrowType(this, arrowType(), vector);
    int count = vector.getValueCount();
    if (!Buffers.hasNulls(vector)) {
      return Buffers.readOnlyView(vector.getDataBuffer(), 0, 8L * count);
    }
    ByteBuffer out = ByteBuffer.allocateDirect(8 * count).order(ByteOrder.LITTLE_ENDIAN);
    ArrowBuf data = vector.getDataBuffer();
    for (int i = 0; i < count; i++) {
      out.putLong(8 * i, vector.isNull(i) ? NAT : data.getLong(8L * i));
    }
    return out;
  }

  @Override
  public FillValue defaultFill() {
    return fill(NAT);
  }

  private static FillValue fill(long value) {
    return FillValue.of(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value).array());
  }

  @Override
  public FillValue parseFill(JsonNode json) {
    if (json.isTextual() && json.textValue().equals("NaT")) {
      return fill(NAT);
    }
    if (json.isIntegralNumber() && json.canConvertToLong()) {
      return fill(json.longValue());
    }
    throw badFill(json, "an integer in [-2^63, 2^63 - 1] or \"NaT\"");
  }

  @Override
  public JsonNode fillToJson(FillValue fill) {
    long value = ByteBuffer.wrap(rawBytes(fill)).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    return value == NAT ? JsonNodeFactory.instance.textNode("NaT") : JsonNodeFactory.instance.numberNode(value);
  }
}
