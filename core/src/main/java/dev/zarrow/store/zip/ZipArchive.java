package dev.zarrow.store.zip;

import dev.zarrow.error.StoreException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Keys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A zip archive read through its central directory (PKWARE APPNOTE 6.3): entries stored or deflated,
 * ZIP64 sizes, offsets and counts. Archives up to 2 GiB are mapped once; larger ones map each entry
 * when read. A stored entry is a read-only view of the mapping, never copied; a deflated one is inflated
 * into fresh memory, capped at its declared size.
 *
 * <p>Nothing in the archive is trusted: every count, size and offset is checked against the file before
 * use, so a damaged or hostile archive is a {@link StoreException} naming the archive and the entry:
 * <ul>
 *   <li>two entries of one name are refused when the archive opens (which one would be the key?);
 *   <li>an entry's local header must agree with its central directory entry (name, compression method,
 *       encryption, and CRC-32 and sizes unless they follow in a data descriptor) before its data is used;
 *   <li>a declared size that its compressed size cannot hold (deflate expands at most 1032 times) is
 *       refused before anything is allocated; the caller, who knows what a value may hold, sees the
 *       declared size first ({@link #source}'s {@code size()}) and reads nothing when it is too large;
 *   <li>every entry read whole is checked against its CRC-32, stored and deflated alike; a deflated one
 *       is always inflated whole, so always checked; ranges of a stored entry are views of the file,
 *       read without reading (or checking) the rest of the entry.
 * </ul>
 * Entry names that are not valid store keys (directories, absolute or {@code ..} paths) are not keys.
 */
final class ZipArchive implements AutoCloseable {
  static final int STORED = 0;
  static final int DEFLATED = 8;
  private static final int EOCD = 0x06054b50;
  private static final int ZIP64_LOCATOR = 0x07064b50;
  private static final int ZIP64_EOCD = 0x06064b50;
  private static final int CENTRAL = 0x02014b50;
  private static final int LOCAL = 0x04034b50;
  private static final long MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;
  /** Deflate's largest expansion: a 258-byte match costs at least two bits (zlib's documented limit). */
  private static final long MAX_DEFLATE_RATIO = 1032;
  private static final long U32 = 0xffffffffL;

  /** One entry, as the central directory describes it; {@code rawName} is its name's bytes as stored. */
  record Entry(String name, byte[] rawName, int flags, int method, int crc, long compressedSize, long size, long localOffset) {}

  private final Path path;
  private final FileChannel channel;
  private final long fileSize;
  private final ByteBuffer whole; // the mapped file, or null above 2 GiB
  private final NavigableMap<String, Entry> entries;
  private final ConcurrentHashMap<String, Long> dataOffsets = new ConcurrentHashMap<>();

  private ZipArchive(Path path, FileChannel channel) throws IOException {
    this.path = path;
    this.channel = channel;
    this.fileSize = channel.size();
    this.whole = fileSize <= MAX_VALUE_BYTES ? channel.map(FileChannel.MapMode.READ_ONLY, 0, fileSize).order(ByteOrder.LITTLE_ENDIAN) : null;
    this.entries = Collections.unmodifiableNavigableMap(readCentralDirectory());
  }

  /** Opens the archive at {@code path}. */
  static ZipArchive open(Path path) {
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException e) {
      throw new StoreException("cannot open zip archive " + path + ": " + e, e);
    }
    try {
      return new ZipArchive(path, channel);
    } catch (IOException | RuntimeException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof StoreException s) {
        throw s;
      }
      throw new StoreException("cannot read zip archive " + path + ": " + e, e);
    }
  }

  /** The entries that are keys, by name. */
  NavigableMap<String, Entry> entries() {
    return entries;
  }

  Path path() {
    return path;
  }

  // ---- the central directory ----

  private NavigableMap<String, Entry> readCentralDirectory() throws IOException {
    if (fileSize < 22) {
      throw bad("too short for a zip archive (" + fileSize + " bytes)");
    }
    long eocd = -1;
    long lowest = Math.max(0, fileSize - 22 - 0xffff);
    ByteBuffer tail = bytes(lowest, (int) (fileSize - lowest));
    for (long at = fileSize - 22; at >= lowest; at--) {
      int i = (int) (at - lowest);
      if (tail.getInt(i) == EOCD && (tail.getShort(i + 20) & 0xffff) == fileSize - at - 22) {
        eocd = at;
        break;
      }
    }
    if (eocd < 0) {
      throw bad("no end of central directory record: not a zip archive, or truncated");
    }
    ByteBuffer end = bytes(eocd, 22);
    long count = end.getShort(10) & 0xffff;
    long cdSize = end.getInt(12) & 0xffffffffL;
    long cdOffset = end.getInt(16) & 0xffffffffL;
    long cdLimit = eocd;
    int disk = end.getShort(4) & 0xffff;
    int cdDisk = end.getShort(6) & 0xffff;
    if (disk != 0 && disk != 0xffff || cdDisk != 0 && cdDisk != 0xffff) {
      throw bad("a multi-disk (split) archive is not supported");
    }
    if (count == 0xffff || cdSize == 0xffffffffL || cdOffset == 0xffffffffL) {
      if (eocd < 20 || bytes(eocd - 20, 4).getInt(0) != ZIP64_LOCATOR) {
        throw bad("ZIP64 values without a ZIP64 end of central directory locator");
      }
      long at = bytes(eocd - 20, 20).getLong(8);
      if (at < 0 || at > eocd - 20 - 56) {
        throw bad("ZIP64 end of central directory record at " + at + " lies outside the archive");
      }
      ByteBuffer z = bytes(at, 56);
      if (z.getInt(0) != ZIP64_EOCD) {
        throw bad("no ZIP64 end of central directory record at " + at);
      }
      count = z.getLong(32);
      cdSize = z.getLong(40);
      cdOffset = z.getLong(48);
      cdLimit = at;
    }
    if (cdOffset < 0 || cdSize < 0 || cdOffset > cdLimit || cdSize > cdLimit - cdOffset || cdSize > MAX_VALUE_BYTES) {
      throw bad("central directory [" + cdOffset + ", +" + cdSize + ") lies outside the archive");
    }
    if (count < 0 || count > cdSize / 46) {
      throw bad(count + " entries cannot fit a central directory of " + cdSize + " bytes");
    }
    ByteBuffer cd = bytes(cdOffset, (int) cdSize);
    TreeMap<String, Entry> out = new TreeMap<>();
    Set<String> names = new HashSet<>();
    int p = 0;
    for (long n = 0; n < count; n++) {
      if (p > cd.limit() - 46 || cd.getInt(p) != CENTRAL) {
        throw bad("central directory entry " + n + " at " + (cdOffset + p) + " is damaged");
      }
      int flags = cd.getShort(p + 8) & 0xffff;
      int method = cd.getShort(p + 10) & 0xffff;
      int crc = cd.getInt(p + 16);
      long compressed = cd.getInt(p + 20) & 0xffffffffL;
      long size = cd.getInt(p + 24) & 0xffffffffL;
      int nameLength = cd.getShort(p + 28) & 0xffff;
      int extraLength = cd.getShort(p + 30) & 0xffff;
      int commentLength = cd.getShort(p + 32) & 0xffff;
      long offset = cd.getInt(p + 42) & 0xffffffffL;
      int next = p + 46 + nameLength + extraLength + commentLength;
      if (next > cd.limit()) {
        throw bad("central directory entry " + n + " reaches past the central directory");
      }
      byte[] nameBytes = new byte[nameLength];
      cd.get(p + 46, nameBytes);
      String name = new String(nameBytes, StandardCharsets.UTF_8);
      // ZIP64 extra field (id 1): the 8-byte values of the fields that are 0xffffffff, in this order.
      int e = p + 46 + nameLength;
      int extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        int id = cd.getShort(e) & 0xffff;
        int length = cd.getShort(e + 2) & 0xffff;
        if (e + 4 + length > extraEnd) {
          throw bad("entry " + name + ": an extra field reaches past its entry");
        }
        if (id == 1) {
          int q = e + 4;
          int qEnd = q + length;
          if (size == 0xffffffffL) {
            size = need(q, qEnd, name, cd);
            q += 8;
          }
          if (compressed == 0xffffffffL) {
            compressed = need(q, qEnd, name, cd);
            q += 8;
          }
          if (offset == 0xffffffffL) {
            offset = need(q, qEnd, name, cd);
          }
        }
        e += 4 + length;
      }
      if (compressed < 0 || size < 0 || offset < 0 || offset > cdOffset || compressed > cdOffset - offset) {
        throw bad("entry " + name + ": sizes or offset outside the archive");
      }
      if (!names.add(name)) {
        throw bad("two entries are named " + name);
      }
      if (isKey(name)) {
        out.put(name, new Entry(name, nameBytes, flags, method, crc, compressed, size, offset));
      }
      p = next;
    }
    return out;
  }

  private long need(int q, int end, String name, ByteBuffer cd) {
    if (q + 8 > end) {
      throw bad("entry " + name + ": its ZIP64 extra field is too short");
    }
    return cd.getLong(q);
  }

  private static boolean isKey(String name) {
    try {
      Keys.check(name);
      return true;
    } catch (StoreException e) {
      return false; // a directory, or a name no key can reach
    }
  }

  // ---- values by key ----

  Optional<ByteBuffer> get(String key) {
    Entry entry = entries.get(Keys.check(key));
    return entry == null ? Optional.empty() : Optional.of(read(entry));
  }

  /** A range of a stored entry is a view of the file (unchecked by CRC); a deflated one is inflated (and checked) whole. */
  Optional<ByteBuffer> get(String key, ByteRange range) {
    Entry entry = entries.get(Keys.check(key));
    if (entry == null) {
      return Optional.empty();
    }
    if (!range.fits(entry.size)) {
      throw new StoreException("byte range " + range + " is outside key " + key + " of " + entry.size + " bytes in zip archive " + path);
    }
    ByteBuffer all = entry.method == STORED ? stored(entry) : read(entry);
    return Optional.of(all.slice((int) range.start(entry.size), (int) range.length(entry.size)));
  }

  Optional<Long> size(String key) {
    return Optional.ofNullable(entries.get(Keys.check(key))).map(Entry::size);
  }

  /**
   * The entry read lazily: its {@code size()} is the declared size, known before anything is read or
   * allocated, so a caller that knows what the value may hold refuses it first. A stored entry's ranges
   * are views of the file and its {@code readAll} is checked by CRC; a deflated entry is inflated (and
   * checked) whole on the first read.
   */
  Optional<ByteSource> source(String key) {
    Entry entry = entries.get(Keys.check(key));
    return entry == null ? Optional.empty() : Optional.of(new EntrySource(entry));
  }

  private final class EntrySource implements ByteSource {
    private final Entry entry;
    private ByteBuffer inflated; // a deflated entry, once read

    EntrySource(Entry entry) {
      this.entry = entry;
    }

    @Override
    public long size() {
      return entry.size;
    }

    @Override
    public ByteBuffer read(ByteRange range) {
      ByteSource.check(range, entry.size);
      ByteBuffer all = entry.method == STORED ? stored(entry) : inflated();
      return all.slice((int) range.start(entry.size), (int) range.length(entry.size));
    }

    @Override
    public ByteBuffer readAll() {
      return entry.method == STORED ? ZipArchive.this.read(entry) : inflated().slice();
    }

    private synchronized ByteBuffer inflated() {
      if (inflated == null) {
        inflated = ZipArchive.this.read(entry);
      }
      return inflated;
    }
  }

  // ---- entry data ----

  /**
   * The bytes of {@code entry}, checked against its CRC-32: a read-only view of the file when stored,
   * fresh memory when inflated.
   */
  ByteBuffer read(Entry entry) {
    if (entry.method == STORED) {
      ByteBuffer bytes = stored(entry);
      checkCrc(entry, bytes);
      return bytes;
    }
    ByteBuffer raw = raw(entry);
    if (entry.method != DEFLATED) {
      throw badEntry(entry, "compression method " + entry.method + " is not supported (stored and deflate are)");
    }
    if (entry.size > MAX_DEFLATE_RATIO * entry.compressedSize) {
      throw badEntry(entry, "it declares " + entry.size + " bytes, more than its " + entry.compressedSize
          + " bytes of deflate data can hold (at most " + MAX_DEFLATE_RATIO + " times as many)");
    }
    ByteBuffer out = inflate(entry, raw);
    checkCrc(entry, out.duplicate());
    return out;
  }

  /** A stored entry's bytes, a read-only view of the file, not checked by CRC (ranges of it are read). */
  private ByteBuffer stored(Entry entry) {
    ByteBuffer raw = raw(entry);
    if (entry.compressedSize != entry.size) {
      throw badEntry(entry, "a stored entry of " + entry.size + " bytes takes " + entry.compressedSize);
    }
    return raw;
  }

  /** The entry's data as stored, after its local header was checked. */
  private ByteBuffer raw(Entry entry) {
    if ((entry.flags & 1) != 0) {
      throw badEntry(entry, "it is encrypted");
    }
    if (entry.size > MAX_VALUE_BYTES) {
      throw badEntry(entry, "its " + entry.size + " bytes do not fit one buffer");
    }
    return view(entry, dataOffset(entry), entry.compressedSize);
  }

  private void checkCrc(Entry entry, ByteBuffer bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes.duplicate());
    if ((int) crc.getValue() != entry.crc) {
      throw badEntry(entry, String.format("CRC-32 mismatch: the data's is %08x, the archive says %08x", crc.getValue(), entry.crc));
    }
  }

  /**
   * Where the data of {@code entry} starts: after its local header, checked here against the central
   * directory (once per entry), so that no data is read from an offset the two disagree on.
   */
  long dataOffset(Entry entry) {
    return dataOffsets.computeIfAbsent(entry.name, k -> {
      if (entry.localOffset > fileSize - 30) {
        throw badEntry(entry, "its local header lies outside the archive");
      }
      ByteBuffer local = bytes(entry.localOffset, 30);
      if (local.getInt(0) != LOCAL) {
        throw badEntry(entry, "no local header at " + entry.localOffset);
      }
      int flags = local.getShort(6) & 0xffff;
      int method = local.getShort(8) & 0xffff;
      int nameLength = local.getShort(26) & 0xffff;
      int extraLength = local.getShort(28) & 0xffff;
      ByteBuffer nameAndExtra = bytes(entry.localOffset + 30, nameLength + extraLength);
      byte[] name = new byte[nameLength];
      nameAndExtra.get(0, name);
      if (!Arrays.equals(name, entry.rawName)) {
        throw badEntry(entry, "its local header names " + nameLength + " bytes \"" + new String(name, StandardCharsets.UTF_8)
            + "\", the central directory " + entry.rawName.length + " bytes \"" + entry.name + "\"");
      }
      disagree(entry, "compression method", method, entry.method);
      disagree(entry, "encryption flag", flags & 1, entry.flags & 1);
      if ((flags & 8) == 0) { // else CRC and sizes follow the data, in a data descriptor
        long compressed = local.getInt(18) & U32;
        long size = local.getInt(22) & U32;
        // ZIP64 extra field (id 1) of a local header: both sizes, when either is 0xffffffff.
        for (int e = nameLength; e + 4 <= nameLength + extraLength; ) {
          int id = nameAndExtra.getShort(e) & 0xffff;
          int length = nameAndExtra.getShort(e + 2) & 0xffff;
          if (id == 1 && length >= 16 && e + 4 + length <= nameLength + extraLength && (size == U32 || compressed == U32)) {
            size = nameAndExtra.getLong(e + 4);
            compressed = nameAndExtra.getLong(e + 12);
          }
          e += 4 + length;
        }
        disagree(entry, "CRC-32", local.getInt(14) & U32, entry.crc & U32);
        disagree(entry, "compressed size", compressed, entry.compressedSize);
        disagree(entry, "size", size, entry.size);
      }
      long data = entry.localOffset + 30 + nameLength + extraLength;
      if (data > fileSize - entry.compressedSize) {
        throw badEntry(entry, "its data reaches past the end of the archive");
      }
      return data;
    });
  }

  private void disagree(Entry entry, String what, long local, long central) {
    if (local != central) {
      throw badEntry(entry, "its local header says " + what + " " + local + ", the central directory " + central);
    }
  }

  private ByteBuffer inflate(Entry entry, ByteBuffer input) {
    ByteBuffer out = ByteBuffer.allocateDirect((int) entry.size);
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(input);
      while (!inflater.finished()) {
        int n = inflater.inflate(out);
        if (n == 0) {
          if (!out.hasRemaining()) {
            throw badEntry(entry, "it inflates to more than its declared " + entry.size + " bytes");
          }
          if (inflater.needsInput() || inflater.needsDictionary()) {
            throw badEntry(entry, "its deflate data is truncated");
          }
        }
      }
    } catch (DataFormatException e) {
      throw badEntry(entry, "bad deflate data: " + e.getMessage());
    } finally {
      inflater.end();
    }
    if (out.hasRemaining()) {
      throw badEntry(entry, "it inflates to " + out.position() + " bytes, not its declared " + entry.size);
    }
    return out.flip();
  }

  /** {@code length} bytes at {@code start}, read-only, without a copy. */
  private ByteBuffer view(Entry entry, long start, long length) {
    if (whole != null) {
      return whole.slice((int) start, (int) length).asReadOnlyBuffer();
    }
    try {
      return channel.map(FileChannel.MapMode.READ_ONLY, start, length);
    } catch (IOException e) {
      throw new StoreException("cannot read entry " + entry.name + " of zip archive " + path + ": " + e, e);
    }
  }

  /** {@code length} bytes at {@code start} (checked to lie in the file), little-endian. */
  private ByteBuffer bytes(long start, int length) {
    if (start < 0 || start > fileSize - length) {
      throw bad("a read of " + length + " bytes at " + start + " lies outside the archive");
    }
    if (whole != null) {
      return whole.slice((int) start, length).order(ByteOrder.LITTLE_ENDIAN);
    }
    ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    try {
      while (out.hasRemaining()) {
        if (channel.read(out, start + out.position()) < 0) {
          throw bad("the archive shrank while being read");
        }
      }
    } catch (IOException e) {
      throw new StoreException("cannot read zip archive " + path + ": " + e, e);
    }
    return out.flip();
  }

  FileChannel channel() {
    return channel;
  }

  private StoreException bad(String why) {
    return new StoreException("zip archive " + path + ": " + why);
  }

  private StoreException badEntry(Entry entry, String why) {
    return new StoreException("entry " + entry.name + " of zip archive " + path + ": " + why);
  }

  /** Closes the file; views already handed out stay valid (a mapping outlives its channel). */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new StoreException("cannot close zip archive " + path + ": " + e, e);
    }
  }
}
