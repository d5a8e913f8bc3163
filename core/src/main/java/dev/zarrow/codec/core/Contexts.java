package dev.zarrow.codec.core;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * zstd contexts reused across chunks: a fresh compression context allocates and clears its tables on
 * first use (a few hundred KiB to MiBs of native memory per chunk, page faults included), a fresh
 * decompression context its window. A few per core are kept; a context is reset (session and
 * parameters) when it comes back, so a chunk that failed half way leaves nothing behind for the next.
 */
final class Contexts {
  private static final int KEPT = 2 * Runtime.getRuntime().availableProcessors();
  private static final Pool<ZstdCompressCtx> COMPRESSORS = new Pool<>();
  private static final Pool<ZstdDecompressCtx> DECOMPRESSORS = new Pool<>();

  private Contexts() {}

  /** A compression context (parameters at their defaults) until the lease is closed. */
  static Lease<ZstdCompressCtx> compressor() {
    ZstdCompressCtx ctx = COMPRESSORS.take();
    return new Lease<>(ctx != null ? ctx : new ZstdCompressCtx(), COMPRESSORS);
  }

  /** A decompression context until the lease is closed. */
  static Lease<ZstdDecompressCtx> decompressor() {
    ZstdDecompressCtx ctx = DECOMPRESSORS.take();
    return new Lease<>(ctx != null ? ctx : new ZstdDecompressCtx(), DECOMPRESSORS);
  }

  private static final class Pool<C> {
    final ConcurrentLinkedQueue<C> idle = new ConcurrentLinkedQueue<>();
    /** The idle contexts' count. */
    final AtomicInteger size = new AtomicInteger();

    C take() {
      C c = idle.poll();
      if (c != null) {
        size.decrementAndGet();
      }
      return c;
    }
  }

  /** One context, borrowed until {@link #close}, which resets it and keeps it (or frees it past the few kept). */
  static final class Lease<C> implements AutoCloseable {
    private final C context;
    private final Pool<C> pool;

    private Lease(C context, Pool<C> pool) {
      this.context = context;
      this.pool = pool;
    }

    C context() {
      return context;
    }

    @Override
    public void close() {
      try {
        if (context instanceof ZstdCompressCtx c) {
          c.reset();
        } else {
          ((ZstdDecompressCtx) context).reset();
        }
      } catch (RuntimeException e) {
        free();
        return;
      }
      if (pool.size.incrementAndGet() <= KEPT) {
        pool.idle.offer(context);
        return;
      }
      pool.size.decrementAndGet();
      free();
    }

    private void free() {
      if (context instanceof ZstdCompressCtx c) {
        c.close();
      } else {
        ((ZstdDecompressCtx) context).close();
      }
    }
  }
}
