package dev.zarrow.store;

import dev.zarrow.error.CorruptChunkException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A value read lazily: its size is known, its bytes are fetched by range. The partial-read primitive
 * (sharding reads the index, then only the inner chunks it needs); {@link #slice} gives a view of a
 * sub-range (a nested shard) without reading it.
 *
 * <p>A source from a store reads every range from one version of the value, even when the key is
 * replaced meanwhile: an index and the inner chunks it points to must come from one shard. It may hold
 * a resource for that (an open file): whoever gets a source from a store closes it. The buffers it
 * returned stay valid after {@link #close}. Slices and in-memory sources hold nothing.
 */
public interface ByteSource extends AutoCloseable {

  /** The size in bytes. */
  long size();

  /** Reads {@code range}; a range outside the value is a {@link CorruptChunkException}. */
  ByteBuffer read(ByteRange range);

  /** The whole value. */
  default ByteBuffer readAll() {
    return read(ByteRange.of(0, size()));
  }

  /**
   * Reads several ranges, in the given order. Implementations may coalesce adjacent or nearby ranges
   * into fewer requests; the default reads them one by one. A store's source fetches ranges that touch,
   * overlap or lie at most 64 KiB apart with one request, and a {@link #slice} passes its ranges on to
   * its parent together, so the ranges of a nested shard coalesce too.
   */
  default List<ByteBuffer> readAll(List<ByteRange> ranges) {
    List<ByteBuffer> out = new ArrayList<>(ranges.size());
    for (ByteRange range : ranges) {
      out.add(read(range));
    }
    return out;
  }

  /**
   * The whole value for a caller that is done with it before lending {@code scratch}'s buffer again:
   * a source that copies on every read (a file) may read into {@code scratch.apply(size())}, a direct
   * buffer of at least {@code size()} bytes, and return a view of it; sources whose bytes are already in
   * memory return {@link #readAll()}, as the default does.
   */
  default ByteBuffer readAll(java.util.function.LongFunction<ByteBuffer> scratch) {
    return readAll();
  }

  /**
   * {@code range} for a caller done with it before lending {@code scratch}'s buffer again, as {@link
   * #readAll(java.util.function.LongFunction)} (the buffer asked for is at least the range's length);
   * the default is {@link #read}. A {@link #slice} reads its whole value this way from its parent, so
   * that a shard's inner chunk read from a file lands in the caller's scratch too.
   */
  default ByteBuffer read(ByteRange range, java.util.function.LongFunction<ByteBuffer> scratch) {
    return read(range);
  }

  /** A view of {@code length} bytes from {@code offset}, read lazily from this source. */
  default ByteSource slice(long offset, long length) {
    ByteSource parent = this;
    if (!ByteRange.of(offset, length).fits(size())) {
      throw new CorruptChunkException(
          "slice [" + offset + ", +" + length + ") outside a value of " + size() + " bytes");
    }
    return new ByteSource() {
      @Override
      public long size() {
        return length;
      }

      @Override
      public ByteBuffer read(ByteRange range) {
        check(range, length);
        return parent.read(ByteRange.of(offset + range.start(length), range.length(length)));
      }

      @Override
      public ByteBuffer read(ByteRange range, java.util.function.LongFunction<ByteBuffer> scratch) {
        check(range, length);
        return parent.read(ByteRange.of(offset + range.start(length), range.length(length)), scratch);
      }

      @Override
      public ByteBuffer readAll(java.util.function.LongFunction<ByteBuffer> scratch) {
        return read(ByteRange.of(0, length), scratch);
      }

      // Passed on whole, so that the parent can coalesce the ranges of a nested shard with each other.
      @Override
      public List<ByteBuffer> readAll(List<ByteRange> ranges) {
        List<ByteRange> shifted = new ArrayList<>(ranges.size());
        for (ByteRange range : ranges) {
          check(range, length);
          shifted.add(ByteRange.of(offset + range.start(length), range.length(length)));
        }
        return parent.readAll(shifted);
      }
    };
  }

  /** Releases what the source holds; reads after it fail. A slice leaves its parent open. */
  @Override
  default void close() {}

  /** Bytes already in memory. */
  static ByteSource of(ByteBuffer bytes) {
    ByteBuffer all = bytes.slice().asReadOnlyBuffer();
    return new ByteSource() {
      @Override
      public long size() {
        return all.remaining();
      }

      @Override
      public ByteBuffer read(ByteRange range) {
        check(range, all.remaining());
        return all.slice((int) range.start(all.remaining()), (int) range.length(all.remaining()));
      }

      @Override
      public ByteBuffer readAll() {
        return all.duplicate();
      }
    };
  }

  /**
   * Bytes that the caller owns (fresh memory nobody else holds): unlike {@link #of(ByteBuffer)} the slices
   * it returns keep the buffer's writability, so decoders may wrap them without a copy. For stores that
   * read a whole value into fresh memory.
   */
  static ByteSource owned(ByteBuffer bytes) {
    ByteBuffer all = bytes.slice();
    return new ByteSource() {
      @Override
      public long size() {
        return all.remaining();
      }

      @Override
      public ByteBuffer read(ByteRange range) {
        check(range, all.remaining());
        return all.slice((int) range.start(all.remaining()), (int) range.length(all.remaining()));
      }

      @Override
      public ByteBuffer readAll() {
        return all.slice();
      }
    };
  }

  /**
   * The value of {@code key} in {@code store}, of known {@code size}, read by range with one store
   * request each. Only for stores whose values are never replaced while read: each request sees the
   * key as it is then, so a replaced value would mix with the old one.
   */
  static ByteSource of(Store store, String key, long size) {
    return new ByteSource() {
      @Override
      public long size() {
        return size;
      }

      @Override
      public ByteBuffer read(ByteRange range) {
        check(range, size);
        return store
            .get(key, ByteRange.of(range.start(size), range.length(size)))
            .orElseThrow(() -> new CorruptChunkException("key " + key + " vanished while reading"));
      }

      @Override
      public ByteBuffer readAll() {
        return store
            .get(key)
            .orElseThrow(() -> new CorruptChunkException("key " + key + " vanished while reading"));
      }

      @Override
      public List<ByteBuffer> readAll(List<ByteRange> ranges) {
        for (ByteRange range : ranges) {
          check(range, size);
        }
        return Coalescing.readAll(ranges, size, this::read);
      }
    };
  }

  /** Refuses a range outside a value of {@code size} bytes with a {@link CorruptChunkException}. */
  static void check(ByteRange range, long size) {
    if (!range.fits(size)) {
      throw new CorruptChunkException(
          "byte range " + range + " is outside a value of " + size + " bytes");
    }
  }
}
