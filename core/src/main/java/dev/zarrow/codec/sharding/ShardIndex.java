package dev.zarrow.codec.sharding;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The index of a shard: per inner chunk (C order) the {@code offset} and {@code nbytes} of its encoded
 * bytes in the shard, both {@code 2^64-1} for an empty inner chunk. Mutable while a shard is built.
 *
 * <pre>
 * shard  := chunks index          (index_location "end")
 *         | index chunks          (index_location "start")
 * index  := index_codecs( uint64[chunks per shard..., 2] )   fixed size
 * entry  := offset nbytes                                    per inner chunk, C order
 * chunks := any bytes; entry i names [offset, offset + nbytes), outside the index
 * </pre>
 */
final class ShardIndex {
  /** Both fields of an empty inner chunk's entry: 2^64 - 1. */
  static final long EMPTY = -1L;

  private final long[] entries;

  private ShardIndex(long[] entries) {
    this.entries = entries;
  }

  /** An index of {@code count} empty inner chunks. */
  static ShardIndex empty(int count) {
    long[] entries = new long[2 * count];
    java.util.Arrays.fill(entries, EMPTY);
    return new ShardIndex(entries);
  }

  boolean isEmpty(int i) {
    return entries[2 * i] == EMPTY && entries[2 * i + 1] == EMPTY;
  }

  long offset(int i) {
    return entries[2 * i];
  }

  long nbytes(int i) {
    return entries[2 * i + 1];
  }

  void set(int i, long offset, long nbytes) {
    entries[2 * i] = offset;
    entries[2 * i + 1] = nbytes;
  }

  /**
   * Reads the index of {@code shard} with one range request (a suffix or a prefix) and checks every
   * entry against the shard's size and the index's place; a bad entry is a
   * {@link CorruptChunkException} naming its inner chunk.
   */
  static ShardIndex read(ByteSource shard, ShardLayout layout, BufferAllocator allocator) {
    long size = shard.size();
    if (size < layout.indexSize) {
      throw new CorruptChunkException("shard of " + size + " bytes is shorter than its index ("
          + layout.indexSize + " bytes): truncated");
    }
    long[] entries = new long[2 * layout.count];
    try {
      ByteBuffer bytes = shard.read(layout.indexAtEnd ? ByteRange.suffix(layout.indexSize) : ByteRange.of(0, layout.indexSize));
      try (FieldVector vector = layout.index.decode(bytes, allocator)) {
        ArrowBuf data = vector.getDataBuffer();
        for (int k = 0; k < entries.length; k++) {
          entries[k] = data.getLong(8L * k);
        }
      }
    } catch (ZarrException e) {
      throw e.withContext("shard index");
    }
    ShardIndex index = new ShardIndex(entries);
    index.check(layout, size);
    return index;
  }

  private void check(ShardLayout layout, long size) {
    long indexStart = layout.indexAtEnd ? size - layout.indexSize : 0;
    long indexEnd = indexStart + layout.indexSize;
    for (int i = 0; i < layout.count; i++) {
      long offset = offset(i);
      long nbytes = nbytes(i);
      if (isEmpty(i)) {
        continue;
      }
      if (offset == EMPTY || nbytes == EMPTY) {
        throw bad(layout, i, "only one field is the empty marker 2^64-1");
      }
      if (nbytes < 0 || nbytes > size) {
        throw bad(layout, i, "nbytes exceeds the shard's " + size + " bytes");
      }
      if (offset < 0 || offset > size - nbytes) {
        throw bad(layout, i, "reaches past the end of the shard of " + size + " bytes");
      }
      if (nbytes > 0 && offset < indexEnd && offset + nbytes > indexStart) {
        throw bad(layout, i, "overlaps the index at bytes [" + indexStart + ", " + indexEnd + ")");
      }
    }
  }

  private CorruptChunkException bad(ShardLayout layout, int i, String why) {
    return new CorruptChunkException("shard index entry of " + layout.name(i) + " (offset "
        + Long.toUnsignedString(offset(i)) + ", nbytes " + Long.toUnsignedString(nbytes(i)) + "): " + why);
  }

  /** Encodes the index with the index codecs into {@code out} at {@code position}. */
  void write(ShardLayout layout, ByteBuffer out, int position, BufferAllocator allocator) {
    ByteBuffer bytes;
    try (ArrowBuf data = allocator.buffer(8L * entries.length)) {
      for (int k = 0; k < entries.length; k++) {
        data.setLong(8L * k, entries[k]);
      }
      try (FieldVector vector = FixedType.UINT64.fromBytes(data, entries.length, allocator)) {
        bytes = layout.index.encode(vector, allocator);
        if (bytes.remaining() != layout.indexSize) {
          throw new CodecException("codec sharding_indexed: the index codecs made " + bytes.remaining()
              + " bytes, expected " + layout.indexSize);
        }
        out.put(position, bytes, bytes.position(), bytes.remaining());
      }
    }
  }
}
