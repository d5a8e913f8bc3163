package dev.zarrow.store.zip;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a zip archive front to back: each entry stored (uncompressed, as Zarr's zip store convention
 * expects, so that readers can map it), then the central directory, with ZIP64 records wherever a size,
 * an offset or the entry count needs them (APPNOTE 6.3, sections 4.3 and 4.5.3). Names are UTF-8 (flag 11).
 */
final class ZipWriter {
  /** Writes exactly the entry's bytes at the channel's position. */
  interface Body {
    void writeTo(FileChannel out) throws IOException;
  }

  private record Written(byte[] name, int crc, long size, long offset) {}

  private static final long U32 = 0xffffffffL;
  private static final int UTF8 = 1 << 11;
  // 1980-01-01 00:00: no clock in the archive, so equal content makes equal bytes.
  private static final short DOS_DATE = (short) ((0 << 9) | (1 << 5) | 1);

  private final FileChannel out;
  private final boolean forceZip64;
  private final List<Written> written = new ArrayList<>();

  /** Writes to {@code out} from its position 0; {@code forceZip64} writes ZIP64 records for every entry (for tests). */
  ZipWriter(FileChannel out, boolean forceZip64) {
    this.out = out;
    this.forceZip64 = forceZip64;
  }

  /** Appends the stored entry {@code name} of {@code size} bytes with CRC-32 {@code crc}, written by {@code body}. */
  void add(String name, long size, int crc, Body body) throws IOException {
    byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
    long offset = out.position();
    boolean zip64 = forceZip64 || size >= U32;
    ByteBuffer header = little(30 + nameBytes.length + (zip64 ? 20 : 0));
    header.putInt(0x04034b50).putShort((short) (zip64 ? 45 : 20)).putShort((short) UTF8).putShort((short) ZipArchive.STORED)
        .putShort((short) 0).putShort(DOS_DATE).putInt(crc)
        .putInt((int) (zip64 ? U32 : size)).putInt((int) (zip64 ? U32 : size))
        .putShort((short) nameBytes.length).putShort((short) (zip64 ? 20 : 0)).put(nameBytes);
    if (zip64) {
      header.putShort((short) 1).putShort((short) 16).putLong(size).putLong(size);
    }
    write(header.flip());
    long start = out.position();
    body.writeTo(out);
    if (out.position() - start != size) {
      throw new IOException("entry " + name + ": wrote " + (out.position() - start) + " bytes, expected " + size);
    }
    written.add(new Written(nameBytes, crc, size, offset));
  }

  /** Writes the central directory and the end records; the archive is then complete. */
  void finish() throws IOException {
    long cdOffset = out.position();
    for (Written w : written) {
      boolean bigSize = forceZip64 || w.size >= U32;
      boolean bigOffset = forceZip64 || w.offset >= U32;
      int extra = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
      ByteBuffer entry = little(46 + w.name.length + (extra > 0 ? 4 + extra : 0));
      entry.putInt(0x02014b50).putShort((short) (45 | 3 << 8)).putShort((short) (extra > 0 ? 45 : 20))
          .putShort((short) UTF8).putShort((short) ZipArchive.STORED).putShort((short) 0).putShort(DOS_DATE).putInt(w.crc)
          .putInt((int) (bigSize ? U32 : w.size)).putInt((int) (bigSize ? U32 : w.size))
          .putShort((short) w.name.length).putShort((short) (extra > 0 ? 4 + extra : 0)).putShort((short) 0)
          .putShort((short) 0).putShort((short) 0).putInt(0100644 << 16).putInt((int) (bigOffset ? U32 : w.offset)).put(w.name);
      if (extra > 0) {
        entry.putShort((short) 1).putShort((short) extra);
        if (bigSize) {
          entry.putLong(w.size).putLong(w.size);
        }
        if (bigOffset) {
          entry.putLong(w.offset);
        }
      }
      write(entry.flip());
    }
    long cdSize = out.position() - cdOffset;
    long count = written.size();
    boolean zip64 = forceZip64 || count >= 0xffff || cdOffset >= U32 || cdSize >= U32;
    if (zip64) {
      long at = out.position();
      ByteBuffer record = little(56 + 20);
      record.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
          .putLong(count).putLong(count).putLong(cdSize).putLong(cdOffset);
      record.putInt(0x07064b50).putInt(0).putLong(at).putInt(1);
      write(record.flip());
    }
    ByteBuffer end = little(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0)
        .putShort((short) (zip64 ? 0xffff : count)).putShort((short) (zip64 ? 0xffff : count))
        .putInt((int) (zip64 ? U32 : cdSize)).putInt((int) (zip64 ? U32 : cdOffset)).putShort((short) 0);
    write(end.flip());
  }

  private void write(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      out.write(bytes);
    }
  }

  private static ByteBuffer little(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }
}
