package dev.zarrow.store;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * A file read by range through one open channel. Writers replace a key by renaming a new file over it;
 * the open channel keeps reading the file it was opened on, so every range of one source comes from one
 * version of the value. Holds a file descriptor until {@link #close}.
 */
final class FileSource implements ByteSource {
  private final FileChannel channel;
  private final long size;
  private final String key;
  private final String where;

  /** Takes over {@code channel} (of {@code size} bytes): closing the source closes it. */
  FileSource(FileChannel channel, long size, String key, String where) {
    this.channel = channel;
    this.size = size;
    this.key = key;
    this.where = where;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public ByteBuffer read(ByteRange range) {
    check(range);
    try {
      return read(channel, range.start(size), range.length(size), key);
    } catch (IOException e) {
      throw new StoreException("cannot read key " + key + " in " + where + ": " + e, e);
    }
  }

  /** Into {@code scratch}'s buffer instead of fresh memory (see {@link ByteSource#readAll(java.util.function.LongFunction)}). */
  @Override
  public ByteBuffer readAll(java.util.function.LongFunction<ByteBuffer> scratch) {
    return read(ByteRange.of(0, size), scratch);
  }

  /** Into {@code scratch}'s buffer instead of fresh memory (see {@link ByteSource#read(ByteRange, java.util.function.LongFunction)}). */
  @Override
  public ByteBuffer read(ByteRange range, java.util.function.LongFunction<ByteBuffer> scratch) {
    check(range);
    long start = range.start(size);
    long length = range.length(size);
    if (length > Integer.MAX_VALUE) {
      return read(range);
    }
    ByteBuffer out = scratch.apply(length).clear().limit((int) length);
    try {
      while (out.hasRemaining()) {
        if (channel.read(out, start + out.position()) < 0) {
          throw new StoreException("key " + key + " shrank while being read");
        }
      }
    } catch (IOException e) {
      throw new StoreException("cannot read key " + key + " in " + where + ": " + e, e);
    }
    return out.flip();
  }

  @Override
  public List<ByteBuffer> readAll(List<ByteRange> ranges) {
    for (ByteRange range : ranges) {
      check(range);
    }
    return Coalescing.readAll(ranges, size, this::read);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new StoreException("cannot close key " + key + " in " + where + ": " + e, e);
    }
  }

  private void check(ByteRange range) {
    if (!range.fits(size)) {
      throw new CorruptChunkException(
          "byte range " + range + " is outside key " + key + " of " + size + " bytes in " + where);
    }
  }

  /** {@code length} bytes from {@code start} into fresh direct memory (writable: the caller's own). */
  static ByteBuffer read(FileChannel channel, long start, long length, String key) throws IOException {
    if (length > Integer.MAX_VALUE) {
      throw new StoreException("key " + key + ": cannot read " + length + " bytes into one buffer");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) length);
    long position = start;
    while (out.hasRemaining()) {
      int n = channel.read(out, position);
      if (n < 0) {
        throw new StoreException("key " + key + " shrank while being read");
      }
      position += n;
    }
    return out.flip();
  }
}
