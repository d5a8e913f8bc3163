package dev.zarrow.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.memory.util.MemoryUtil;
import org.junit.jupiter.api.Test;

class Utf8Test {

  private static long scan(byte[] bytes) {
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    return Utf8.scan(MemoryUtil.getByteBufferAddress(direct), bytes.length);
  }

  private static byte[] hex(String hex) {
    return java.util.HexFormat.of().parseHex(hex);
  }

  @Test
  void classifiesAsciiValidAndInvalid() {
    assertEquals(Utf8.ASCII, scan(new byte[0]));
    assertEquals(Utf8.ASCII, scan("plain ascii text, longer than sixteen bytes".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(Utf8.VALID, scan("héllo wörld ✓ 😀 and more ascii after it".getBytes(StandardCharsets.UTF_8)));
    assertEquals(0, scan(hex("80")));                 // lone continuation
    assertEquals(0, scan(hex("c0af")));               // overlong '/'
    assertEquals(0, scan(hex("c1bf")));               // overlong
    assertEquals(0, scan(hex("e080af")));             // overlong three bytes
    assertEquals(0, scan(hex("eda080")));             // surrogate U+D800
    assertEquals(0, scan(hex("f08080af")));           // overlong four bytes
    assertEquals(0, scan(hex("f4908080")));           // above U+10FFFF
    assertEquals(0, scan(hex("f5808080")));
    assertEquals(0, scan(hex("ff")));
    assertEquals(3, scan(hex("616263c3")));           // truncated at the end
    assertEquals(17, scan(hex("6161616161616161616161616161616161e282")));
    assertEquals(Utf8.VALID, scan(hex("efbfbdf48fbfbf"))); // U+FFFD, U+10FFFF
  }

  @Test
  void everyLengthAroundTheWordSteps() {
    for (int n = 0; n <= 40; n++) {
      byte[] ascii = "x".repeat(n).getBytes(StandardCharsets.US_ASCII);
      assertEquals(Utf8.ASCII, scan(ascii), "length " + n);
      byte[] bad = java.util.Arrays.copyOf(ascii, n + 1);
      bad[n] = (byte) 0xc3;
      assertEquals(n, scan(bad), "truncated at " + n);
      byte[] good = (new String(ascii, StandardCharsets.US_ASCII) + "é").getBytes(StandardCharsets.UTF_8);
      assertEquals(Utf8.VALID, scan(good), "two-byte at " + n);
    }
  }

  @Test
  void agreesWithTheJdkDecoderOnRandomBytes() {
    Random random = Seeds.random("utf8 differential");
    var decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    byte[][] pieces = {
        "a".getBytes(StandardCharsets.UTF_8), "é".getBytes(StandardCharsets.UTF_8), "€".getBytes(StandardCharsets.UTF_8),
        "😀".getBytes(StandardCharsets.UTF_8), "0123456789abcdef".getBytes(StandardCharsets.UTF_8), {(byte) 0x80},
        {(byte) 0xc3}, {(byte) 0xed, (byte) 0xa0}, {(byte) 0xf4, (byte) 0x90}, {(byte) 0xe0}, {(byte) 0xff}};
    for (int round = 0; round < 20_000; round++) {
      ByteBuffer b = ByteBuffer.allocate(200);
      int parts = random.nextInt(12);
      for (int i = 0; i < parts; i++) {
        // Mostly valid pieces, sometimes a bad byte, sometimes pure noise.
        byte[] p = random.nextInt(10) == 0 ? new byte[] {(byte) random.nextInt(256)} : pieces[random.nextInt(pieces.length)];
        b.put(p);
      }
      byte[] bytes = new byte[b.position()];
      b.flip().get(bytes);
      boolean jdkValid;
      try {
        decoder.reset().decode(ByteBuffer.wrap(bytes));
        jdkValid = true;
      } catch (CharacterCodingException e) {
        jdkValid = false;
      }
      long ours = scan(bytes);
      assertEquals(jdkValid, ours < 0, () -> "bytes " + java.util.HexFormat.of().formatHex(bytes) + " -> " + ours);
    }
  }
}
