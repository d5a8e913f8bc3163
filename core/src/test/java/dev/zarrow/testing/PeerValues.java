package dev.zarrow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * Values in the peers' JSON form (src/test/node/README.md, "Value conventions") and their comparison.
 *
 * <p>The form: 8..32-bit integers as JSON numbers; every value stored as a 64-bit integer (int64, uint64,
 * timestamps, date64, time64, durations) as a decimal string; floats as JSON numbers with {@code "NaN"},
 * {@code "Infinity"}, {@code "-Infinity"} as strings and negative zero as {@code -0.0}; bool as
 * true/false; strings as strings; binary as base64; decimals as strings ({@code "-123.45"}); lists as
 * arrays, structs as objects, maps as arrays of {@code {key, value}}; null as null.
 *
 * <p>{@link #same} compares numbers by value, so {@code 3} equals {@code 3.0} but {@code 0} does not
 * equal {@code -0.0}, and decimal strings equal the integral numbers they spell.
 */
public final class PeerValues {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private PeerValues() {}

  /** A float in the peers' form. */
  public static JsonNode ofDouble(double d) {
    if (Double.isNaN(d)) {
      return NODES.textNode("NaN");
    }
    if (Double.isInfinite(d)) {
      return NODES.textNode(d > 0 ? "Infinity" : "-Infinity");
    }
    return NODES.numberNode(d);
  }

  /** A 64-bit signed integer in the peers' form (a decimal string). */
  public static JsonNode ofInt64(long v) {
    return NODES.textNode(Long.toString(v));
  }

  /** A 64-bit unsigned integer in the peers' form (a decimal string). */
  public static JsonNode ofUint64(long v) {
    return NODES.textNode(Long.toUnsignedString(v));
  }

  /** An integer narrower than 64 bits in the peers' form. */
  public static JsonNode ofInt(long v) {
    return NODES.numberNode(v);
  }

  /** Binary in the peers' form (base64). */
  public static JsonNode ofBytes(byte[] b) {
    return NODES.textNode(Base64.getEncoder().encodeToString(b));
  }

  /** Whether two values in the peers' form are the same value. */
  public static boolean same(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.isNumber() && b.isNumber()) {
      if (a.isIntegralNumber() && b.isIntegralNumber()) {
        return a.bigIntegerValue().equals(b.bigIntegerValue());
      }
      return Double.compare(a.doubleValue(), b.doubleValue()) == 0;
    }
    if (a.isNumber() != b.isNumber() && (a.isTextual() || b.isTextual())) {
      JsonNode num = a.isNumber() ? a : b;
      JsonNode text = a.isTextual() ? a : b;
      if (num.isIntegralNumber()) {
        try {
          return new BigInteger(text.asText()).equals(num.bigIntegerValue());
        } catch (NumberFormatException e) {
          return false;
        }
      }
      return false;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!same(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        if (!b.has(e.getKey()) || !same(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** Asserts two value lists are the same, naming the first differing index. */
  public static void assertSameValues(JsonNode expected, JsonNode actual, String context) {
    if (expected == null || actual == null || !expected.isArray() || !actual.isArray()) {
      throw new AssertionFailedError(context + ": expected two value arrays", expected, actual);
    }
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!same(expected.get(i), actual.get(i))) {
        throw new AssertionFailedError(
            context + ": element " + i + " differs", expected.get(i), actual.get(i));
      }
    }
    if (expected.size() != actual.size()) {
      throw new AssertionFailedError(
          context + ": " + actual.size() + " values, expected " + expected.size(), expected.size(), actual.size());
    }
  }
}
