package dev.zarrow.codec.sharding;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;

/**
 * A shard already in memory. Unlike {@link ByteSource#of(ByteBuffer)} it hands out slices that keep the
 * buffer's writability: the caller's own (writable, direct) shard bytes stay wrappable without a copy
 * when an inner chunk is decoded from them.
 */
final class BufferSource implements ByteSource {
  private final ByteBuffer bytes;

  BufferSource(ByteBuffer bytes) {
    this.bytes = bytes.slice();
  }

  @Override
  public long size() {
    return bytes.remaining();
  }

  @Override
  public ByteBuffer read(ByteRange range) {
    int size = bytes.remaining();
    if (!range.fits(size)) {
      throw new CorruptChunkException("byte range " + range + " is outside a shard of " + size + " bytes");
    }
    return bytes.slice((int) range.start(size), (int) range.length(size));
  }

  @Override
  public ByteBuffer readAll() {
    return bytes.slice();
  }
}
