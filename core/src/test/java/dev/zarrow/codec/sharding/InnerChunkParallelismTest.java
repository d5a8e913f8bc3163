package dev.zarrow.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.codec.BytesToBytesCodec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.vlen.VlenInterleavedCodec;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import dev.zarrow.spi.ZarrPlugin;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The inner chunks of one shard decode at the same time on the executor's idle threads, whether the
 * shard is read through {@code ZarrArray.read} or verified from inside a task of that executor (as
 * {@code zarrow check} does). Proved without timing: an inner codec ({@code test.rendezvous}) records
 * how many decodes are in flight at once and on which threads; each decode waits (up to a bound) until
 * two have started, so decodes that only ever run one after another show a maximum of one.
 */
@ExtendWith(AllocatorExtension.class)
class InnerChunkParallelismTest {
  static final int INNER = 1000;
  static final int PER_SHARD = 4;

  private final Rendezvous rendezvous = new Rendezvous();
  private ExecutorService pool;

  @BeforeEach
  void twoCores() {
    // WorkSharing asks for one helper per extra core: one core means no parallelism to prove.
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs 2 cores");
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterEach
  void stop() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private ZarrArray shardedStrings(BufferAllocator allocator, int shards) {
    ZarrOptions options = ZarrOptions.defaults().withRegistry(Registry.defaults().with(rendezvous)).withExecutor(pool);
    MemoryStore store = new MemoryStore();
    List<NamedConfig> inner = List.of(VlenInterleavedCodec.metadata("vlen-utf8"), NamedConfig.plain(Rendezvous.NAME));
    ZarrArray array = Zarr.createArray(store, "s",
        ArraySpec.of(VarLenType.STRING, (long) shards * PER_SHARD * INNER).chunks(PER_SHARD * INNER)
            .codecs(List.of(ArraySpec.shardingIndexed(new int[] {INNER}, inner))), options);
    try (VarCharVector v = new VarCharVector("s", allocator)) {
      v.allocateNew();
      for (int i = 0; i < shards * PER_SHARD * INNER; i++) {
        v.setSafe(i, ("s" + i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(shards * PER_SHARD * INNER);
      array.write(0, v);
    }
    rendezvous.reset();
    return array;
  }

  @Test
  void innerChunksOfOneShardDecodeConcurrentlyInAWholeRead(BufferAllocator allocator) {
    ZarrArray array = shardedStrings(allocator, 1);
    try (NdVector all = array.read(allocator)) {
      VarCharVector v = (VarCharVector) all.vector();
      for (int i = 0; i < PER_SHARD * INNER; i += 997) {
        assertEquals("s" + i, new String(v.get(i), StandardCharsets.UTF_8));
      }
    }
    rendezvous.assertConcurrent(PER_SHARD);
  }

  @Test
  void innerChunksDecodeConcurrentlyWhenManyShardsAreRead(BufferAllocator allocator) {
    ZarrArray array = shardedStrings(allocator, 3);
    try (NdVector all = array.read(allocator)) {
      VarCharVector v = (VarCharVector) all.vector();
      assertEquals(3 * PER_SHARD * INNER, v.getValueCount());
      for (int i = 0; i < 3 * PER_SHARD * INNER; i += 997) {
        assertEquals("s" + i, new String(v.get(i), StandardCharsets.UTF_8));
      }
    }
    rendezvous.assertConcurrent(3 * PER_SHARD);
  }

  /** As {@code zarrow check}: the shard is verified by a task of the pool; an idle pool thread helps it. */
  @Test
  void aShardVerifiedInsideATaskOfThePoolDecodesItsInnerChunksConcurrently(BufferAllocator allocator) {
    ZarrArray array = shardedStrings(allocator, 1);
    ByteBuffer stored = array.store().get(array.chunkKey(new long[] {0})).orElseThrow();
    CompletableFuture.runAsync(() -> array.pipeline().verify(stored, allocator), pool).join();
    rendezvous.assertConcurrent(PER_SHARD);
  }

  /**
   * An identity bytes->bytes codec whose decodes record overlap: each waits until two decodes have
   * started (at most {@link #PATIENCE_S} seconds), so concurrent decodes meet and serial ones do not.
   */
  static final class Rendezvous implements ZarrPlugin, CodecFactory, BytesToBytesCodec {
    static final String NAME = "test.rendezvous";
    static final long PATIENCE_S = 5;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger decodes = new AtomicInteger();
    private final Set<String> threads = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch twoStarted = new CountDownLatch(2);

    void reset() {
      inFlight.set(0);
      maxInFlight.set(0);
      decodes.set(0);
      threads.clear();
      twoStarted = new CountDownLatch(2);
    }

    void assertConcurrent(int expectedDecodes) {
      assertEquals(expectedDecodes, decodes.get(), "inner chunks decoded");
      assertTrue(maxInFlight.get() >= 2, "inner chunk decodes never overlapped (threads " + threads + ")");
      assertTrue(threads.size() >= 2, "inner chunks decoded on one thread only: " + threads);
    }

    @Override
    public List<CodecFactory> codecs() {
      return List.of(this);
    }

    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public Codec create(NamedConfig metadata, CodecContext context) {
      return this;
    }

    @Override
    public NamedConfig toMetadata() {
      return NamedConfig.plain(NAME);
    }

    @Override
    public ByteBuffer encode(ByteBuffer bytes) {
      ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining());
      return out.put(bytes.duplicate()).flip();
    }

    @Override
    public ByteBuffer decode(ByteBuffer bytes, long expectedSize, long maxSize) {
      decodes.incrementAndGet();
      threads.add(Thread.currentThread().getName());
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      CountDownLatch latch = twoStarted;
      latch.countDown();
      try {
        latch.await(PATIENCE_S, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
      }
      return encode(bytes);
    }
  }
}
