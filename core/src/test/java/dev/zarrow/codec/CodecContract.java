package dev.zarrow.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrow.spi.Registry;
import dev.zarrow.error.ZarrException;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.core.BytesCodec;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteSource;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.Boxes;
import dev.zarrow.testing.Seeds;
import dev.zarrow.testing.Vectors;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every codec must do, whatever its kind. A codec's test subclasses this in a few lines: the codec,
 * the chunk specs it must handle (data types and shapes) and those it must refuse; codecs of other data
 * types override {@link #randomChunk}. The codec runs inside a complete chain ({@link #chain}), bound to
 * each spec by a {@link CodecPipeline}.
 *
 * <p>Corrupt input (truncated, bit-flipped) may only ever fail with a {@link ZarrException}: never an
 * IndexOutOfBounds, an OutOfMemoryError or a hang. Codecs with an integrity check say so through
 * {@link #detectsEveryCorruption()}; the others may decode a flipped chunk to other values.
 */
@ExtendWith(AllocatorExtension.class)
public abstract class CodecContract {

  /** The codec under test, as its factory makes it. */
  protected abstract Codec codec();

  /** Chunk specs the codec must round-trip: several data types and shapes (0-d and empty ones where it can). */
  protected abstract List<ChunkSpec> supportedSpecs();

  /** Chunk specs a pipeline with this codec must refuse when it is bound (unsupported types or shapes). */
  protected List<ChunkSpec> unsupportedSpecs() {
    return List.of();
  }

  /** A chunk of random elements of {@code spec}; override for data types {@link Vectors#random} does not know. */
  protected FieldVector randomChunk(ChunkSpec spec, Random random, BufferAllocator allocator) {
    return Vectors.random(spec.dataType(), spec.size(), random, allocator);
  }

  /**
   * The complete chain around {@code codec}: an array->array codec is followed by little-endian
   * {@code bytes}, a bytes->bytes codec follows it; an array->bytes codec stands alone.
   */
  protected List<Codec> chain(Codec codec) {
    if (codec instanceof ArrayToArrayCodec) {
      return List.of(codec, BytesCodec.LITTLE);
    }
    if (codec instanceof BytesToBytesCodec) {
      return List.of(BytesCodec.LITTLE, codec);
    }
    return List.of(codec);
  }

  /** True when every corruption must be detected (a checksum); else corrupt chunks may decode to other values. */
  protected boolean detectsEveryCorruption() {
    return false;
  }

  /** True when every truncation must be detected (most encodings know their length). */
  protected boolean detectsTruncation() {
    return true;
  }

  /** The registry that makes the codec again from its metadata. */
  protected Registry registry() {
    return Registry.defaults();
  }

  protected CodecOptions options() {
    return CodecOptions.DEFAULT;
  }

  /** How many single-bit flips each spec is tried with. */
  protected int flips() {
    return 64;
  }

  // ---- helpers ----

  protected final CodecPipeline pipeline(ChunkSpec spec) {
    return CodecPipeline.of(chain(codec()), spec, Registry.defaults().context(options()));
  }

  /** The encoding of {@code chunk}, copied (an encoding may view the chunk's memory). */
  protected static byte[] encode(CodecPipeline pipeline, FieldVector chunk) {
    return Vectors.toArray(pipeline.encode(chunk));
  }

  private static String describe(ChunkSpec spec) {
    return spec + " fill " + spec.fillValue();
  }

  /** Decodes, closing what comes back; true when it decoded, false for a ZarrException; fails on anything else. */
  private static boolean decodesOrRefuses(CodecPipeline pipeline, ByteBuffer bytes, BufferAllocator allocator, String what) {
    try (FieldVector ignored = pipeline.decode(bytes, allocator)) {
      return true;
    } catch (ZarrException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank(), what + ": an exception without a message");
      return false;
    } catch (Throwable t) {
      throw new AssertionError(what + ": decoding failed with " + t + " instead of a ZarrException", t);
    }
  }

  // ---- the contract ----

  @Test
  void roundTripsRandomChunks(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " round trip");
    for (ChunkSpec spec : supportedSpecs()) {
      CodecPipeline pipeline = pipeline(spec);
      for (int round = 0; round < 3; round++) {
        try (FieldVector chunk = randomChunk(spec, random, allocator)) {
          byte[] encoded = encode(pipeline, chunk);
          pipeline.encodedSize().ifPresent(size -> assertEquals(size, encoded.length, describe(spec) + ": encodedSize()"));
          // Both ownership paths: the caller's own direct memory, and shared read-only memory.
          try (FieldVector fromOwned = pipeline.decode(Vectors.direct(encoded), allocator);
              FieldVector fromShared = pipeline.decode(ByteBuffer.wrap(encoded.clone()).asReadOnlyBuffer(), allocator)) {
            Vectors.assertSameValues(chunk, fromOwned, describe(spec) + " (direct input)");
            Vectors.assertSameValues(chunk, fromShared, describe(spec) + " (read-only input)");
          }
        }
      }
    }
  }

  @Test
  void decodedChunksDoNotAliasSharedInput(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " aliasing");
    for (ChunkSpec spec : supportedSpecs()) {
      if (spec.size() == 0) {
        continue;
      }
      CodecPipeline pipeline = pipeline(spec);
      try (FieldVector chunk = randomChunk(spec, random, allocator)) {
        byte[] encoded = encode(pipeline, chunk);
        ByteBuffer shared = Vectors.direct(encoded).asReadOnlyBuffer();
        try (FieldVector decoded = pipeline.decode(shared, allocator);
            FieldVector other = randomChunk(spec, random, allocator)) {
          // Overwrite the decoded chunk: shared (store) memory must not change.
          decoded.copyFromSafe(0, 0, other);
          assertArrayEquals(encoded, Vectors.toArray(shared), describe(spec) + ": decoding wrote into shared input");
        }
      }
    }
  }

  /**
   * Ownership: an encoding may view the chunk's memory, but only read-only, so decoding that very
   * buffer again (not a copy of it) gives a vector of memory of its own, never the caller's.
   */
  @Test
  void decodingAnEncodingNeverAliasesTheChunk(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " encoder aliasing");
    for (ChunkSpec spec : supportedSpecs()) {
      CodecPipeline pipeline = pipeline(spec);
      try (FieldVector chunk = randomChunk(spec, random, allocator)) {
        ByteBuffer encoded = pipeline.encode(chunk);
        try (FieldVector decoded = pipeline.decode(encoded, allocator)) {
          Vectors.assertNoSharedMemory(chunk, decoded, describe(spec) + ": decoded from its own encoding");
          Vectors.assertSameValues(chunk, decoded, describe(spec) + " decoded from its own encoding");
        }
      }
    }
  }

  /**
   * A whole chunk decoded into a place inside a larger vector (as whole reads do: straight into Arrow
   * memory where the codecs allow it) holds the chunk's values there and leaves the rest untouched.
   */
  @Test
  void decodesWholeChunksIntoLargerVectors(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " decodeInto");
    for (ChunkSpec spec : supportedSpecs()) {
      CodecPipeline pipeline = pipeline(spec);
      long[] shape = Regions.toLong(spec.shape());
      int n = spec.size();
      try (FieldVector chunk = randomChunk(spec, random, allocator);
          FieldVector out = spec.dataType().filled(allocator, 3 * n, spec.fillValue());
          FieldVector fill = spec.dataType().filled(allocator, n, spec.fillValue())) {
        if (Regions.flatWidth(chunk) <= 0 || shape.length != 1) {
          continue; // decodeInto fills flat vectors; other layouts go through decodeRegion
        }
        ByteSource source = ByteSource.of(Vectors.direct(encode(pipeline, chunk)));
        pipeline.decodeInto(source, Box.of(shape), out, new long[] {3L * n}, new long[] {n}, allocator);
        for (int part = 0; part < 3; part++) {
          try (FieldVector got = Regions.extract(out, new long[] {3L * n}, new Box(new long[] {(long) part * n}, shape), allocator)) {
            Vectors.assertSameValues(part == 1 ? chunk : fill, got, describe(spec) + " decoded into elements " + n + ".." + (2 * n)
                + ", part " + part);
          }
        }
      }
    }
  }

  @Test
  void decodesRegions(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " regions");
    for (ChunkSpec spec : supportedSpecs()) {
      CodecPipeline pipeline = pipeline(spec);
      long[] shape = Regions.toLong(spec.shape());
      try (FieldVector chunk = randomChunk(spec, random, allocator)) {
        ByteSource source = ByteSource.of(Vectors.direct(encode(pipeline, chunk)));
        for (int round = 0; round < 4; round++) {
          Box region = round == 0 ? Box.of(shape) : Boxes.random(random, shape);
          try (FieldVector expected = Regions.extract(chunk, shape, region, allocator);
              FieldVector got = pipeline.decodeRegion(source, region, allocator)) {
            Vectors.assertSameValues(expected, got, describe(spec) + " region " + region);
          }
        }
      }
    }
  }

  @Test
  void encodesRegions(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " region writes");
    for (ChunkSpec spec : supportedSpecs()) {
      if (spec.size() == 0) {
        continue;
      }
      CodecPipeline pipeline = pipeline(spec);
      long[] shape = Regions.toLong(spec.shape());
      try (FieldVector base = randomChunk(spec, random, allocator)) {
        ByteSource existing = ByteSource.of(Vectors.direct(encode(pipeline, base)));
        Box region = Boxes.random(random, shape);
        try (FieldVector data = randomChunk(spec.withShape(toInt(region.shape())), random, allocator);
            FieldVector before = copy(base, allocator)) {
          FieldVector expected = Regions.overlay(before, shape, region, data, allocator);
          try {
            Optional<ByteBuffer> updated = pipeline.encodeRegion(Optional.of(existing), region, data, allocator);
            if (spec.dataType().isAllFill(expected, spec.fillValue())) {
              assertEquals(Optional.empty(), updated, describe(spec) + ": a chunk of fill values is not stored");
              continue;
            }
            assertTrue(updated.isPresent(), describe(spec) + ": a chunk that is not all fill is stored");
            try (FieldVector got = pipeline.decode(updated.get(), allocator)) {
              Vectors.assertSameValues(expected, got, describe(spec) + " after writing " + region);
            }
          } finally {
            if (expected != before) {
              expected.close();
            }
          }
        }
      }
      // A region written with the fill value into a missing chunk leaves nothing to store.
      Box region = Boxes.random(random, shape);
      try (FieldVector fill = spec.dataType().filled(allocator, Math.toIntExact(region.size()), spec.fillValue())) {
        assertEquals(Optional.empty(), pipeline.encodeRegion(Optional.empty(), region, fill, allocator),
            describe(spec) + ": a chunk of fill values is not stored");
      }
    }
  }

  /** Regions.overlay changes fixed-width vectors in place: overlay a copy. */
  private static FieldVector copy(FieldVector vector, BufferAllocator allocator) {
    FieldVector out = vector.getField().createVector(allocator);
    out.setInitialCapacity(vector.getValueCount());
    out.allocateNew();
    for (int i = 0; i < vector.getValueCount(); i++) {
      out.copyFromSafe(i, i, vector);
    }
    out.setValueCount(vector.getValueCount());
    return out;
  }

  @Test
  void metadataRoundTrips() {
    NamedConfig metadata = codec().toMetadata();
    String text = Json.compact(metadata.toJson());
    NamedConfig parsed = NamedConfig.parse(Json.parse(text, "codec"), "/codecs/0");
    Codec again = registry().codec(parsed, options());
    assertEquals(codec().getClass(), again.getClass());
    assertEquals(metadata.toJson(), again.toMetadata().toJson(), "codec metadata -> factory -> metadata");
    assertEquals(text, Json.compact(again.toMetadata().toJson()), "key order of the codec's metadata");
  }

  @Test
  void refusesUnsupportedSpecs() {
    for (ChunkSpec spec : unsupportedSpecs()) {
      assertThrows(ZarrException.class, () -> pipeline(spec), describe(spec) + " must be refused when bound");
    }
  }

  @Test
  void worksFromEightThreads(BufferAllocator allocator) throws Exception {
    Random seeds = Seeds.random(getClass().getSimpleName() + " threads");
    List<ChunkSpec> specs = supportedSpecs();
    List<CodecPipeline> pipelines = specs.stream().map(this::pipeline).toList();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Random random = new Random(seeds.nextLong());
        results.add(pool.submit(() -> {
          start.await();
          for (int round = 0; round < 4; round++) {
            for (int i = 0; i < specs.size(); i++) {
              try (FieldVector chunk = randomChunk(specs.get(i), random, allocator)) {
                ByteBuffer encoded = Vectors.direct(encode(pipelines.get(i), chunk));
                try (FieldVector decoded = pipelines.get(i).decode(encoded, allocator)) {
                  Vectors.assertSameValues(chunk, decoded, describe(specs.get(i)) + " on " + Thread.currentThread().getName());
                }
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : results) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void truncatedInputFailsOnlyWithZarrExceptions(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " truncation");
    assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
      for (ChunkSpec spec : supportedSpecs()) {
        CodecPipeline pipeline = pipeline(spec);
        byte[] encoded;
        try (FieldVector chunk = randomChunk(spec, random, allocator)) {
          encoded = encode(pipeline, chunk);
        }
        List<Integer> lengths = new ArrayList<>(List.of(0, 1, encoded.length / 2, encoded.length - 1));
        for (int i = 0; i < 4 && encoded.length > 0; i++) {
          lengths.add(random.nextInt(encoded.length));
        }
        for (int length : lengths) {
          if (length < 0 || length >= encoded.length) {
            continue;
          }
          ByteBuffer cut = Vectors.direct(java.util.Arrays.copyOf(encoded, length));
          String what = describe(spec) + " cut from " + encoded.length + " to " + length + " bytes";
          boolean decoded = decodesOrRefuses(pipeline, cut, allocator, what);
          if (detectsTruncation()) {
            assertFalse(decoded, what + ": decoded without complaint");
          }
        }
      }
    });
  }

  @Test
  void bitFlipsFailOnlyWithZarrExceptions(BufferAllocator allocator) {
    Random random = Seeds.random(getClass().getSimpleName() + " bit flips");
    assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
      for (ChunkSpec spec : supportedSpecs()) {
        CodecPipeline pipeline = pipeline(spec);
        byte[] encoded;
        try (FieldVector chunk = randomChunk(spec, random, allocator)) {
          encoded = encode(pipeline, chunk);
        }
        if (encoded.length == 0) {
          continue;
        }
        for (int i = 0; i < flips(); i++) {
          byte[] flipped = encoded.clone();
          int bit = random.nextInt(encoded.length * 8);
          flipped[bit / 8] ^= (byte) (1 << (bit % 8));
          String what = describe(spec) + " with bit " + bit + " flipped";
          boolean decoded = decodesOrRefuses(pipeline, Vectors.direct(flipped), allocator, what);
          if (detectsEveryCorruption()) {
            assertFalse(decoded, what + ": decoded without complaint");
          }
        }
        // Bytes overwritten with garbage too, not only single bits.
        for (int i = 0; i < flips() / 4; i++) {
          byte[] garbled = encoded.clone();
          int at = random.nextInt(encoded.length);
          int n = 1 + random.nextInt(Math.min(16, encoded.length - at));
          for (int k = 0; k < n; k++) {
            garbled[at + k] = (byte) random.nextInt();
          }
          decodesOrRefuses(pipeline, Vectors.direct(garbled), allocator, describe(spec) + " garbled at " + at);
        }
      }
    });
  }

  // ---- shared helpers for subclasses ----

  protected static int[] toInt(long[] shape) {
    int[] out = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = Math.toIntExact(shape[i]);
    }
    return out;
  }
}
