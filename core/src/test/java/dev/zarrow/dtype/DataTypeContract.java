package dev.zarrow.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.MetadataException;
import dev.zarrow.spi.Registry;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Vectors;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every data type must do: fill values in every JSON form round-trip exactly, bad ones are refused
 * with a pointer to {@code /fill_value}, {@link DataType#filled} and {@link DataType#isAllFill} agree,
 * and the type is made again from its own metadata. A type's test subclasses this with its JSON cases.
 */
@ExtendWith(AllocatorExtension.class)
public abstract class DataTypeContract {

  protected abstract DataType type();

  /** Fill values as compact JSON text, each of which parses and prints back as exactly this text. At least two that differ. */
  protected abstract List<String> canonicalFills();

  /** Other spellings of fill values, each with the canonical text it prints as. */
  protected Map<String, String> equivalentFills() {
    return Map.of();
  }

  /** Fill values (JSON text) the type must refuse. */
  protected abstract List<String> badFills();

  /** Golden element bytes (hex) of fill values (JSON text), for types with a fixed layout. */
  protected Map<String, String> fillBytes() {
    return Map.of();
  }

  protected Registry registry() {
    return Registry.defaults();
  }

  protected final FillValue parse(String json) {
    return type().parseFill(Json.parse(json, "fill value"));
  }

  protected final String print(FillValue fill) {
    return Json.compact(type().fillToJson(fill));
  }

  @Test
  void canonicalFillValuesRoundTrip() {
    for (String json : canonicalFills()) {
      FillValue fill = parse(json);
      assertEquals(json, print(fill), type().name() + " fill " + json);
      assertEquals(fill, parse(print(fill)), type().name() + " fill " + json + " parsed again");
    }
  }

  @Test
  void otherSpellingsPrintCanonically() {
    equivalentFills().forEach((json, canonical) ->
        assertEquals(canonical, print(parse(json)), type().name() + " fill " + json));
  }

  @Test
  void fillValuesHaveTheirBytes() {
    fillBytes().forEach((json, hex) ->
        assertEquals(hex, Vectors.hex(parse(json).bytes()), type().name() + " fill " + json));
  }

  @Test
  void refusesBadFillValuesNamingThePointer() {
    for (String json : badFills()) {
      var e = assertThrows(MetadataException.class, () -> parse(json), type().name() + " must refuse fill " + json);
      assertTrue(e.getMessage().contains("/fill_value"), e.getMessage());
    }
  }

  @Test
  void defaultFillRoundTrips() {
    FillValue fill = type().defaultFill();
    assertEquals(fill, parse(print(fill)));
  }

  @Test
  void filledVectorsAreAllFill(BufferAllocator allocator) {
    List<FillValue> fills = canonicalFills().stream().map(this::parse).distinct().toList();
    assertTrue(fills.size() >= 2, "the contract needs two different canonical fill values");
    for (FillValue fill : fills) {
      FillValue other = fills.get(fills.get(0).equals(fill) ? 1 : 0);
      for (int n : new int[] {0, 1, 7, 1000}) {
        String what = type().name() + " " + n + " x " + print(fill);
        try (FieldVector v = type().filled(allocator, n, fill);
            FieldVector o = type().filled(allocator, n, other)) {
          assertEquals(n, v.getValueCount(), what);
          assertEquals(type().field("x").getType(), v.getField().getType(), what);
          assertTrue(type().isAllFill(v, fill), what);
          if (n > 0) {
            assertFalse(type().isAllFill(v, other), what + " is not all " + print(other));
            v.copyFromSafe(0, n - 1, o);
            assertFalse(type().isAllFill(v, fill), what + " with its last element changed");
          } else {
            assertTrue(type().isAllFill(v, other), "an empty vector is all of anything");
          }
        }
      }
    }
  }

  @Test
  void isMadeFromItsMetadata() {
    NamedConfig metadata = type().toMetadata();
    NamedConfig parsed = NamedConfig.parse(Json.parse(Json.compact(metadata.toJson()), "t"), "/data_type");
    DataType again = registry().dataType(parsed);
    assertEquals(type(), again);
    assertEquals(type().name(), again.name());
    assertEquals(metadata.toJson(), again.toMetadata().toJson());
    assertEquals("col", type().field("col").getName());
    assertNotEquals(null, type().defaultSerializer());
  }
}
