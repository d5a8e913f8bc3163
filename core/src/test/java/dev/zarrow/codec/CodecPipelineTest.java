package dev.zarrow.codec;

import dev.zarrow.spi.Registry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.core.BytesCodec;
import dev.zarrow.codec.core.Crc32cCodec;
import dev.zarrow.codec.core.GzipCodec;
import dev.zarrow.codec.core.TransposeCodec;
import dev.zarrow.codec.core.ZstdCodec;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteSource;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AllocatorExtension.class)
class CodecPipelineTest {
  static final ChunkSpec INTS = new ChunkSpec(new int[] {4, 5}, FixedType.INT32, FixedType.INT32.defaultFill());

  /** A bytes->bytes codec that counts how it was asked to decode. */
  static final class Spy implements BytesToBytesCodec {
    final BytesToBytesCodec inner;
    final AtomicInteger decodes = new AtomicInteger();
    final AtomicInteger decodesInto = new AtomicInteger();
    long lastExpected;
    long lastTarget; // the address decodeInto wrote to last

    Spy(BytesToBytesCodec inner) {
      this.inner = inner;
    }

    @Override
    public NamedConfig toMetadata() {
      return inner.toMetadata();
    }

    @Override
    public ByteBuffer encode(ByteBuffer bytes) {
      return inner.encode(bytes);
    }

    @Override
    public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
      decodes.incrementAndGet();
      lastExpected = expectedSize;
      return inner.decode(bytes, expectedSize, maxSize);
    }

    @Override
    public void decodeInto(ByteBuffer bytes, ByteBuffer target) {
      decodesInto.incrementAndGet();
      lastExpected = target.remaining();
      lastTarget = org.apache.arrow.memory.util.MemoryUtil.getByteBufferAddress(target) + target.position();
      inner.decodeInto(bytes, target);
    }

    @Override
    public OptionalLong encodedSize(long decodedSize) {
      return inner.encodedSize(decodedSize);
    }
  }

  @Test
  void refusesChainsInTheWrongOrder() {
    var zstd = new ZstdCodec(0, false);
    for (List<Codec> bad : List.of(
        List.<Codec>of(BytesCodec.LITTLE, TransposeCodec.of(1, 0)),
        List.<Codec>of(BytesCodec.LITTLE, BytesCodec.LITTLE),
        List.<Codec>of(zstd, BytesCodec.LITTLE),
        List.<Codec>of(zstd),
        List.<Codec>of())) {
      var e = assertThrows(CodecException.class, () -> CodecPipeline.of(bad, INTS, Registry.defaults().context(CodecOptions.DEFAULT)), bad.toString());
      assertTrue(!e.getMessage().isBlank());
    }
  }

  @Test
  void knowsTheSizeAtEveryStep(BufferAllocator allocator) {
    Spy zstd = new Spy(new ZstdCodec(0, false));
    Spy crc = new Spy(new Crc32cCodec(true));
    CodecPipeline p = CodecPipeline.of(List.of(BytesCodec.LITTLE, crc, zstd), INTS, Registry.defaults().context(CodecOptions.DEFAULT));
    assertEquals(OptionalLong.empty(), p.encodedSize());
    try (FieldVector chunk = Vectors.random(FixedType.INT32, 20, Seeds.random("sizes"), allocator);
        FieldVector back = p.decode(p.encode(chunk), allocator)) {
      Vectors.assertSameValues(chunk, back, "round trip");
    }
    assertEquals(84, zstd.lastExpected, "zstd's output is the 80 bytes of the chunk and the 4 of the checksum");
    assertEquals(80, crc.lastExpected);
    CodecPipeline plain = CodecPipeline.of(List.of(BytesCodec.LITTLE, new Crc32cCodec(true)), INTS, Registry.defaults().context(CodecOptions.DEFAULT));
    assertEquals(OptionalLong.of(84), plain.encodedSize());
    CodecPipeline outer = CodecPipeline.of(List.of(BytesCodec.LITTLE, zstd, crc), INTS, Registry.defaults().context(CodecOptions.DEFAULT));
    try (FieldVector chunk = Vectors.random(FixedType.INT32, 20, Seeds.random("sizes"), allocator);
        FieldVector back = outer.decode(outer.encode(chunk), allocator)) {
      Vectors.assertSameValues(chunk, back, "round trip");
    }
    assertEquals(-1, crc.lastExpected, "a checksum around compressed data cannot know its size");
    assertEquals(80, zstd.lastExpected);
  }

  @Test
  void refusesChunksOverTheLimit(BufferAllocator allocator) {
    CodecOptions small = CodecOptions.DEFAULT.withMaxChunkBytes(79);
    CodecPipeline p = CodecPipeline.of(List.of(BytesCodec.LITTLE, new ZstdCodec(0, false)), INTS, Registry.defaults().context(small));
    ByteBuffer stored;
    try (FieldVector chunk = Vectors.random(FixedType.INT32, 20, Seeds.random("limit"), allocator)) {
      stored = p.encode(chunk);
    }
    var e = assertThrows(CodecException.class, () -> p.decode(stored, allocator));
    assertTrue(e.getMessage().contains("79"), e.getMessage());
    CodecPipeline wrongSize = CodecPipeline.of(List.of(BytesCodec.LITTLE, new ZstdCodec(0, false)),
        new ChunkSpec(new int[] {4, 4}, FixedType.INT32, FixedType.INT32.defaultFill()), Registry.defaults().context(CodecOptions.DEFAULT));
    assertThrows(CorruptChunkException.class, () -> wrongSize.decode(stored, allocator), "80 bytes for a chunk of 64");
  }

  /** A 4 x 6 output: chunks of 2 x 6 fill whole rows (contiguous), chunks of 2 x 3 do not. */
  @Test
  void decodesStraightIntoTheOutputWherever(BufferAllocator allocator) {
    Random random = Seeds.random("decodeInto");
    long[] outShape = {4, 6};
    record Case(int[] chunk, Box region, long[] at, boolean little, boolean transpose, BytesToBytesCodec codec, boolean direct) {}
    List<Case> cases = List.of(
        new Case(new int[] {2, 6}, Box.of(2, 6), new long[] {2, 0}, true, false, new ZstdCodec(1, false), true),
        new Case(new int[] {2, 6}, Box.of(2, 6), new long[] {0, 0}, true, false, new Crc32cCodec(true), true),
        new Case(new int[] {2, 6}, Box.of(2, 6), new long[] {2, 0}, true, false, new GzipCodec(1), true),
        new Case(new int[] {1, 6}, Box.of(1, 6), new long[] {3, 0}, true, false, new ZstdCodec(1, true), true),
        new Case(new int[] {2, 3}, Box.of(2, 3), new long[] {1, 3}, true, false, new ZstdCodec(1, false), false),
        new Case(new int[] {2, 6}, new Box(new long[] {0, 1}, new long[] {2, 5}), new long[] {0, 1}, true, false, new ZstdCodec(1, false), false),
        new Case(new int[] {2, 6}, Box.of(2, 6), new long[] {2, 0}, false, false, new ZstdCodec(1, false), false),
        new Case(new int[] {2, 6}, Box.of(2, 6), new long[] {2, 0}, true, true, new ZstdCodec(1, false), false));
    for (Case c : cases) {
      ChunkSpec spec = new ChunkSpec(c.chunk, FixedType.INT32, FixedType.INT32.defaultFill());
      Spy spy = new Spy(c.codec);
      List<Codec> chain = new java.util.ArrayList<>();
      if (c.transpose) {
        chain.add(TransposeCodec.of(1, 0));
      }
      chain.add(c.little ? BytesCodec.LITTLE : new BytesCodec(ByteOrder.BIG_ENDIAN));
      chain.add(spy);
      CodecPipeline p = CodecPipeline.of(chain, spec, Registry.defaults().context(CodecOptions.DEFAULT));
      String what = c.toString();
      try (FieldVector chunk = Vectors.random(FixedType.INT32, spec.size(), random, allocator);
          FieldVector out = Vectors.fromBytes(FixedType.INT32, new byte[24 * 4], allocator);
          FieldVector expected = Vectors.fromBytes(FixedType.INT32, new byte[24 * 4], allocator)) {
        ByteSource source = ByteSource.of(Vectors.direct(Vectors.toArray(p.encode(chunk))));
        p.decodeInto(source, c.region, out, outShape, c.at, allocator);
        Regions.copyInto(chunk, Regions.toLong(c.chunk), c.region, expected, outShape, c.at);
        Vectors.assertSameValues(expected, out, what);
        long outAddress = out.getDataBuffer().memoryAddress();
        boolean intoOut = spy.decodesInto.get() == 1 && spy.lastTarget >= outAddress
            && spy.lastTarget < outAddress + out.getDataBuffer().capacity();
        assertEquals(c.direct, intoOut, what + ": straight into the output, not through a chunk buffer");
        assertEquals(1, spy.decodes.get() + spy.decodesInto.get(), what + ": decoded once");
      }
    }
  }

  @Test
  void corruptChunksFailTheDirectPathCleanly(BufferAllocator allocator) {
    ChunkSpec spec = new ChunkSpec(new int[] {6}, FixedType.INT32, FixedType.INT32.defaultFill());
    CodecPipeline p = CodecPipeline.of(List.of(BytesCodec.LITTLE, new ZstdCodec(1, false)), spec, Registry.defaults().context(CodecOptions.DEFAULT));
    byte[] stored;
    try (FieldVector chunk = Vectors.random(FixedType.INT32, 6, Seeds.random("corrupt"), allocator)) {
      stored = Vectors.toArray(p.encode(chunk));
    }
    try (FieldVector out = Vectors.fromBytes(FixedType.INT32, new byte[12 * 4], allocator)) {
      for (byte[] bad : List.of(new byte[0], java.util.Arrays.copyOf(stored, stored.length - 1), new byte[] {1, 2, 3})) {
        assertThrows(CorruptChunkException.class,
            () -> p.decodeInto(ByteSource.of(Vectors.direct(bad)), Box.of(6), out, new long[] {12}, new long[] {6}, allocator));
      }
      CodecPipeline small = CodecPipeline.of(List.of(BytesCodec.LITTLE, new ZstdCodec(1, false)),
          new ChunkSpec(new int[] {5}, FixedType.INT32, FixedType.INT32.defaultFill()), Registry.defaults().context(CodecOptions.DEFAULT));
      assertThrows(CorruptChunkException.class, () -> small.decodeInto(ByteSource.of(Vectors.direct(stored)), Box.of(5), out,
          new long[] {12}, new long[] {0}, allocator), "a frame of 6 elements for a chunk of 5");
    }
  }

  @Test
  void verifiesWithLentMemoryAndRefusesWhatDecodeRefuses(BufferAllocator allocator) {
    ChunkSpec spec = new ChunkSpec(new int[] {6}, FixedType.INT32, FixedType.INT32.defaultFill());
    Spy crc = new Spy(new Crc32cCodec(true));
    CodecPipeline p = CodecPipeline.of(List.of(BytesCodec.LITTLE, crc, new ZstdCodec(1, false)), spec,
        Registry.defaults().context(CodecOptions.DEFAULT));
    CodecPipeline transposed = CodecPipeline.of(List.of(TransposeCodec.of(0), BytesCodec.LITTLE, new ZstdCodec(1, false)), spec,
        Registry.defaults().context(CodecOptions.DEFAULT));
    byte[] stored;
    byte[] storedTransposed;
    try (FieldVector chunk = Vectors.random(FixedType.INT32, 6, Seeds.random("verify"), allocator)) {
      stored = Vectors.toArray(p.encode(chunk));
      storedTransposed = Vectors.toArray(transposed.encode(chunk));
    }
    byte[] flipped = stored.clone();
    flipped[flipped.length / 2] ^= 0x10;
    try (dev.zarrow.memory.ScratchBuffers scratch = new dev.zarrow.memory.ScratchBuffers(allocator, "verify")) {
      for (int i = 0; i < 3; i++) {
        p.verify(ByteSource.of(Vectors.direct(stored)), allocator, scratch);
      }
      assertEquals(0, crc.decodes.get(), "the first bytes codec verifies into lent memory");
      assertEquals(3, crc.decodesInto.get());
      assertEquals(6 * 4, crc.lastExpected);
      transposed.verify(ByteSource.of(Vectors.direct(storedTransposed)), allocator, scratch); // not the raw layout: decoded
      for (byte[] bad : List.of(new byte[0], java.util.Arrays.copyOf(stored, stored.length - 1), new byte[] {1, 2, 3}, flipped)) {
        CorruptChunkException expected = assertThrows(CorruptChunkException.class, () -> p.decode(ByteSource.of(Vectors.direct(bad)), allocator));
        CorruptChunkException e = assertThrows(CorruptChunkException.class,
            () -> p.verify(ByteSource.of(Vectors.direct(bad)), allocator, scratch));
        assertEquals(expected.getMessage(), e.getMessage());
      }
      assertThrows(CorruptChunkException.class,
          () -> transposed.verify(ByteSource.of(Vectors.direct(new byte[] {1, 2, 3})), allocator, scratch));
    }
  }
}
