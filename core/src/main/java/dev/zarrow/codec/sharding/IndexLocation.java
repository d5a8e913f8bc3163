package dev.zarrow.codec.sharding;

/** Where a shard keeps its index: {@code "start"} or {@code "end"} (the default) of the stored object. */
public enum IndexLocation {
  START("start"),
  END("end");

  private final String json;

  IndexLocation(String json) {
    this.json = json;
  }

  /** The {@code index_location} value. */
  public String json() {
    return json;
  }
}
