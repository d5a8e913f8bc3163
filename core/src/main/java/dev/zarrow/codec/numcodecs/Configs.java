package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.MetadataException;
import dev.zarrow.metadata.NamedConfig;

/** Reads numcodecs configurations (the v2 codec object without its {@code id}), naming the key at fault. */
final class Configs {
  private Configs() {}

  /** The integer {@code key} of {@code config}, or {@code fallback} when absent (numcodecs' default). */
  static int integer(NamedConfig metadata, String key, int fallback, int min, int max) {
    JsonNode value = metadata.config().get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < min || value.intValue() > max) {
      throw new MetadataException("/configuration/" + key + ": codec " + metadata.name() + " needs an integer "
          + min + ".." + max + ", got " + value);
    }
    return value.intValue();
  }

  /** The number {@code key}, or {@code fallback} when absent. */
  static double number(NamedConfig metadata, String key, double fallback) {
    JsonNode value = metadata.config().get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isNumber()) {
      throw new MetadataException("/configuration/" + key + ": codec " + metadata.name() + " needs a number, got " + value);
    }
    return value.doubleValue();
  }

  /** The numpy data type {@code key}; {@code fallback} (may be null: then the key is required) when absent. */
  static NumpyType dtype(NamedConfig metadata, String key, NumpyType fallback) {
    JsonNode value = metadata.config().get(key);
    if (value == null || value.isNull()) {
      if (fallback == null) {
        throw new MetadataException("/configuration/" + key + ": codec " + metadata.name() + " needs a numpy dtype such as \"<i4\"");
      }
      return fallback;
    }
    if (!value.isTextual()) {
      throw new MetadataException("/configuration/" + key + ": codec " + metadata.name() + " needs a numpy dtype string, got " + value);
    }
    try {
      return NumpyType.parse(value.textValue());
    } catch (MetadataException e) {
      throw new MetadataException("/configuration/" + key + ": codec " + metadata.name() + ": " + e.getMessage());
    }
  }

  /** A copy of {@code config} (kept as read so that metadata round-trips). */
  static ObjectNode copy(NamedConfig metadata) {
    return metadata.config().deepCopy();
  }
}
