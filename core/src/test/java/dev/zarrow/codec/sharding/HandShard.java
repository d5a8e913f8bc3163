package dev.zarrow.codec.sharding;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A shard built byte by byte from the spec's layout, independently of zarrow's codec: inner chunks in
 * any order with any gaps, an index of little-endian uint64 (offset, nbytes) pairs in C order with
 * 2^64-1 for empty chunks, optionally followed by its CRC-32C, at the start or the end.
 */
final class HandShard {
  private final int count;
  private final boolean atEnd;
  private final boolean crc;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();
  private final long[] entries;

  HandShard(int count, boolean atEnd, boolean crc) {
    this.count = count;
    this.atEnd = atEnd;
    this.crc = crc;
    this.entries = new long[2 * count];
    Arrays.fill(entries, -1L);
  }

  int indexSize() {
    return 16 * count + (crc ? 4 : 0);
  }

  /** {@code n} junk bytes that no entry points at. */
  HandShard gap(int n) {
    for (int i = 0; i < n; i++) {
      body.write(0xA5);
    }
    return this;
  }

  /** Inner chunk {@code i} (C order) stored next. */
  HandShard chunk(int i, byte[] bytes) {
    entries[2 * i] = body.size();
    entries[2 * i + 1] = bytes.length;
    body.writeBytes(bytes);
    return this;
  }

  /** Overrides the entry of inner chunk {@code i} with raw values (for corrupt shards). */
  HandShard entry(int i, long offset, long nbytes) {
    entries[2 * i] = offset;
    entries[2 * i + 1] = nbytes;
    return this;
  }

  byte[] build() {
    ByteBuffer index = ByteBuffer.allocate(indexSize()).order(ByteOrder.LITTLE_ENDIAN);
    for (int k = 0; k < entries.length; k++) {
      long v = entries[k];
      // Offsets count from the start of the shard: behind the index when it comes first.
      boolean isOffset = k % 2 == 0;
      boolean empty = entries[k - k % 2] == -1L && entries[k - k % 2 + 1] == -1L;
      index.putLong(!atEnd && isOffset && !empty ? v + indexSize() : v);
    }
    if (crc) {
      CRC32C c = new CRC32C();
      c.update(index.array(), 0, 16 * count);
      index.putInt((int) c.getValue());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!atEnd) {
      out.writeBytes(index.array());
    }
    out.writeBytes(body.toByteArray());
    if (atEnd) {
      out.writeBytes(index.array());
    }
    return out.toByteArray();
  }

  /** Little-endian bytes of 16-bit values. */
  static byte[] u16(int... values) {
    ByteBuffer b = ByteBuffer.allocate(2 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putShort((short) v);
    }
    return b.array();
  }

  static byte[] u8(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }
}
