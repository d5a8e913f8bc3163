package dev.zarrow.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.metadata.Json;
import dev.zarrow.testing.AllocatorExtension;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.RunEndEncodedVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.extension.OpaqueType;
import org.apache.arrow.vector.holders.NullableIntHolder;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.Types.MinorType;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The JSON form of every Arrow vector type, nested ones included. */
@ExtendWith(AllocatorExtension.class)
class JsonValueWriterTest {

  private static String json(ValueVector vector) {
    return json(vector, null);
  }

  private static String json(ValueVector vector, DictionaryProvider dictionaries) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = Json.FACTORY.createGenerator(text)) {
      g.writeStartArray();
      new JsonValueWriter(g, dictionaries).writeAll(vector);
      g.writeEndArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return text.toString();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void scalarsWithNulls(BufferAllocator allocator) {
    try (BigIntVector v = new BigIntVector("i", allocator); UInt8Vector u = new UInt8Vector("u", allocator);
        Float8Vector f = new Float8Vector("f", allocator); NullVector n = new NullVector("n", 2)) {
      v.allocateNew(3);
      v.set(0, Long.MIN_VALUE);
      v.setNull(1);
      v.set(2, 1);
      v.setValueCount(3);
      assertEquals("[-9223372036854775808,null,1]", json(v));
      u.allocateNew(2);
      u.set(0, -2L);
      u.setNull(1);
      u.setValueCount(2);
      assertEquals("[18446744073709551614,null]", json(u));
      f.allocateNew(3);
      f.set(0, -0.0);
      f.setNull(1);
      f.set(2, 2.5e-10);
      f.setValueCount(3);
      assertEquals("[-0.0,null,2.5E-10]", json(f));
      assertEquals("[null,null]", json(n));
    }
  }

  @Test
  void textAndBinary(BufferAllocator allocator) {
    try (VarCharVector s = new VarCharVector("s", allocator); LargeVarCharVector l = new LargeVarCharVector("l", allocator);
        ViewVarCharVector w = new ViewVarCharVector("w", allocator); VarBinaryVector b = new VarBinaryVector("b", allocator);
        FixedSizeBinaryVector fb = new FixedSizeBinaryVector("fb", allocator, 3)) {
      s.setSafe(0, utf8("naïve \"q\"\n"));
      s.setNull(1);
      s.setSafe(2, utf8(""));
      s.setValueCount(3);
      assertEquals("[\"naïve \\\"q\\\"\\n\",null,\"\"]", json(s));
      l.setSafe(0, utf8("日本"));
      l.setValueCount(1);
      assertEquals("[\"日本\"]", json(l));
      w.setSafe(0, utf8("a string longer than twelve bytes"));
      w.setSafe(1, utf8("short"));
      w.setValueCount(2);
      assertEquals("[\"a string longer than twelve bytes\",\"short\"]", json(w));
      b.setSafe(0, new byte[] {0, 1, (byte) 0xff});
      b.setNull(1);
      b.setValueCount(2);
      assertEquals("[\"AAH/\",null]", json(b));
      fb.allocateNew(1);
      fb.set(0, new byte[] {(byte) 0xfb, (byte) 0xff, 0});
      fb.setValueCount(1);
      assertEquals("[\"+/8A\"]", json(fb));
    }
  }

  @Test
  void decimalsAreExactStrings(BufferAllocator allocator) {
    try (DecimalVector d = new DecimalVector("d", allocator, 10, 2); Decimal256Vector e = new Decimal256Vector("e", allocator, 60, 0)) {
      d.allocateNew(2);
      d.set(0, new BigDecimal("-123.45"));
      d.set(1, new BigDecimal("0.10"));
      d.setValueCount(2);
      assertEquals("[\"-123.45\",\"0.10\"]", json(d));
      e.allocateNew(1);
      e.set(0, new BigDecimal("1" + "0".repeat(50)));
      e.setValueCount(1);
      assertEquals("[\"1" + "0".repeat(50) + "\"]", json(e));
    }
  }

  @Test
  void temporalTypesAsStoredIntegers(BufferAllocator allocator) {
    try (DateDayVector date = new DateDayVector("d", allocator); TimeMicroVector time = new TimeMicroVector("t", allocator);
        TimeStampNanoTZVector ts = new TimeStampNanoTZVector("ts", allocator, "UTC");
        DurationVector dur = new DurationVector("du", FieldType.nullable(new ArrowType.Duration(TimeUnit.SECOND)), allocator);
        IntervalYearVector iy = new IntervalYearVector("iy", allocator); IntervalDayVector id = new IntervalDayVector("id", allocator);
        IntervalMonthDayNanoVector imdn = new IntervalMonthDayNanoVector("imdn", allocator)) {
      date.allocateNew(1);
      date.set(0, -1);
      date.setValueCount(1);
      time.allocateNew(1);
      time.set(0, 86_399_999_999L);
      time.setValueCount(1);
      ts.allocateNew(1);
      ts.set(0, Long.MAX_VALUE);
      ts.setValueCount(1);
      dur.allocateNew(1);
      dur.set(0, -5);
      dur.setValueCount(1);
      iy.allocateNew(1);
      iy.set(0, 14);
      iy.setValueCount(1);
      id.allocateNew(1);
      id.set(0, 3, -4);
      id.setValueCount(1);
      imdn.allocateNew(1);
      imdn.set(0, 1, 2, 3_000_000_000L);
      imdn.setValueCount(1);
      assertEquals("[-1]", json(date));
      assertEquals("[86399999999]", json(time));
      assertEquals("[9223372036854775807]", json(ts));
      assertEquals("[-5]", json(dur));
      assertEquals("[14]", json(iy));
      assertEquals("[{\"days\":3,\"milliseconds\":-4}]", json(id));
      assertEquals("[{\"months\":1,\"days\":2,\"nanoseconds\":3000000000}]", json(imdn));
    }
  }

  @Test
  void listsOfEveryKind(BufferAllocator allocator) {
    try (ListVector list = ListVector.empty("l", allocator); LargeListVector large = LargeListVector.empty("ll", allocator);
        FixedSizeListVector fixed = FixedSizeListVector.empty("f", 2, allocator)) {
      UnionListWriter w = list.getWriter();
      w.setPosition(0);
      w.startList();
      w.writeInt(1);
      w.writeInt(2);
      w.endList();
      w.setPosition(2);
      w.startList();
      w.endList();
      w.setValueCount(3);
      list.setNull(1);
      assertEquals("[[1,2],null,[]]", json(list));

      var lw = large.getWriter();
      lw.setPosition(0);
      lw.startList();
      lw.writeBigInt(7L);
      lw.endList();
      lw.setValueCount(1);
      assertEquals("[[7]]", json(large));

      fixed.addOrGetVector(FieldType.nullable(MinorType.INT.getType()));
      fixed.allocateNew();
      IntVector items = (IntVector) fixed.getDataVector();
      items.allocateNew(4);
      items.set(0, 1);
      items.set(1, 2);
      items.setNull(2);
      items.set(3, 4);
      items.setValueCount(4);
      fixed.setNotNull(0);
      fixed.setNotNull(1);
      fixed.setValueCount(2);
      assertEquals("[[1,2],[null,4]]", json(fixed));
    }
  }

  @Test
  void listViewsMayShareAndReorderTheirValues(BufferAllocator allocator) {
    try (ListViewVector view = ListViewVector.empty("v", allocator); LargeListViewVector large = LargeListViewVector.empty("lv", allocator)) {
      view.addOrGetVector(FieldType.nullable(MinorType.INT.getType()));
      view.allocateNew();
      IntVector items = (IntVector) view.getDataVector();
      for (int i = 0; i < 4; i++) {
        items.setSafe(i, 10 + i);
      }
      items.setValueCount(4);
      // [12, 13], [10, 11, 12], null, []
      view.setOffset(0, 2);
      view.setSize(0, 2);
      view.setValidity(0, 1);
      view.setOffset(1, 0);
      view.setSize(1, 3);
      view.setValidity(1, 1);
      view.setValidity(2, 0);
      view.setOffset(3, 1);
      view.setSize(3, 0);
      view.setValidity(3, 1);
      view.setValueCount(4);
      assertEquals("[[12,13],[10,11,12],null,[]]", json(view));

      large.addOrGetVector(FieldType.nullable(MinorType.VARCHAR.getType()));
      large.allocateNew();
      VarCharVector texts = (VarCharVector) large.getDataVector();
      texts.setSafe(0, utf8("a"));
      texts.setSafe(1, utf8("b"));
      texts.setValueCount(2);
      large.setOffset(0, 1);
      large.setSize(0, 1);
      large.setOffset(1, 0);
      large.setSize(1, 2);
      large.getValidityBuffer().setByte(0, 0b11);
      large.setValueCount(2);
      assertEquals("[[\"b\"],[\"a\",\"b\"]]", json(large));
    }
  }

  @Test
  void structsAndMaps(BufferAllocator allocator) {
    try (StructVector s = StructVector.empty("s", allocator); MapVector m = MapVector.empty("m", allocator, false)) {
      IntVector a = s.addOrGet("a", FieldType.nullable(MinorType.INT.getType()), IntVector.class);
      VarCharVector b = s.addOrGet("b", FieldType.nullable(MinorType.VARCHAR.getType()), VarCharVector.class);
      s.allocateNew();
      s.setIndexDefined(0);
      a.setSafe(0, 5);
      b.setSafe(0, utf8("x"));
      s.setNull(1);
      s.setIndexDefined(2);
      a.setNull(2);
      b.setSafe(2, utf8("y"));
      a.setValueCount(3);
      b.setValueCount(3);
      s.setValueCount(3);
      assertEquals("[{\"a\":5,\"b\":\"x\"},null,{\"a\":null,\"b\":\"y\"}]", json(s));

      UnionMapWriter w = m.getWriter();
      w.setPosition(0);
      w.startMap();
      w.startEntry();
      w.key().integer().writeInt(1);
      w.value().integer().writeInt(10);
      w.endEntry();
      w.endMap();
      w.setValueCount(1);
      assertEquals("[[{\"key\":1,\"value\":10}]]", json(m));
    }
  }

  @Test
  void unionsPrintTheSelectedValue(BufferAllocator allocator) {
    try (UnionVector sparse = UnionVector.empty("u", allocator);
        DenseUnionVector dense = DenseUnionVector.empty("d", allocator)) {
      sparse.allocateNew();
      NullableIntHolder one = new NullableIntHolder();
      one.isSet = 1;
      one.value = 1;
      sparse.setType(0, MinorType.INT);
      sparse.setSafe(0, one);
      sparse.setType(1, MinorType.FLOAT8);
      sparse.getFloat8Vector().setSafe(1, 0.5);
      sparse.setValueCount(2);
      assertEquals("[1,0.5]", json(sparse));

      byte intType = dense.registerNewTypeId(Field.nullable("i", MinorType.INT.getType()));
      byte textType = dense.registerNewTypeId(Field.nullable("t", MinorType.VARCHAR.getType()));
      IntVector ints = (IntVector) dense.addVector(intType, new IntVector("i", allocator));
      VarCharVector texts = (VarCharVector) dense.addVector(textType, new VarCharVector("t", allocator));
      dense.allocateNew();
      ints.setSafe(0, 42);
      ints.setValueCount(1);
      texts.setSafe(0, utf8("z"));
      texts.setValueCount(1);
      dense.setTypeId(0, textType);
      dense.getOffsetBuffer().setInt(0, 0);
      dense.setTypeId(1, intType);
      dense.getOffsetBuffer().setInt(4, 0);
      dense.setValueCount(2);
      assertEquals("[\"z\",42]", json(dense));
    }
  }

  @Test
  void dictionariesResolveWhenKnown(BufferAllocator allocator) {
    DictionaryEncoding encoding = new DictionaryEncoding(7, false, new ArrowType.Int(32, true));
    Field field = new Field("c", new FieldType(true, MinorType.INT.getType(), encoding), null);
    try (VarCharVector words = new VarCharVector("dict", allocator); IntVector indices = (IntVector) field.createVector(allocator)) {
      words.setSafe(0, utf8("red"));
      words.setSafe(1, utf8("green"));
      words.setValueCount(2);
      indices.allocateNew(3);
      indices.set(0, 1);
      indices.setNull(1);
      indices.set(2, 0);
      indices.setValueCount(3);
      DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider(new Dictionary(words, encoding));
      assertEquals("[\"green\",null,\"red\"]", json(indices, provider));
      assertEquals("[1,null,0]", json(indices));

      indices.set(2, 9);
      assertThrows(CorruptChunkException.class, () -> json(indices, provider));
    }
  }

  @Test
  void runEndEncodedAndExtensionTypes(BufferAllocator allocator) {
    Field reeField = new Field("r", FieldType.nullable(new ArrowType.RunEndEncoded()), List.of(
        Field.notNullable("run_ends", MinorType.INT.getType()), Field.nullable("values", MinorType.VARCHAR.getType())));
    try (RunEndEncodedVector ree = (RunEndEncodedVector) reeField.createVector(allocator)) {
      ree.allocateNew();
      IntVector ends = (IntVector) ree.getRunEndsVector();
      VarCharVector values = (VarCharVector) ree.getValuesVector();
      ends.setSafe(0, 2);
      ends.setSafe(1, 5);
      ends.setValueCount(2);
      values.setSafe(0, utf8("a"));
      values.setNull(1);
      values.setValueCount(2);
      ree.setValueCount(5);
      assertEquals("[\"a\",\"a\",null,null,null]", json(ree));
    }
    Field opaque = new Field("o", FieldType.nullable(new OpaqueType(MinorType.VARBINARY.getType(), "t", "v")), null);
    try (FieldVector vector = opaque.createVector(allocator)) {
      VarBinaryVector storage = (VarBinaryVector) ((org.apache.arrow.vector.ExtensionTypeVector<?>) vector).getUnderlyingVector();
      storage.setSafe(0, new byte[] {1});
      storage.setValueCount(1);
      vector.setValueCount(1);
      assertEquals("[\"AQ==\"]", json(vector));
    }
  }
}
