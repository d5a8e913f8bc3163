package dev.zarrow.vector;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.error.CorruptChunkException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.holders.NullableIntervalDayHolder;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * Writes the elements of any Arrow vector as JSON values through a Jackson {@link JsonGenerator}, one
 * element at a time, so that output streams without building a tree.
 *
 * <p>The forms (what {@code zarrow cat --json} prints, for every Arrow type):
 * <ul>
 *   <li>null (any type, and every element of a Null vector): {@code null};
 *   <li>bool: {@code true}/{@code false};
 *   <li>integers of every width, signed or not: JSON integers, exact (uint64 beyond 2^63 - 1 as its
 *       unsigned decimal), never {@code 1.0};
 *   <li>float16/32/64: JSON numbers whose decimal reads back as the same value of that width (float16
 *       with the fewest digits that do), the sign of {@code -0.0} kept; NaN and the infinities as the strings
 *       {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"};
 *   <li>decimal 128/256: the exact decimal as a string ({@code "-123.45"}, never an exponent);
 *   <li>utf8 (plain, large, view): strings; binary (plain, large, view, fixed-size, hence raw bits
 *       {@code r<N>}): base64 strings;
 *   <li>date, time, timestamp, duration: the stored integer in the type's unit (days, seconds, ...);
 *       interval year-month: months; day-time: {@code {"days","milliseconds"}}; month-day-nano:
 *       {@code {"months","days","nanoseconds"}};
 *   <li>list, large list, list view, fixed-size list (hence complex {@code [re, im]}): arrays; map: an
 *       array of its entries ({@code {"key": .., "value": ..}}); struct: an object keyed by child name
 *       in child order; union (sparse or dense): the value of the selected child; run-end encoded: the
 *       value of its run; extension types: the storage value;
 *   <li>dictionary-encoded fields: the dictionary's value when the writer has a
 *       {@link DictionaryProvider} that knows the dictionary, else the index.
 * </ul>
 *
 * <p>Vectors are borrowed and only read. Not thread-safe (the generator is not).
 */
public final class JsonValueWriter {
  private final JsonGenerator out;
  private final DictionaryProvider dictionaries;

  /** A writer to {@code out} that prints dictionary indices as they are. */
  public JsonValueWriter(JsonGenerator out) {
    this(out, null);
  }

  /** A writer to {@code out} that resolves dictionary-encoded fields through {@code dictionaries} (may be null). */
  public JsonValueWriter(JsonGenerator out, DictionaryProvider dictionaries) {
    this.out = out;
    this.dictionaries = dictionaries;
  }

  /** Writes every element of {@code vector} in order, each as one JSON value (no enclosing array). */
  public void writeAll(ValueVector vector) {
    for (int i = 0; i < vector.getValueCount(); i++) {
      write(vector, i);
    }
  }

  /** Writes element {@code index} of {@code vector} as one JSON value. */
  public void write(ValueVector vector, int index) {
    try {
      value(vector, index);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void value(ValueVector vector, int i) throws IOException {
    DictionaryEncoding encoding = vector.getField().getDictionary();
    if (encoding != null && dictionaries != null && !vector.isNull(i)) {
      Dictionary dictionary = dictionaries.lookup(encoding.getId());
      if (dictionary != null) {
        long index = ((BaseIntVector) vector).getValueAsLong(i);
        FieldVector values = dictionary.getVector();
        if (index < 0 || index >= values.getValueCount()) {
          throw new CorruptChunkException("dictionary index " + index + " at element " + i + " of field '"
              + vector.getField().getName() + "' is outside dictionary " + encoding.getId() + " of "
              + values.getValueCount() + " values");
        }
        value(values, (int) index);
        return;
      }
    }
    switch (vector.getMinorType()) {
      case UNION -> {
        UnionVector union = (UnionVector) vector;
        ValueVector child = union.getVectorByType(union.getTypeValue(i));
        if (child == null) {
          out.writeNull();
        } else {
          value(child, i);
        }
        return;
      }
      case DENSEUNION -> {
        DenseUnionVector union = (DenseUnionVector) vector;
        if (union.isNull(i)) {
          out.writeNull();
          return;
        }
        value(union.getVectorByType(union.getTypeId(i)), union.getOffset(i));
        return;
      }
      case RUNENDENCODED -> {
        RunEndEncodedVector ree = (RunEndEncodedVector) vector;
        value(ree.getValuesVector(), ree.getPhysicalIndex(i));
        return;
      }
      case EXTENSIONTYPE -> {
        value(((ExtensionTypeVector<?>) vector).getUnderlyingVector(), i);
        return;
      }
      default -> {}
    }
    if (vector.isNull(i)) {
      out.writeNull();
      return;
    }
    switch (vector.getMinorType()) {
      case NULL -> out.writeNull();
      case BIT -> out.writeBoolean(((BitVector) vector).get(i) != 0);
      case TINYINT, SMALLINT, INT, BIGINT -> out.writeNumber(((BaseIntVector) vector).getValueAsLong(i));
      case UINT1 -> out.writeNumber(Byte.toUnsignedInt(((UInt1Vector) vector).get(i)));
      case UINT2 -> out.writeNumber((int) ((UInt2Vector) vector).get(i));
      case UINT4 -> out.writeNumber(Integer.toUnsignedLong(((UInt4Vector) vector).get(i)));
      case UINT8 -> {
        long bits = ((UInt8Vector) vector).get(i);
        if (bits >= 0) {
          out.writeNumber(bits);
        } else {
          out.writeNumber(Long.toUnsignedString(bits));
        }
      }
      case FLOAT2 -> writeHalf(((Float2Vector) vector).get(i));
      case FLOAT4 -> writeFloat(((Float4Vector) vector).get(i));
      case FLOAT8 -> writeDouble(((Float8Vector) vector).get(i));
      case DECIMAL -> writeDecimal(((DecimalVector) vector).getObject(i));
      case DECIMAL256 -> writeDecimal(((Decimal256Vector) vector).getObject(i));
      case VARCHAR, LARGEVARCHAR, VIEWVARCHAR ->
          out.writeString(new String(((VariableWidthFieldVector) vector).get(i), StandardCharsets.UTF_8));
      case VARBINARY, LARGEVARBINARY, VIEWVARBINARY ->
          out.writeString(Base64.getEncoder().encodeToString(((VariableWidthFieldVector) vector).get(i)));
      case FIXEDSIZEBINARY -> out.writeString(Base64.getEncoder().encodeToString(((FixedSizeBinaryVector) vector).get(i)));
      case DATEDAY -> out.writeNumber(((DateDayVector) vector).get(i));
      case DATEMILLI -> out.writeNumber(((DateMilliVector) vector).get(i));
      case TIMESEC -> out.writeNumber(((TimeSecVector) vector).get(i));
      case TIMEMILLI -> out.writeNumber(((TimeMilliVector) vector).get(i));
      case TIMEMICRO -> out.writeNumber(((TimeMicroVector) vector).get(i));
      case TIMENANO -> out.writeNumber(((TimeNanoVector) vector).get(i));
      case TIMESTAMPSEC, TIMESTAMPMILLI, TIMESTAMPMICRO, TIMESTAMPNANO,
          TIMESTAMPSECTZ, TIMESTAMPMILLITZ, TIMESTAMPMICROTZ, TIMESTAMPNANOTZ ->
          out.writeNumber(((TimeStampVector) vector).get(i));
      case DURATION -> out.writeNumber(((DurationVector) vector).getDataBuffer().getLong((long) i * DurationVector.TYPE_WIDTH));
      case INTERVALYEAR -> out.writeNumber(((IntervalYearVector) vector).get(i));
      case INTERVALDAY -> {
        NullableIntervalDayHolder h = new NullableIntervalDayHolder();
        ((IntervalDayVector) vector).get(i, h);
        out.writeStartObject();
        out.writeNumberField("days", h.days);
        out.writeNumberField("milliseconds", h.milliseconds);
        out.writeEndObject();
      }
      case INTERVALMONTHDAYNANO -> {
        NullableIntervalMonthDayNanoHolder h = new NullableIntervalMonthDayNanoHolder();
        ((IntervalMonthDayNanoVector) vector).get(i, h);
        out.writeStartObject();
        out.writeNumberField("months", h.months);
        out.writeNumberField("days", h.days);
        out.writeNumberField("nanoseconds", h.nanoseconds);
        out.writeEndObject();
      }
      case LIST, MAP -> {
        ListVector list = (ListVector) vector;
        writeRange(list.getDataVector(), list.getElementStartIndex(i), list.getElementEndIndex(i));
      }
      case LARGELIST -> {
        LargeListVector list = (LargeListVector) vector;
        writeRange(list.getDataVector(), list.getElementStartIndex(i), list.getElementEndIndex(i));
      }
      case FIXED_SIZE_LIST -> {
        FixedSizeListVector list = (FixedSizeListVector) vector;
        writeRange(list.getDataVector(), list.getElementStartIndex(i), list.getElementEndIndex(i));
      }
      case LISTVIEW -> {
        // Offsets and sizes straight from the buffers: Arrow Java 18's getElementEndIndex returns the size.
        ListViewVector list = (ListViewVector) vector;
        long start = list.getOffsetBuffer().getInt((long) i * ListViewVector.OFFSET_WIDTH);
        long size = list.getSizeBuffer().getInt((long) i * ListViewVector.SIZE_WIDTH);
        writeRange(list.getDataVector(), start, start + size);
      }
      case LARGELISTVIEW -> {
        LargeListViewVector list = (LargeListViewVector) vector;
        long start = list.getOffsetBuffer().getLong((long) i * LargeListViewVector.OFFSET_WIDTH);
        long size = list.getSizeBuffer().getLong((long) i * LargeListViewVector.SIZE_WIDTH);
        writeRange(list.getDataVector(), start, start + size);
      }
      case STRUCT -> {
        AbstractStructVector struct = (AbstractStructVector) vector;
        out.writeStartObject();
        for (int c = 0; c < struct.size(); c++) {
          ValueVector child = struct.getChildByOrdinal(c);
          out.writeFieldName(child.getName());
          value(child, i);
        }
        out.writeEndObject();
      }
      default -> throw new IllegalArgumentException(
          "no JSON form for Arrow " + vector.getMinorType() + " (" + vector.getField().getType() + ")");
    }
  }

  private void writeRange(ValueVector data, long start, long end) throws IOException {
    if (start < 0 || end < start || end > data.getValueCount()) {
      throw new CorruptChunkException("list element range [" + start + ", " + end + ") outside a child of "
          + data.getValueCount() + " values");
    }
    out.writeStartArray();
    for (long j = start; j < end; j++) {
      value(data, (int) j);
    }
    out.writeEndArray();
  }

  private void writeFloat(float f) throws IOException {
    if (Float.isNaN(f)) {
      out.writeString("NaN");
    } else if (Float.isInfinite(f)) {
      out.writeString(f > 0 ? "Infinity" : "-Infinity");
    } else {
      out.writeNumber(f);
    }
  }

  private void writeDouble(double d) throws IOException {
    if (Double.isNaN(d)) {
      out.writeString("NaN");
    } else if (Double.isInfinite(d)) {
      out.writeString(d > 0 ? "Infinity" : "-Infinity");
    } else {
      out.writeNumber(d);
    }
  }

  private void writeDecimal(BigDecimal d) throws IOException {
    out.writeString(d.toPlainString());
  }

  /**
   * The decimal with the fewest digits that reads back as the same float16 ({@code 0.1}, not the
   * {@code 0.099975586} of its float32 form): the first rounding of the exact value that lies strictly
   * between the midpoints to the neighbouring float16 values.
   */
  private void writeHalf(short bits) throws IOException {
    float f = Float16.toFloat(bits);
    if (Float.isNaN(f) || Float.isInfinite(f) || f == 0) {
      writeFloat(f);
      return;
    }
    int magnitude = bits & 0x7fff;
    BigDecimal exact = new BigDecimal(Math.abs(f));
    BigDecimal below = new BigDecimal(Float16.toFloat((short) (magnitude - 1)));
    BigDecimal above = magnitude == 0x7bff ? BigDecimal.valueOf(65520) : new BigDecimal(Float16.toFloat((short) (magnitude + 1)));
    BigDecimal two = BigDecimal.valueOf(2);
    BigDecimal low = exact.add(below).divide(two);
    BigDecimal high = exact.add(above).divide(two);
    BigDecimal shortest = exact;
    for (int digits = 1; digits <= 8; digits++) {
      BigDecimal candidate = exact.round(new MathContext(digits));
      if (candidate.compareTo(low) > 0 && candidate.compareTo(high) < 0) {
        shortest = candidate;
        break;
      }
    }
    String text = shortest.toPlainString();
    if (text.indexOf('.') < 0) {
      text += ".0"; // a float prints as one, as float32 and float64 do
    }
    out.writeNumber(f < 0 ? "-" + text : text);
  }
}
