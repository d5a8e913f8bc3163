package dev.zarrow.codec.numcodecs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The division without a division that fixedscaleoffset decodes with must be numpy's division, bit for bit. */
class LanesTest {
  private static void check(double x, double scale) {
    double expected = x / scale;
    double actual = Lanes.quotient(x, scale, 1 / scale);
    assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual), () -> x + " / " + scale);
  }

  @Test
  void theQuotientIsTheCorrectlyRoundedDivision() {
    double[] scales = {100, 10, 3, 7, 1000, 0.1, 0.01, 1e-3, 1e10, 3.3, -100, 1.0 / 3, 65535, 0x1p-499, 0x1p499};
    for (double scale : scales) {
      for (int x = Short.MIN_VALUE; x <= 0xffff; x++) { // every int16 and uint16
        check(x, scale);
      }
    }
    SplittableRandom random = new SplittableRandom(29);
    for (int k = 0; k < 2_000_000; k++) {
      double scale = k % 2 == 0 ? random.nextInt(1, 1 << 20) : Math.scalb(1 + random.nextDouble(), random.nextInt(-60, 60));
      double x = k % 3 == 0 ? random.nextInt() : random.nextLong(0, 1L << 32);
      check(x, scale);
      check(x, -scale);
    }
  }

  @Test
  void scalesAtTheEdgesDivide() {
    assertEquals(false, Lanes.reciprocalDivides(0x1p600));
    assertEquals(false, Lanes.reciprocalDivides(0x1p-600));
    assertEquals(false, Lanes.reciprocalDivides(0));
    assertEquals(false, Lanes.reciprocalDivides(Double.POSITIVE_INFINITY));
    assertEquals(false, Lanes.reciprocalDivides(Double.NaN));
  }
}
