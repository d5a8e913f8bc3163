package dev.zarrow.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.PythonPeer;
import dev.zarrow.testing.Vectors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The numpy data types against numpy itself: {@code core/src/test/python/numpy_dtypes.py raw} writes
 * {@code arr.tobytes()} of every fixed-size dtype beyond the core ones (datetime64/timedelta64 of several
 * units, {@code <U}/{@code >U}, {@code |S}, {@code |V}, packed structs little and big endian, nested) and
 * prints the values numpy holds; zarrow decodes the bytes through its data type and the {@code bytes}
 * codec, compares every value, and encodes them back to the same bytes. (The script's {@code zarr2} mode
 * writes the same cases as zarr-python 2 arrays, for the Zarr v2 interop tests.)
 */
@ExtendWith(AllocatorExtension.class)
class NumpyDtypesInteropTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @BeforeEach
  void peer() {
    PythonPeer.assumeAvailable();
  }

  @Test
  void decodesWhatNumpyHoldsAndEncodesTheSameBytes(@TempDir Path dir, BufferAllocator allocator) throws IOException {
    JsonNode manifest = PythonPeer.run(TIMEOUT, "numpy_dtypes.py", "raw", dir.toString());
    assertTrue(manifest.get("cases").size() >= 20, "cases: " + manifest.get("cases").size());
    for (JsonNode c : manifest.get("cases")) {
      String id = c.get("id").asText();
      DataType type = Registry.defaults().dataType(NamedConfig.parse(c.get("data_type"), "/data_type"));
      int count = c.get("shape").get(0).asInt();
      ChunkSpec spec = new ChunkSpec(new int[] {count}, type, type.defaultFill());
      ArrayToBytesCodec bytes = (ArrayToBytesCodec) Registry.defaults().codec(
          NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", c.get("endian").asText())), CodecOptions.DEFAULT);
      byte[] stored = Files.readAllBytes(dir.resolve(id + ".bin"));
      try (FieldVector v = bytes.decode(Vectors.direct(stored), spec, allocator)) {
        assertEquals(type.field("x").getType(), v.getField().getType(), id);
        for (int i = 0; i < count; i++) {
          JsonNode want = c.get("values").get(i);
          JsonNode got = json(v, i);
          assertTrue(want.equals(NUMERIC, got), id + " element " + i + ": numpy " + want + ", zarrow " + got);
        }
        ByteBuffer again = bytes.encode(v, spec, allocator);
        assertArrayEquals(stored, Vectors.toArray(again), id + " encoded again");
        assertTrue(((FixedWidthType) type).isAllFill(v, ((FixedWidthType) type).parseFill(type.fillToJson(
            dev.zarrow.dtype.FillValue.of(firstElement(stored, c, type))))) == allEqual(c.get("values")), id + " isAllFill");
      }
    }
  }

  /** The first element's little-endian bytes, from the stored bytes of a case (swapped back for big endian). */
  private static byte[] firstElement(byte[] stored, JsonNode c, DataType type) {
    byte[] first = java.util.Arrays.copyOf(stored, type.byteWidth());
    if (c.get("endian").asText().equals("big")) {
      int at = 0;
      for (int unit : ((FixedWidthType) type).swapUnits()) {
        for (int j = 0; j < unit / 2; j++) {
          byte b = first[at + j];
          first[at + j] = first[at + unit - 1 - j];
          first[at + unit - 1 - j] = b;
        }
        at += unit;
      }
    }
    return first;
  }

  private static boolean allEqual(JsonNode values) {
    for (JsonNode v : values) {
      if (!v.equals(NUMERIC, values.get(0))) {
        return false;
      }
    }
    return true;
  }

  /** Numbers equal by value (numpy prints 1.5 for a float32 that Java reads as 1.5f), everything else exactly. */
  static final Comparator<JsonNode> NUMERIC = (a, b) -> {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return a.equals(b) ? 0 : 1;
  };

  /**
   * Element {@code i} of {@code v} as numpy_dtypes.py prints values: time types as their int64 count
   * (null for NaT), strings, base64 bytes, objects for structs, [re, im] for complex numbers.
   */
  static JsonNode json(FieldVector v, int i) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (v.isNull(i)) {
      return f.nullNode();
    }
    if (v instanceof TimeStampVector || v instanceof DurationVector) {
      return f.numberNode(v.getDataBuffer().getLong(8L * i));
    }
    if (v instanceof VarCharVector s) {
      return f.textNode(new String(s.get(i), java.nio.charset.StandardCharsets.UTF_8));
    }
    if (v instanceof FixedSizeBinaryVector b) {
      return f.textNode(Base64.getEncoder().encodeToString(b.get(i)));
    }
    if (v instanceof StructVector s) {
      ObjectNode out = f.objectNode();
      for (FieldVector child : s.getChildrenFromFields()) {
        out.set(child.getName(), json(child, i));
      }
      return out;
    }
    if (v instanceof BitVector b) {
      return f.booleanNode(b.get(i) != 0);
    }
    if (v instanceof FixedSizeListVector list) {
      ArrayNode pair = f.arrayNode();
      pair.add(json((FieldVector) list.getDataVector(), 2 * i));
      pair.add(json((FieldVector) list.getDataVector(), 2 * i + 1));
      return pair;
    }
    if (v instanceof Float4Vector x) {
      return f.numberNode((double) x.get(i));
    }
    if (v instanceof Float8Vector x) {
      return f.numberNode(x.get(i));
    }
    if (v instanceof BaseIntVector x) {
      return f.numberNode(x.getValueAsLong(i));
    }
    throw new AssertionError("no JSON form for " + v.getField());
  }

  static String compact(JsonNode node) {
    return Json.compact(node);
  }
}
