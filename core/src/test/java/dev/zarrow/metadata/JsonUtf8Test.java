package dev.zarrow.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.Zarr;
import dev.zarrow.error.MetadataException;
import dev.zarrow.store.MemoryStore;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Metadata documents are strict UTF-8: every malformed sequence is refused naming the key and the offset. */
class JsonUtf8Test {

  /** {@code {"a": "x?"}} with {@code hex} bytes in place of the question mark. */
  private static byte[] document(String hex) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("{\"a\": \"x".getBytes(StandardCharsets.US_ASCII));
    for (String b : hex.split(" ")) {
      out.write(Integer.parseInt(b, 16));
    }
    out.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  @ParameterizedTest
  @CsvSource({
      "C0 80, C0",          // overlong NUL (Jackson alone accepts it)
      "E0 80 80, E0",       // overlong three-byte form
      "F0 80 80 80, F0",    // overlong four-byte form
      "ED A0 80, ED",       // an encoded surrogate (Jackson alone accepts it)
      "FF FE, FF",          // bytes that start nothing
      "E2 82, E2",          // a sequence cut short by the closing quote
      "F4 90 80 80, F4",    // above U+10FFFF
  })
  void malformedUtf8IsRefusedNamingTheKeyAndOffset(String hex, String first) {
    MetadataException e = assertThrows(MetadataException.class, () -> Json.parse(document(hex), "a/.zarray"));
    assertTrue(e.getMessage().startsWith("a/.zarray: not valid UTF-8: bytes " + first), e.getMessage());
    assertTrue(e.getMessage().contains("at byte offset 8"), e.getMessage());
  }

  @Test
  void validUtf8AndALeadingByteOrderMarkAreRead() {
    assertEquals("x\u00e9\u20ac\ud83d\ude00", Json.parse(document("C3 A9 E2 82 AC F0 9F 98 80"), "k").get("a").textValue());
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'};
    assertTrue(Json.parse(bom, "k").isObject());
  }

  @Test
  void anOverlongSequenceInAZarrayFailsTheOpenNamingTheKey() {
    MemoryStore store = new MemoryStore();
    String zarray = "{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<i4\", \"compressor\": null,"
        + " \"fill_value\": 0, \"order\": \"C\", \"filters\": null, \"note\": \"x\u0000\"}";
    byte[] bytes = zarray.replace("\u0000", "??").getBytes(StandardCharsets.US_ASCII);
    int at = zarray.indexOf('\u0000');
    bytes[at] = (byte) 0xc0;
    bytes[at + 1] = (byte) 0x80;
    store.set("a/.zarray", ByteBuffer.wrap(bytes));
    MetadataException e = assertThrows(MetadataException.class, () -> Zarr.open(store, "a"));
    assertTrue(e.getMessage().contains("a/.zarray") && e.getMessage().contains("not valid UTF-8: bytes C0 80 at byte offset " + at),
        e.getMessage());
  }
}
