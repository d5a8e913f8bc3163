package dev.zarrow.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.scalableminds.bloscjava.Blosc;
import dev.zarrow.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks against a real c-blosc (1.21.4, through blosc-java's JNI binding) in both directions, over
 * the whole matrix of {@link BloscCases}: what c-blosc writes, zarrow reads; what zarrow writes, c-blosc
 * reads, and with the header c-blosc would have written (same block size, same flags).
 */
class BloscNativeCrossCheckTest {
  private static final List<BloscCompressor> NATIVE =
      List.of(BloscCompressor.BLOSCLZ, BloscCompressor.LZ4, BloscCompressor.LZ4HC, BloscCompressor.ZLIB, BloscCompressor.ZSTD);
  private static final List<BloscCompressor> ENCODABLE = NATIVE;

  private final BloscDecoder decoder = new BloscDecoder();

  static byte[] nativeCompress(BloscCases.Case c) {
    return Blosc.compress(c.data(), c.typesize(), Blosc.Compressor.fromString(c.cname().cname()), c.clevel(),
        Blosc.Shuffle.fromInt(c.shuffle().code()), 0, 1);
  }

  @Test
  void readsWhatCBloscWrites() {
    Random random = Seeds.random("blosc: c-blosc writes, zarrow reads");
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (BloscCases.Case c : BloscCases.all(NATIVE, random)) {
      byte[] compressed = nativeCompress(c);
      n++;
      try {
        ByteBuffer decoded = decoder.decode(direct(compressed), c.data().length, Integer.MAX_VALUE, Runnable::run);
        if (!Arrays.equals(c.data(), bytes(decoded))) {
          failures.add(c + ": decoded to other bytes");
        }
        ByteBuffer into = ByteBuffer.allocateDirect(c.data().length);
        decoder.decodeInto(ByteBuffer.wrap(compressed).asReadOnlyBuffer(), into, Runnable::run);
        if (!Arrays.equals(c.data(), bytes(into))) {
          failures.add(c + ": decodeInto from heap input wrote other bytes");
        }
      } catch (RuntimeException e) {
        failures.add(c + ": " + e);
      }
    }
    assertTrue(n > 1000, "the matrix has " + n + " cases");
    assertTrue(failures.isEmpty(), failures.size() + " of " + n + " cases failed, e.g.\n" + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
  }

  @Test
  void cBloscReadsWhatZarrowWrites() {
    Random random = Seeds.random("blosc: zarrow writes, c-blosc reads");
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (BloscCases.Case c : BloscCases.all(ENCODABLE, random)) {
      n++;
      try {
        byte[] ours = bytes(new BloscEncoder(c.cname(), c.clevel(), c.shuffle(), c.typesize(), 0).encode(direct(c.data())));
        byte[] back = Blosc.decompress(ours);
        if (!Arrays.equals(c.data(), back)) {
          failures.add(c + ": c-blosc decoded our chunk to other bytes");
          continue;
        }
        byte[] theirs = nativeCompress(c);
        String header = sameHeader(ours, theirs);
        if (header != null) {
          failures.add(c + ": " + header);
        }
      } catch (RuntimeException e) {
        failures.add(c + ": " + e);
      }
    }
    assertTrue(n > 1000, "the matrix has " + n + " cases");
    assertTrue(failures.isEmpty(), failures.size() + " of " + n + " cases failed, e.g.\n" + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
  }

  /**
   * Issue 27: zarrow's BloscLZ compresses every case of the matrix to within 10% of c-blosc's size, at
   * every level (the same algorithm, so mostly to the same bytes); the count of byte-identical chunks is
   * printed.
   */
  @Test
  void blosclzCompressesAsSmallAsCBlosc() {
    Random random = Seeds.random("blosc: blosclz sizes");
    List<String> failures = new ArrayList<>();
    int n = 0;
    int identical = 0;
    long oursTotal = 0;
    long theirsTotal = 0;
    for (BloscCases.Case c : BloscCases.all(List.of(BloscCompressor.BLOSCLZ), random)) {
      n++;
      byte[] ours = bytes(new BloscEncoder(c.cname(), c.clevel(), c.shuffle(), c.typesize(), 0).encode(direct(c.data())));
      byte[] theirs = nativeCompress(c);
      identical += Arrays.equals(ours, theirs) ? 1 : 0;
      oursTotal += ours.length;
      theirsTotal += theirs.length;
      if (ours.length > theirs.length * 1.1) {
        failures.add(c + ": " + ours.length + " bytes, c-blosc " + theirs.length);
      }
    }
    System.out.println("blosclz: " + identical + " of " + n + " chunks byte-identical to c-blosc's; " + oursTotal
        + " bytes in all, c-blosc " + theirsTotal);
    assertTrue(failures.isEmpty(), failures.size() + " of " + n + " cases over 110%, e.g.\n"
        + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
  }

  /**
   * Null when our header matches c-blosc's in everything but the compressed size: version, flags (the
   * memcpyed bit may differ only where one side's compressor did better), typesize, nbytes, blocksize.
   */
  private static String sameHeader(byte[] ours, byte[] theirs) {
    ByteBuffer a = ByteBuffer.wrap(ours).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer b = ByteBuffer.wrap(theirs).order(ByteOrder.LITTLE_ENDIAN);
    int flagsA = a.get(2) & 0xff;
    int flagsB = b.get(2) & 0xff;
    boolean memcpyDiffers = ((flagsA ^ flagsB) & BloscHeader.MEMCPYED) != 0;
    if (((flagsA ^ flagsB) & ~BloscHeader.MEMCPYED) != 0 || (memcpyDiffers && ours.length < 256)) {
      return "flags 0x" + Integer.toHexString(flagsA) + ", c-blosc writes 0x" + Integer.toHexString(flagsB);
    }
    for (int i : new int[] {0, 1, 3}) {
      if (a.get(i) != b.get(i)) {
        return "header byte " + i + " is " + a.get(i) + ", c-blosc writes " + b.get(i);
      }
    }
    if (a.getInt(4) != b.getInt(4) || a.getInt(8) != b.getInt(8)) {
      return "nbytes/blocksize " + a.getInt(4) + "/" + a.getInt(8) + ", c-blosc writes " + b.getInt(4) + "/" + b.getInt(8);
    }
    return null;
  }

  @Test
  void memcpyedChunksKeepTheirShuffleFlagsAndReadAsCopies() {
    byte[] data = BloscCases.random(1000, new Random(7));
    byte[] c = Blosc.compress(data, 4, Blosc.Compressor.LZ4, 0, Blosc.Shuffle.BYTE_SHUFFLE, 0, 1);
    assertEquals(BloscHeader.MEMCPYED | BloscHeader.DOSHUFFLE, c[2] & (BloscHeader.MEMCPYED | BloscHeader.DOSHUFFLE),
        "c-blosc 1.21 leaves the shuffle flag set on a copied chunk");
    assertEquals(List.of(), diff(data, bytes(decoder.decode(direct(c), data.length, data.length, Runnable::run))));
  }

  private static List<Integer> diff(byte[] a, byte[] b) {
    return Arrays.equals(a, b) ? List.of() : List.of(Arrays.mismatch(a, b));
  }

  static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
