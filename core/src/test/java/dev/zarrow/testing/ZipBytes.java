package dev.zarrow.testing;

import dev.zarrow.store.Store;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Zip archives built byte by byte, so that tests can damage exactly one field: entries stored or
 * deflated, local headers with their sizes (no data descriptor), one central directory, no ZIP64.
 * {@link #localHeader} and {@link #centralEntry} say where each entry's records start.
 */
public final class ZipBytes {
  /** One entry: its name, compression method (0 stored, 8 deflated), CRC-32, data as stored and size. */
  public record Entry(String name, int method, int crc, byte[] data, long size) {}

  private final List<Entry> entries = new ArrayList<>();
  private final List<Integer> locals = new ArrayList<>();
  private final List<Integer> centrals = new ArrayList<>();

  /** Adds {@code value} stored, or deflated when {@code deflate}. */
  public ZipBytes add(String name, byte[] value, boolean deflate) {
    return add(new Entry(name, deflate ? 8 : 0, crc(value), deflate ? deflate(value) : value, value.length));
  }

  public ZipBytes add(Entry entry) {
    entries.add(entry);
    return this;
  }

  /** Every key of {@code store}, each an entry. */
  public static ZipBytes of(Store store, boolean deflate) {
    ZipBytes zip = new ZipBytes();
    for (String key : store.list("")) {
      ByteBuffer b = store.get(key).orElseThrow();
      byte[] value = new byte[b.remaining()];
      b.duplicate().get(value);
      zip.add(key, value, deflate);
    }
    return zip;
  }

  /** The archive. */
  public byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    locals.clear();
    centrals.clear();
    for (Entry e : entries) {
      locals.add(out.size());
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      out.writeBytes(header(0x04034b50, 30 + name.length).putShort((short) 20).putShort((short) 0x800).putShort((short) e.method)
          .putInt(0).putInt(e.crc).putInt(e.data.length).putInt((int) e.size).putShort((short) name.length).putShort((short) 0)
          .put(name).array());
      out.writeBytes(e.data);
    }
    int cd = out.size();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      centrals.add(out.size());
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      out.writeBytes(header(0x02014b50, 46 + name.length).putShort((short) 20).putShort((short) 20).putShort((short) 0x800)
          .putShort((short) e.method).putInt(0).putInt(e.crc).putInt(e.data.length).putInt((int) e.size)
          .putShort((short) name.length).putShort((short) 0).putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0)
          .putInt(locals.get(i)).put(name).array());
    }
    int cdSize = out.size() - cd;
    out.writeBytes(header(0x06054b50, 22).putShort((short) 0).putShort((short) 0).putShort((short) entries.size())
        .putShort((short) entries.size()).putInt(cdSize).putInt(cd).putShort((short) 0).array());
    return out.toByteArray();
  }

  /** Where entry {@code i}'s local header starts in the last {@link #bytes()}. */
  public int localHeader(int i) {
    return locals.get(i);
  }

  /** Where entry {@code i}'s central directory entry starts in the last {@link #bytes()}. */
  public int centralEntry(int i) {
    return centrals.get(i);
  }

  /** Where entry {@code i}'s data starts in the last {@link #bytes()}. */
  public int data(int i) {
    return locals.get(i) + 30 + entries.get(i).name.getBytes(StandardCharsets.UTF_8).length;
  }

  public List<Entry> entries() {
    return entries;
  }

  public int indexOf(String name) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).name.equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  /** Writes a little-endian int at {@code at}. */
  public static void putInt(byte[] archive, int at, int value) {
    ByteBuffer.wrap(archive).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
  }

  /** Writes a little-endian short at {@code at}. */
  public static void putShort(byte[] archive, int at, int value) {
    ByteBuffer.wrap(archive).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
  }

  public static int crc(byte[] value) {
    CRC32 crc = new CRC32();
    crc.update(value);
    return (int) crc.getValue();
  }

  public static byte[] deflate(byte[] value) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    d.setInput(value);
    d.finish();
    byte[] buffer = new byte[value.length + value.length / 8 + 64];
    int n = d.deflate(buffer);
    d.end();
    return Arrays.copyOf(buffer, n);
  }

  /**
   * A deflated entry of {@code mib} MiB of zeros that really inflates to that size, in about a
   * thousandth of it: one block of a MiB after a sync flush decodes the same wherever the window holds
   * zeros, so it is repeated instead of compressed again.
   */
  public static Entry zeros(String name, int mib) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    byte[] mebibyte = new byte[1 << 20];
    byte[] buffer = new byte[64 << 10];
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    ByteArrayOutputStream repeated = new ByteArrayOutputStream();
    d.setInput(mebibyte);
    for (int n = buffer.length; n == buffer.length; ) { // a full buffer: more output is waiting
      n = d.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
      first.write(buffer, 0, n);
    }
    d.setInput(mebibyte);
    for (int n = buffer.length; n == buffer.length; ) { // a full buffer: more output is waiting
      n = d.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
      repeated.write(buffer, 0, n);
    }
    d.finish();
    ByteArrayOutputStream last = new ByteArrayOutputStream();
    while (!d.finished()) {
      last.write(buffer, 0, d.deflate(buffer));
    }
    d.end();
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    data.writeBytes(first.toByteArray());
    byte[] block = repeated.toByteArray();
    for (int i = 1; i < mib; i++) {
      data.writeBytes(block);
    }
    data.writeBytes(last.toByteArray());
    CRC32 crc = new CRC32();
    for (int i = 0; i < mib; i++) {
      crc.update(mebibyte);
    }
    return new Entry(name, 8, (int) crc.getValue(), data.toByteArray(), (long) mib << 20);
  }

  private static ByteBuffer header(int signature, int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN).putInt(signature);
  }
}
