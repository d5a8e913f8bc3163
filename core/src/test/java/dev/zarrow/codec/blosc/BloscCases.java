package dev.zarrow.codec.blosc;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The cross-check matrix: element sizes, compressors, shuffles, levels, sizes and data of the blosc tests. */
final class BloscCases {
  static final int[] TYPESIZES = {1, 2, 4, 8, 3};
  static final int[] CLEVELS = {0, 1, 5, 9};

  private BloscCases() {}

  /** One chunk to round-trip: its settings and data. */
  record Case(BloscCompressor cname, int clevel, BloscShuffle shuffle, int typesize, String kind, byte[] data) {
    @Override
    public String toString() {
      return cname.cname() + " clevel " + clevel + " " + shuffle.configName() + " typesize " + typesize + ", "
          + data.length + " bytes of " + kind;
    }
  }

  /**
   * Sizes from nothing to several blocks: empty, below the 128 bytes c-blosc compresses at all, a few
   * elements past that (not a multiple of the element size), and 2.5 blocks of c-blosc's choice plus an
   * odd tail. {@code big} leaves out the several-block size (for the slowest levels).
   */
  static List<Integer> sizes(BloscCompressor c, int clevel, int ts, boolean big) {
    List<Integer> sizes = new ArrayList<>(List.of(0, 1, 100, 128 * ts + 5, 5000));
    if (big) {
      int block = BloscEncoder.chooseBlocksize(c, Math.max(clevel, 1), ts, 64 << 20, 0);
      sizes.add(block * 5 / 2 + 2 * ts + 1);
    }
    return sizes;
  }

  /** Every case of the matrix with {@code compressors}, random and structured data. */
  static List<Case> all(List<BloscCompressor> compressors, Random random) {
    List<Case> cases = new ArrayList<>();
    for (BloscCompressor c : compressors) {
      for (int ts : TYPESIZES) {
        for (BloscShuffle s : BloscShuffle.values()) {
          for (int clevel : CLEVELS) {
            // The highest zstd and zlib levels compress a few MB a second: several blocks once per shuffle.
            boolean slow = clevel == 9 && (c == BloscCompressor.ZSTD || c == BloscCompressor.ZLIB || c == BloscCompressor.LZ4HC);
            for (int size : sizes(c, clevel, ts, !slow || ts == 4)) {
              cases.add(new Case(c, clevel, s, ts, "structured", structured(size, ts, random)));
              if (size < 100_000 || !slow) {
                cases.add(new Case(c, clevel, s, ts, "random", random(size, random)));
              }
            }
          }
        }
      }
    }
    return cases;
  }

  static byte[] random(int size, Random random) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    return b;
  }

  /** Slowly varying little-endian integers of {@code ts} bytes with some noise: what shuffles are for. */
  static byte[] structured(int size, int ts, Random random) {
    byte[] b = new byte[size];
    long v = random.nextInt(1000);
    for (int i = 0; i < size; i++) {
      int j = i % ts;
      if (j == 0) {
        v += random.nextInt(7) - 2;
      }
      b[i] = (byte) (j < 8 ? v >>> (8 * j) : 0);
    }
    return b;
  }
}
