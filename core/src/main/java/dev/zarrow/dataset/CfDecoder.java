package dev.zarrow.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ZarrArray;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * CF decoding of one variable, as xarray's default {@code decode_cf} does it, in its order: integers
 * with {@code _Unsigned: "true"} (signed stored) or {@code "false"} (unsigned stored) read with the
 * other signedness, their fill values too; values equal to {@code _FillValue} or {@code missing_value} become null (a float NaN too when the fill is
 * NaN); {@code scale_factor}/{@code add_offset} unpack to floating point (float32 where xarray picks it:
 * float32 data, integers of at most 16 bits that are masked or have no {@code add_offset}; float64
 * otherwise; computed in that type, as numpy does);
 * {@code units: "<unit> since <date>"} with calendar {@code standard}, {@code gregorian}, {@code
 * proleptic_gregorian} or none becomes an Arrow Timestamp (microseconds, or nanoseconds for nanosecond
 * units; no time zone: the reference date's offset is applied, as xarray's naive datetimes are UTC);
 * {@code units} that name a unit alone ({@code days}, {@code hours}, {@code minutes}, {@code seconds},
 * {@code milliseconds}, {@code microseconds}, {@code nanoseconds}: xarray's timedeltas) become an Arrow
 * Duration (microseconds, or nanoseconds for nanoseconds);
 * int8 with attribute {@code dtype: "bool"} becomes bool. {@code |S} bytes become utf8 (trailing NULs
 * dropped, as numpy does). Other calendars stay numbers; the attributes say what they mean.
 *
 * <p>{@code raw}: the stored values, only strings made utf8.
 *
 * <p>The fill of a v2 array is its {@code .zarray} {@code fill_value} when not null (where xarray keeps
 * {@code _FillValue}), else an attribute {@code _FillValue}; of a v3 array the attribute {@code
 * _FillValue} only (a v3 fill value is always set and means nothing to CF).
 */
final class CfDecoder {
  private static final Pattern SINCE = Pattern.compile("\\s*(\\w+)\\s+since\\s+(.+?)\\s*", Pattern.CASE_INSENSITIVE);
  private static final Pattern DATE = Pattern.compile(
      "(-?\\d{1,4})-(\\d{1,2})-(\\d{1,2})(?:[T ](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d+))?)?)?"
          + "\\s*(Z|UTC|GMT|[+-]\\d{1,2}(?::?\\d{2})?)?");

  private enum Kind { SAME, SCALED, TIME, BOOL, STRING }

  private static final java.util.Set<String> TIMEDELTA_UNITS =
      java.util.Set.of("days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds");

  private final String name;
  private final Kind kind;
  private final Field field;
  /** Stored values that mean "missing", as doubles (integers up to 2^53 exactly; NaN matches NaN). */
  private final double[] fills;
  private final double scale;
  private final double offset;
  private final boolean float32;
  /** Time: output units per stored unit, and the reference date in output units (0 for a timedelta). */
  private final long perUnit;
  private final long epoch;
  /** {@code _Unsigned}: the integer type the stored bits are read as (the other signedness), or null. */
  private ArrowType.Int reinterpret;

  private CfDecoder(String name, Kind kind, Field field, double[] fills, double scale, double offset, boolean float32,
      long perUnit, long epoch) {
    this.name = name;
    this.kind = kind;
    this.field = field;
    this.fills = fills;
    this.scale = scale;
    this.offset = offset;
    this.float32 = float32;
    this.perUnit = perUnit;
    this.epoch = epoch;
  }

  /** The decoder of {@code variable}, its output field named after it with its attributes as metadata. */
  static CfDecoder of(Variable variable, boolean raw) {
    ZarrArray array = variable.array();
    ObjectNode attrs = variable.attributes();
    Map<String, String> metadata = metadata(attrs);
    Field stored = array.dataType().field(variable.name());
    ArrowType type = stored.getType();
    String what = "array '" + array.path() + "'";
    if (type instanceof ArrowType.FixedSizeBinary || type instanceof ArrowType.Binary || type instanceof ArrowType.LargeBinary) {
      if (array.dataType().name().equals("null_terminated_bytes") || type instanceof ArrowType.Binary) {
        return new CfDecoder(what, Kind.STRING, field(variable, ArrowType.Utf8.INSTANCE, false, metadata), new double[0], 1, 0,
            false, 0, 0);
      }
    }
    boolean numeric = type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint;
    if (raw || !numeric) {
      return new CfDecoder(what, Kind.SAME, field(variable, type, stored.isNullable(), metadata), new double[0], 1, 0, false, 0, 0);
    }
    // _Unsigned (netCDF's convention, decoded first as xarray does): the stored integers' bits read with
    // the other signedness, the fill values too
    ArrowType.Int reinterpret = null;
    JsonNode unsigned = attrs.get("_Unsigned");
    if (type instanceof ArrowType.Int i && unsigned != null && unsigned.isTextual()
        && unsigned.textValue().equals(i.getIsSigned() ? "true" : "false")) {
      reinterpret = new ArrowType.Int(i.getBitWidth(), !i.getIsSigned());
      type = reinterpret;
    }
    double[] fills = fills(variable, attrs, what);
    if (reinterpret != null) {
      for (int k = 0; k < fills.length; k++) {
        fills[k] = reinterpreted(fills[k], reinterpret);
      }
    }
    boolean masks = fills.length > 0;
    JsonNode scaleNode = attrs.get("scale_factor");
    JsonNode offsetNode = attrs.get("add_offset");
    Kind kind = Kind.SAME;
    ArrowType out = type;
    double scale = 1;
    double offset = 0;
    boolean float32 = false;
    if (scaleNode != null || offsetNode != null) {
      scale = scaleNode == null ? 1 : number(scaleNode, what + ": attribute scale_factor");
      offset = offsetNode == null ? 0 : number(offsetNode, what + ": attribute add_offset");
      boolean smallFloat = type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() != FloatingPointPrecision.DOUBLE;
      boolean smallInt = type instanceof ArrowType.Int i && i.getBitWidth() <= 16;
      // xarray's choice: masking makes small integers float32 first, any other masked integer float64
      float32 = smallFloat || (smallInt && (masks || offsetNode == null));
      kind = Kind.SCALED;
      out = new ArrowType.FloatingPoint(float32 ? FloatingPointPrecision.SINGLE : FloatingPointPrecision.DOUBLE);
    }
    long perUnit = 0;
    long epoch = 0;
    JsonNode units = attrs.get("units");
    JsonNode calendar = attrs.get("calendar");
    String cal = calendar == null || !calendar.isTextual() ? "standard" : calendar.textValue().toLowerCase(Locale.ROOT);
    Matcher since = units != null && units.isTextual() ? SINCE.matcher(units.textValue()) : null;
    if (units != null && units.isTextual() && TIMEDELTA_UNITS.contains(units.textValue())) {
      // xarray's timedelta: units that name a unit alone (exactly as xarray's TIME_UNITS spell them)
      TimeUnit unit = units.textValue().equals("nanoseconds") ? TimeUnit.NANOSECOND : TimeUnit.MICROSECOND;
      perUnit = unitMicros(units.textValue(), what, units.textValue()) * (unit == TimeUnit.NANOSECOND ? 1000 : 1);
      out = new ArrowType.Duration(unit);
      kind = Kind.TIME;
    } else if (since != null && since.matches() && (cal.equals("standard") || cal.equals("gregorian") || cal.equals("proleptic_gregorian"))) {
      TimeUnit unit = since.group(1).toLowerCase(Locale.ROOT).startsWith("nanosecond") ? TimeUnit.NANOSECOND : TimeUnit.MICROSECOND;
      long perMicro = unit == TimeUnit.NANOSECOND ? 1000 : 1;
      perUnit = unitMicros(since.group(1), what, units.textValue()) * perMicro;
      LocalDateTime reference = reference(since.group(2), what, units.textValue());
      if (!cal.equals("proleptic_gregorian") && reference.isBefore(LocalDateTime.of(1582, 10, 15, 0, 0))) {
        // the standard calendar is Julian before 1582-10-15: java.time is proleptic Gregorian only
        return new CfDecoder(what, Kind.SAME, field(variable, type, true, metadata), fills, 1, 0, false, 0, 0);
      }
      long seconds = reference.toEpochSecond(ZoneOffset.UTC);
      epoch = Math.multiplyExact(Math.multiplyExact(seconds, 1_000_000L) + reference.getNano() / 1000, perMicro);
      if (unit == TimeUnit.NANOSECOND) {
        epoch += reference.getNano() % 1000;
      }
      out = new ArrowType.Timestamp(unit, null);
      kind = Kind.TIME;
    } else if (type instanceof ArrowType.Int i && i.getBitWidth() == 8 && attrs.has("dtype")
        && "bool".equals(attrs.get("dtype").asText())) {
      kind = Kind.BOOL;
      out = ArrowType.Bool.INSTANCE;
    }
    CfDecoder decoder = new CfDecoder(what, kind, field(variable, out, masks || stored.isNullable(), metadata), fills, scale,
        offset, float32, perUnit, epoch);
    decoder.reinterpret = reinterpret;
    return decoder;
  }

  /** {@code fill} as the integer of type {@code to} with the same bits as the stored one (numpy's cast). */
  private static double reinterpreted(double fill, ArrowType.Int to) {
    if (Double.isNaN(fill) || Double.isInfinite(fill)) {
      return fill;
    }
    int bits = to.getBitWidth();
    long v = (long) fill;
    if (bits == 64) {
      return to.getIsSigned() ? (double) v : (v >= 0 ? (double) v : (double) (v >>> 1) * 2 + (v & 1));
    }
    long mask = (1L << bits) - 1;
    long u = v & mask;
    return to.getIsSigned() && u >= 1L << (bits - 1) ? u - (1L << bits) : u;
  }

  private static Field field(Variable variable, ArrowType type, boolean nullable, Map<String, String> metadata) {
    return new Field(variable.name(), new FieldType(nullable, type, null, metadata), null);
  }

  /** Attributes as field metadata: strings as they are, anything else as its JSON text. */
  static Map<String, String> metadata(ObjectNode attributes) {
    Map<String, String> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = attributes.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      out.put(e.getKey(), e.getValue().isTextual() ? e.getValue().textValue() : e.getValue().toString());
    }
    return out;
  }

  private static double[] fills(Variable variable, ObjectNode attrs, String what) {
    List<Double> out = new ArrayList<>();
    ZarrArray array = variable.array();
    JsonNode fill = null;
    if (array.metadata().zarrFormat() == 2) {
      fill = v2Fill(array);
    }
    if (fill == null || fill.isNull()) {
      fill = attrs.get("_FillValue");
    }
    addFills(fill, what + ": _FillValue", out);
    addFills(attrs.get("missing_value"), what + ": attribute missing_value", out);
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The {@code fill_value} of a v2 array's {@code .zarray} as written (zarrow's model makes null zero). */
  private static JsonNode v2Fill(ZarrArray array) {
    String key = array.path().isEmpty() ? ".zarray" : array.path() + "/.zarray";
    ByteBuffer bytes = array.store().get(key).orElse(null);
    if (bytes == null) {
      return null;
    }
    return Json.parse(bytes, key).get("fill_value");
  }

  private static void addFills(JsonNode node, String what, List<Double> out) {
    if (node == null || node.isNull()) {
      return;
    }
    if (node.isArray()) {
      for (JsonNode n : node) {
        out.add(number(n, what));
      }
    } else {
      out.add(number(node, what));
    }
  }

  private static double number(JsonNode node, String what) {
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isTextual()) {
      switch (node.textValue()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    if (node.isArray() && node.size() == 1) {
      return number(node.get(0), what);
    }
    throw new MetadataException(what + ": expected a number, got " + node);
  }

  private static long unitMicros(String unit, String what, String units) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "days", "day", "d" -> 86_400_000_000L;
      case "hours", "hour", "hr", "hrs", "h" -> 3_600_000_000L;
      case "minutes", "minute", "min", "mins" -> 60_000_000L;
      case "seconds", "second", "sec", "secs", "s" -> 1_000_000L;
      case "milliseconds", "millisecond", "msec", "msecs", "ms" -> 1000L;
      case "microseconds", "microsecond", "usec", "usecs", "us" -> 1L;
      case "nanoseconds", "nanosecond", "nsec", "nsecs", "ns" -> 1L; // counted in nanoseconds
      default -> throw new MetadataException(what + ": time units '" + units + "': unknown unit '" + unit
          + "' (days, hours, minutes, seconds, milliseconds, microseconds or nanoseconds)");
    };
  }

  private static LocalDateTime reference(String text, String what, String units) {
    Matcher m = DATE.matcher(text.trim());
    if (!m.matches()) {
      throw new MetadataException(what + ": time units '" + units + "': cannot parse the reference date '" + text + "'");
    }
    try {
      LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
      int nanos = 0;
      if (m.group(7) != null) {
        String f = (m.group(7) + "000000000").substring(0, 9);
        nanos = Integer.parseInt(f);
      }
      LocalTime time = m.group(4) == null ? LocalTime.MIDNIGHT : LocalTime.of(Integer.parseInt(m.group(4)),
          Integer.parseInt(m.group(5)), m.group(6) == null ? 0 : Integer.parseInt(m.group(6)), nanos);
      LocalDateTime local = LocalDateTime.of(date, time);
      String zone = m.group(8);
      if (zone == null || zone.equals("Z") || zone.equals("UTC") || zone.equals("GMT")) {
        return local;
      }
      String digits = zone.substring(1).replace(":", "");
      int hours = Integer.parseInt(digits.length() > 2 ? digits.substring(0, digits.length() - 2) : digits);
      int minutes = digits.length() > 2 ? Integer.parseInt(digits.substring(digits.length() - 2)) : 0;
      ZoneOffset o = ZoneOffset.ofHoursMinutes(zone.startsWith("-") ? -hours : hours, zone.startsWith("-") ? -minutes : minutes);
      return local.atOffset(o).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
    } catch (java.time.DateTimeException | NumberFormatException e) {
      throw new MetadataException(what + ": time units '" + units + "': cannot parse the reference date '" + text + "': "
          + e.getMessage());
    }
  }

  /** The output field: the variable's name, decoded type, attributes as metadata. */
  Field field() {
    return field;
  }

  /**
   * The decoded form of {@code raw} (taken: it is closed, or returned when it is already the result);
   * the caller owns what is returned. A time out of the Timestamp's range is a {@link
   * dev.zarrow.error.CorruptChunkException}-like {@link MetadataException} naming the array.
   */
  FieldVector decode(FieldVector stored, BufferAllocator allocator) {
    FieldVector raw = reinterpret == null ? stored : retyped(stored, allocator);
    if (kind == Kind.STRING) {
      try (raw) {
        return strings(raw, allocator);
      }
    }
    if (kind == Kind.SAME && fills.length == 0) {
      return raw;
    }
    int n = raw.getValueCount();
    ArrowBuf data = raw.getDataBuffer();
    int code = code(raw.getField().getType());
    if (kind == Kind.SAME) {
      // only masking: clear the validity bits of missing values in place (the raw vector is ours)
      mask(data, code, n, raw.getValidityBuffer());
      raw.setValueCount(n);
      return nullable(raw, allocator);
    }
    try (raw) {
      FieldVector out = field.createVector(allocator);
      try {
        out.setInitialCapacity(n);
        out.allocateNew();
        ArrowBuf validity = out.getValidityBuffer();
        ArrowBuf rawValidity = raw.getValidityBuffer();
        boolean rawNulls = Buffers.hasNulls(raw);
        ArrowBuf to = out.getDataBuffer();
        for (int i = 0; i < n; i++) {
          if (missing(data, code, i) || (rawNulls && org.apache.arrow.vector.BitVectorHelper.get(rawValidity, i) == 0)) {
            continue;
          }
          org.apache.arrow.vector.BitVectorHelper.setBit(validity, i);
          switch (kind) {
            case SCALED -> {
              if (float32) {
                to.setFloat((long) i * 4, (float) asDouble(data, code, i) * (float) scale + (float) offset);
              } else {
                to.setDouble((long) i * 8, asDouble(data, code, i) * scale + offset);
              }
            }
            case BOOL -> {
              if (data.getByte(i) != 0) {
                org.apache.arrow.vector.BitVectorHelper.setBit(to, i);
              }
            }
            case TIME -> to.setLong((long) i * 8, time(data, code, i));
            default -> throw new IllegalStateException(kind.toString());
          }
        }
        out.setValueCount(n);
        return out;
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
    }
  }

  /** {@code raw} (taken) as a vector of the reinterpreted integer type: the same buffers, moved. */
  private FieldVector retyped(FieldVector raw, BufferAllocator allocator) {
    try (raw) {
      FieldVector out = new Field(field.getName(), new FieldType(raw.getField().isNullable(), reinterpret, null), null)
          .createVector(allocator);
      dev.zarrow.vector.Move.into(raw, out);
      return out;
    }
  }

  /** The masked vector under the output field (nullable), moving its buffers when the field differs. */
  private FieldVector nullable(FieldVector raw, BufferAllocator allocator) {
    if (raw.getField().isNullable()) {
      return raw;
    }
    try (raw) {
      FieldVector out = field.createVector(allocator);
      dev.zarrow.vector.Move.into(raw, out);
      return out;
    }
  }

  private long time(ArrowBuf data, int code, int i) {
    if (scale != 1 || offset != 0 || code >= 20) {
      double v = asDouble(data, code, i) * scale + offset;
      double t = v * perUnit + epoch;
      if (!(Math.abs(t) < 9.2e18)) {
        throw new MetadataException(name + ": time " + v + " is outside the range of an Arrow timestamp");
      }
      return Math.round(v * perUnit) + epoch;
    }
    try {
      return Math.addExact(Math.multiplyExact(asLong(data, code, i), perUnit), epoch);
    } catch (ArithmeticException e) {
      throw new MetadataException(name + ": time " + asLong(data, code, i) + " is outside the range of an Arrow timestamp");
    }
  }

  /** A type code: integers 1..8 signed by byte width, 11..18 unsigned, 24/28 floats. */
  private static int code(ArrowType type) {
    if (type instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? 0 : 10) + i.getBitWidth() / 8;
    }
    ArrowType.FloatingPoint f = (ArrowType.FloatingPoint) type;
    return switch (f.getPrecision()) {
      case HALF -> 22;
      case SINGLE -> 24;
      case DOUBLE -> 28;
    };
  }

  private static long asLong(ArrowBuf b, int code, long i) {
    return switch (code) {
      case 1 -> b.getByte(i);
      case 2 -> b.getShort(i * 2);
      case 4 -> b.getInt(i * 4);
      case 8 -> b.getLong(i * 8);
      case 11 -> b.getByte(i) & 0xFF;
      case 12 -> b.getShort(i * 2) & 0xFFFF;
      case 14 -> b.getInt(i * 4) & 0xFFFFFFFFL;
      case 18 -> b.getLong(i * 8);
      default -> (long) asDouble(b, code, i);
    };
  }

  private static double asDouble(ArrowBuf b, int code, long i) {
    return switch (code) {
      case 22 -> org.apache.arrow.memory.util.Float16.toFloat(b.getShort(i * 2));
      case 24 -> b.getFloat(i * 4);
      case 28 -> b.getDouble(i * 8);
      case 18 -> {
        long v = b.getLong(i * 8);
        yield v >= 0 ? v : (double) (v >>> 1) * 2 + (v & 1);
      }
      default -> asLong(b, code, i);
    };
  }

  /**
   * Clears the validity bits of missing values, eight elements per bitmap byte; floats read through a
   * typed view in one tight loop (the common case: float variables with a NaN or numeric fill).
   */
  private void mask(ArrowBuf data, int code, int n, ArrowBuf validity) {
    if ((code == 24 || code == 28) && fills.length == 1 && Double.isNaN(fills[0])) {
      // xarray's float default (_FillValue NaN): NaN tested on the bits, eight elements per bitmap byte
      int width = code == 24 ? 4 : 8;
      data.checkBytes(0, (long) n * width);
      validity.checkBytes(0, (n + 7) / 8);
      long at = data.memoryAddress();
      long bits = validity.memoryAddress();
      for (int i = 0; i < n; i += 8) {
        int m = Math.min(8, n - i);
        int missing = 0;
        if (width == 4) {
          for (int j = 0; j < m; j++) {
            int v = MemoryUtil.getInt(at + 4L * (i + j));
            missing |= ((v & 0x7FFFFFFF) > 0x7F800000 ? 1 : 0) << j;
          }
        } else {
          for (int j = 0; j < m; j++) {
            long v = MemoryUtil.getLong(at + 8L * (i + j));
            missing |= ((v & 0x7FFFFFFFFFFFFFFFL) > 0x7FF0000000000000L ? 1 : 0) << j;
          }
        }
        if (missing != 0) {
          long b = bits + (i >>> 3);
          MemoryUtil.putByte(b, (byte) (MemoryUtil.getByte(b) & ~missing));
        }
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      if (missing(data, code, i)) {
        org.apache.arrow.vector.BitVectorHelper.unsetBit(validity, i);
      }
    }
  }

  private boolean missing(ArrowBuf data, int code, int i) {
    if (fills.length == 0) {
      return false;
    }
    if (code >= 20) {
      double v = asDouble(data, code, i);
      for (double f : fills) {
        if (v == f || (Double.isNaN(f) && Double.isNaN(v))) {
          return true;
        }
      }
      return false;
    }
    long v = asLong(data, code, i);
    for (double f : fills) {
      if (v == f) {
        return true;
      }
    }
    return false;
  }

  private static boolean isUtf8(byte[] bytes, int len) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, len));
      return true;
    } catch (java.nio.charset.CharacterCodingException e) {
      return false;
    }
  }

  private FieldVector strings(FieldVector raw, BufferAllocator allocator) {
    if (raw instanceof VarCharVector) {
      return raw;
    }
    int n = raw.getValueCount();
    VarCharVector out = (VarCharVector) field.createVector(allocator);
    try {
      out.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (raw.isNull(i)) {
          continue;
        }
        byte[] bytes = raw instanceof FixedSizeBinaryVector f ? f.get(i) : ((org.apache.arrow.vector.VarBinaryVector) raw).get(i);
        int len = bytes.length;
        while (len > 0 && bytes[len - 1] == 0) {
          len--;
        }
        if (!isUtf8(bytes, len)) {
          throw new MetadataException(name + ": element " + i + " of the chunk is not UTF-8 text ("
              + new String(bytes, 0, len, StandardCharsets.ISO_8859_1) + ")");
        }
        out.setSafe(i, bytes, 0, len);
      }
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }
}
