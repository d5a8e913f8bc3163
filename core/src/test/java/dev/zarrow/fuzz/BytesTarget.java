package dev.zarrow.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.error.ZarrException;
import dev.zarrow.codec.BytesToBytesCodec;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * A fuzz target for one bytes->bytes codec on its own, on the path a pipeline with variable-size data
 * takes: the decoded size is unknown and only a cap bounds it. Checks that nothing decodes past the
 * cap and that a size found this way is accepted, and a wrong one refused, when given as expected.
 */
public final class BytesTarget {
  private final String name;
  private final BytesToBytesCodec codec;
  private final long cap;

  public BytesTarget(String name, BytesToBytesCodec codec, long cap) {
    this.name = name;
    this.codec = codec;
    this.cap = cap;
  }

  public void run(byte[] input) {
    ByteBuffer out = attempt(() -> codec.decode(ChunkTarget.direct(input), -1, cap));
    if (out == null) {
      return;
    }
    int n = out.remaining();
    assertTrue(n <= cap, name + ": decoded " + n + " bytes past the cap of " + cap);
    ByteBuffer exact = attempt(() -> codec.decode(ChunkTarget.direct(input), n, cap));
    if (exact == null) {
      fail(name + ": refused the expected size " + n + " that it decoded to without one");
    }
    assertEquals(out, exact, name + ": decoding with the expected size gives other bytes");
    if (attempt(() -> codec.decode(ChunkTarget.direct(input), n + 1L, cap)) != null) {
      fail(name + ": accepted an expected size of " + (n + 1) + " for " + n + " bytes");
    }
  }

  private static ByteBuffer attempt(Supplier<ByteBuffer> decode) {
    try {
      return decode.get();
    } catch (ZarrException refused) {
      return null;
    }
  }
}
