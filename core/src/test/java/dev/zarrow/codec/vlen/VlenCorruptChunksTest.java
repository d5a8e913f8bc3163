package dev.zarrow.codec.vlen;

import static dev.zarrow.codec.vlen.VlenTesting.bytes;
import static dev.zarrow.codec.vlen.VlenTesting.direct;
import static dev.zarrow.codec.vlen.VlenTesting.hex;
import static dev.zarrow.codec.vlen.VlenTesting.pipeline;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.testing.Vectors;
import dev.zarrow.error.ZarrException;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every way a chunk of each layout can be wrong is a CorruptChunkException that says what is wrong. */
@ExtendWith(AllocatorExtension.class)
class VlenCorruptChunksTest {
  private static final String PAD44 = "00".repeat(44);

  private static void assertCorrupt(String codecs, VarLenType type, int n, String chunkHex, String expected, BufferAllocator allocator) {
    CodecPipeline p = pipeline(codecs, type, n);
    for (ByteBuffer bytes : List.of(direct(hex(chunkHex)), direct(hex(chunkHex)).asReadOnlyBuffer())) {
      CorruptChunkException e = assertThrows(CorruptChunkException.class, () -> p.decode(bytes, allocator).close());
      assertTrue(e.getMessage().contains(expected), () -> "message '" + e.getMessage() + "' should say '" + expected + "'");
    }
  }

  // ---- ZEP7 ----

  @Test
  void zep7(BufferAllocator allocator) {
    String zep7 = VlenTesting.ZEP7;
    assertCorrupt(zep7, VarLenType.STRING, 4, "00000000 01000000 03000000 02000000 07000000" + PAD44 + "616262 64646464",
        "offsets decrease at element 2", allocator);
    assertCorrupt(zep7, VarLenType.STRING, 4, "00000000 01000000 03000000 03000000 08000000" + PAD44 + "616262 64646464",
        "last offset (8) is past the end of the 7 bytes", allocator);
    assertCorrupt(zep7, VarLenType.STRING, 4, "ffffffff 01000000 03000000 03000000 07000000" + PAD44 + "616262 64646464",
        "first offset is negative", allocator);
    assertCorrupt(zep7, VarLenType.LARGE_STRING, 1, "0000000000000000 0000000000000080" + "00".repeat(48),
        "offsets decrease at element 0", allocator);
    // Truncated: the offsets of 4 elements and their padding need 64 bytes.
    assertCorrupt(zep7, VarLenType.STRING, 4, "00000000 01000000 03000000 03000000 07000000", "cannot hold the 5 offsets", allocator);
    // A chunk written for 2 elements read as 4 ("wrong count"): its offsets run into the padding.
    assertCorrupt(zep7, VarLenType.BYTES, 4, "00000000 01000000 03000000" + "00".repeat(52) + "616262",
        "offsets decrease at element 2", allocator);
    assertCorrupt(zep7, VarLenType.STRING, 2, "00000000 01000000 03000000" + "00".repeat(52) + "61c328", "element 1 is not valid UTF-8",
        allocator);
  }

  // ---- vlen-utf8 / vlen-bytes ----

  @Test
  void vlenUtf8(BufferAllocator allocator) {
    String v = VlenTesting.VLEN_UTF8;
    assertCorrupt(v, VarLenType.STRING, 4, "03000000 01000000 61 02000000 6262 00000000", "header counts 3 items, the chunk has 4",
        allocator);
    assertCorrupt(v, VarLenType.STRING, 4, "040000", "truncated header", allocator);
    assertCorrupt(v, VarLenType.STRING, 4, "04000000 01000000 61", "cannot hold the lengths of 4 items", allocator);
    // Item 1 claims 7 bytes: with the two length fields after it, the chunk is too short.
    assertCorrupt(v, VarLenType.STRING, 4, "04000000 01000000 61 07000000 6262 00000000 04000000 64646464",
        "item 1 (at byte 9) claims 7 bytes, but only 6 remain", allocator);
    assertCorrupt(v, VarLenType.STRING, 2, "02000000 01000000 61 ffffffff 62", "claims 4294967295 bytes", allocator);
    assertCorrupt(v, VarLenType.STRING, 2, "02000000 01000000 61 01000000 62 00", "1 bytes follow the last of the 2 items", allocator);
    assertCorrupt(v, VarLenType.STRING, 2, "02000000 01000000 61 01000000 ff", "element 1 is not valid UTF-8", allocator);
    // Each element on its own is invalid even though their concatenation (c3 a9) is valid UTF-8.
    assertCorrupt(v, VarLenType.STRING, 2, "02000000 01000000 c3 01000000 a9", "element 0 is not valid UTF-8", allocator);
    assertCorrupt(VlenTesting.VLEN_BYTES, VarLenType.BYTES, 1, "01000000 02000000 00", "claims 2 bytes", allocator);
  }

  // ---- zarrs.vlen ----

  @Test
  void zarrsVlen(BufferAllocator allocator) {
    String start = VlenTesting.zarrsVlen("uint32", "start");
    String end = VlenTesting.zarrsVlen("uint32", "end");
    String index = "00000000 01000000 03000000 03000000 07000000";
    assertCorrupt(start, VarLenType.STRING, 4, "14000000000000", "cannot hold the 8-byte index length", allocator);
    assertCorrupt(start, VarLenType.STRING, 4, "1700000000000000" + index + "6162", "index length 23 (start) is more than the 22 bytes",
        allocator);
    assertCorrupt(start, VarLenType.STRING, 4, "1500000000000000" + index + "6162", "codec zarrs.vlen, index", allocator);
    assertCorrupt(end, VarLenType.STRING, 4, "616262 64646464" + index + "ffffffffffffffff", "index length 18446744073709551615",
        allocator);
    assertCorrupt(start, VarLenType.STRING, 4, "1400000000000000 00000000 01000000 03000000 02000000 07000000 616262 64646464",
        "index decreases at element 2", allocator);
    // The index says 7 bytes of data; only 6 are there.
    assertCorrupt(start, VarLenType.STRING, 4, "1400000000000000" + index + "616262 646464", "codec zarrs.vlen, data", allocator);
    // An index of 4 entries for 4 elements ("wrong count": 5 needed).
    assertCorrupt(start, VarLenType.STRING, 4, "1000000000000000 00000000 01000000 03000000 03000000 616262", "codec zarrs.vlen, index",
        allocator);
    assertCorrupt(VlenTesting.zarrsVlen("uint64", "start"), VarLenType.STRING, 1,
        "1000000000000000 0000000000000000 ffffffffffffffff 61", "beyond any data", allocator);
    assertCorrupt(VlenTesting.zarrsVlen("uint64", "start"), VarLenType.STRING, 1,
        "1000000000000000 0000000000000000 0000000001000000 61", "more than data type string holds", allocator);
    assertCorrupt(start, VarLenType.STRING, 2, "0c00000000000000 00000000 01000000 02000000 61 ff", "element 1 is not valid UTF-8",
        allocator);
  }

  @Test
  void utf8CheckCanBeSkipped(BufferAllocator allocator) {
    CodecOptions lax = CodecOptions.DEFAULT.withValidateUtf8(false);
    byte[][] expected = {{'a'}, {(byte) 0xff}};
    for (String[] layout : new String[][] {
        {VlenTesting.ZEP7, "00000000 01000000 02000000" + "00".repeat(52) + "61ff"},
        {VlenTesting.VLEN_UTF8, "02000000 01000000 61 01000000 ff"},
        {VlenTesting.zarrsVlen("uint32", "start"), "0c00000000000000 00000000 01000000 02000000 61 ff"}}) {
      try (FieldVector v = pipeline(layout[0], VarLenType.STRING, lax, 2).decode(direct(hex(layout[1])), allocator)) {
        assertArrayEquals(expected, Vectors.byteArrays(v));
      }
    }
  }

  /** Truncations and bit flips of valid chunks of every layout throw only ZarrExceptions (or decode). */
  @Test
  void damagedChunksNeverEscapeAsOtherErrors(BufferAllocator allocator) {
    Random random = Seeds.random("damaged vlen chunks");
    for (VarLenType type : VarLenType.ALL) {
      for (String codecs : List.of(VlenTesting.ZEP7, VlenTesting.interleaved(type), VlenTesting.zarrsVlen("uint32", "start"),
          VlenTesting.zarrsVlen("uint64", "end"), VlenTesting.zarrsVlenCompressed("uint32", "end"))) {
        CodecPipeline p = pipeline(codecs, type, 40);
        byte[] good;
        byte[][] values = type.isText() ? VlenTesting.utf8(VlenTesting.randomStrings(random, 40)) : VlenTesting.randomBytes(random, 40);
        try (FieldVector v = Vectors.varLen(type, allocator, values)) {
          good = bytes(p.encode(v));
        }
        for (int round = 0; round < 300; round++) {
          byte[] bad = round % 3 == 0
              ? java.util.Arrays.copyOf(good, random.nextInt(good.length))
              : good.clone();
          if (round % 3 != 0) {
            for (int k = 0; k <= random.nextInt(3); k++) {
              bad[random.nextInt(bad.length)] ^= (byte) (1 << random.nextInt(8));
            }
          }
          try (FieldVector v = p.decode(direct(bad), allocator)) {
            // A flip in the data of a binary type (or a lucky one elsewhere) still decodes: fine.
            assertTrue(v.getValueCount() == 40);
          } catch (ZarrException expectedFailure) {
            // what hostile input must produce
          }
        }
      }
    }
  }
}
