package dev.zarrow.codec.blosc;

import java.util.Arrays;
import java.util.Optional;

/** The shuffle filters of Blosc: none, byte shuffle and bit shuffle, with their c-blosc codes. */
public enum BloscShuffle {
  NOSHUFFLE("noshuffle", 0),
  SHUFFLE("shuffle", 1),
  BITSHUFFLE("bitshuffle", 2);

  private final String configName;
  private final int code;

  BloscShuffle(String configName, int code) {
    this.configName = configName;
    this.code = code;
  }

  /** The name in the v3 codec configuration. */
  public String configName() {
    return configName;
  }

  /** The c-blosc (and numcodecs) code: 0, 1 or 2. */
  public int code() {
    return code;
  }

  public static Optional<BloscShuffle> byConfigName(String name) {
    return Arrays.stream(values()).filter(s -> s.configName.equals(name)).findFirst();
  }

  public static Optional<BloscShuffle> byCode(int code) {
    return Arrays.stream(values()).filter(s -> s.code == code).findFirst();
  }
}
