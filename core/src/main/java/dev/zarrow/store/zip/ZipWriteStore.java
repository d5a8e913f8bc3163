package dev.zarrow.store.zip;

import dev.zarrow.error.StoreException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.KeyLocks;
import dev.zarrow.store.Keys;
import dev.zarrow.store.WritableStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.zip.CRC32;

/**
 * A zip archive being written: a new archive, or an existing one whose entries it starts from. Values go
 * to a scratch file beside the archive as they are set (so that a store far larger than memory can be
 * written, and read back while it is: shards are read-modify-written); {@link #close} then writes the
 * whole archive, every entry stored uncompressed in key order, to a temporary file in the same directory,
 * forces it to disk and renames it over the archive in one atomic step.
 *
 * <p>So a reader never sees a half-written archive: until {@code close} returns it sees the old archive
 * (or none), then the new one whole. A crash leaves the old archive untouched (and hidden
 * {@code .NAME.*.zarrow-tmp} / {@code .zarrow-scratch} files beside it). Two writers of one archive in
 * different processes: the last to close wins. Within the store, every {@link #set} is atomic.
 */
public final class ZipWriteStore implements WritableStore {
  private record Pending(long offset, long length, int crc) {}

  private static final Pending DELETED = new Pending(-1, -1, 0);

  private final Path target;
  private final ZipArchive base;
  private final FileChannel scratch;
  private final AtomicLong end = new AtomicLong();
  private final ConcurrentSkipListMap<String, Pending> pending = new ConcurrentSkipListMap<>();
  private final KeyLocks locks = new KeyLocks();
  private final boolean forceZip64;
  private boolean closed;

  private ZipWriteStore(Path target, ZipArchive base, FileChannel scratch, boolean forceZip64) {
    this.target = target;
    this.base = base;
    this.scratch = scratch;
    this.forceZip64 = forceZip64;
  }

  /** The archive at {@code target} to write (created at close when missing); {@code forceZip64} for tests. */
  static ZipWriteStore open(Path target, boolean forceZip64) {
    Path archive = target.toAbsolutePath().normalize();
    try {
      Files.createDirectories(archive.getParent());
    } catch (IOException e) {
      throw new StoreException("cannot create the directory of zip archive " + archive + ": " + e, e);
    }
    ZipArchive base = Files.exists(archive) ? ZipArchive.open(archive) : null;
    try {
      FileChannel scratch = FileChannel.open(sibling(archive, ".zarrow-scratch"), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
      return new ZipWriteStore(archive, base, scratch, forceZip64);
    } catch (IOException e) {
      if (base != null) {
        base.close();
      }
      throw new StoreException("cannot write zip archive " + archive + ": " + e, e);
    }
  }

  private static Path sibling(Path archive, String suffix) {
    return archive.resolveSibling("." + archive.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + suffix);
  }

  @Override
  public void set(String key, ByteBuffer value) {
    Keys.check(key);
    ByteBuffer bytes = value.duplicate();
    long length = bytes.remaining();
    long at = end.getAndAdd(length);
    CRC32 crc = new CRC32();
    crc.update(value.duplicate());
    try {
      long position = at;
      while (bytes.hasRemaining()) {
        position += scratch.write(bytes, position);
      }
    } catch (IOException e) {
      throw failure("write", key, e);
    }
    pending.put(key, new Pending(at, length, (int) crc.getValue()));
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    Pending p = pending.get(Keys.check(key));
    if (p != null) {
      return p == DELETED ? Optional.empty() : Optional.of(read(key, p.offset, p.length));
    }
    return base == null ? Optional.empty() : base.get(key);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    Pending p = pending.get(Keys.check(key));
    if (p == null) {
      return base == null ? Optional.empty() : base.get(key, range);
    }
    if (p == DELETED) {
      return Optional.empty();
    }
    if (!range.fits(p.length)) {
      throw new StoreException("byte range " + range + " is outside key " + key + " of " + p.length + " bytes in " + describe());
    }
    return Optional.of(read(key, p.offset + range.start(p.length), range.length(p.length)));
  }

  @Override
  public Optional<Long> size(String key) {
    Pending p = pending.get(Keys.check(key));
    if (p != null) {
      return p == DELETED ? Optional.empty() : Optional.of(p.length);
    }
    return base == null ? Optional.empty() : base.size(key);
  }

  /** A value in the scratch file is never overwritten (a new one goes elsewhere): read it whole, once. */
  @Override
  public Optional<ByteSource> source(String key) {
    Pending p = pending.get(Keys.check(key));
    if (p != null) {
      return p == DELETED ? Optional.empty() : Optional.of(ByteSource.owned(read(key, p.offset, p.length)));
    }
    return base == null ? Optional.empty() : base.source(key);
  }

  private ByteBuffer read(String key, long offset, long length) {
    if (length > Integer.MAX_VALUE - 8) {
      throw new StoreException("key " + key + ": " + length + " bytes do not fit one buffer");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) length);
    try {
      while (out.hasRemaining()) {
        if (scratch.read(out, offset + out.position()) < 0) {
          throw new StoreException("key " + key + ": the scratch file of " + describe() + " is shorter than written");
        }
      }
    } catch (IOException e) {
      throw failure("read", key, e);
    }
    return out.flip();
  }

  /** The keys under {@code prefix} as they are now: the archive's, changed by what was set and deleted. */
  private TreeSet<String> keys(String prefix) {
    Keys.checkPrefix(prefix);
    TreeSet<String> keys = new TreeSet<>();
    if (base != null) {
      keys.addAll(base.entries().subMap(prefix, true, prefix + Character.MAX_VALUE, false).keySet());
    }
    for (Map.Entry<String, Pending> e : pending.subMap(prefix, true, prefix + Character.MAX_VALUE, false).entrySet()) {
      if (e.getValue() == DELETED) {
        keys.remove(e.getKey());
      } else {
        keys.add(e.getKey());
      }
    }
    return keys;
  }

  @Override
  public List<String> list(String prefix) {
    return new ArrayList<>(keys(prefix));
  }

  @Override
  public Listing listDir(String prefix) {
    return Keys.listing(keys(prefix), prefix);
  }

  @Override
  public Lock lock(String key) {
    return locks.lock(Keys.check(key));
  }

  @Override
  public void delete(String key) {
    pending.put(Keys.check(key), DELETED);
  }

  @Override
  public String describe() {
    return "zip archive " + target + " (being written)";
  }

  /**
   * Writes the archive and renames it into place, unless nothing changed. The caller must have finished
   * writing: a {@link #set} running meanwhile may or may not be in the archive.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (base == null || !pending.isEmpty()) {
        commit();
      }
    } finally {
      try {
        scratch.close();
      } catch (IOException e) {
        // the scratch file is deleted on close; nothing else to do
      }
      if (base != null) {
        base.close();
      }
    }
  }

  private void commit() {
    Path tmp = sibling(target, ".zarrow-tmp");
    try {
      try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ZipWriter writer = new ZipWriter(out, forceZip64);
        for (String key : keys("")) {
          Pending p = pending.get(key);
          if (p != null) {
            writer.add(key, p.length, p.crc, o -> transfer(scratch, p.offset, p.length, o));
            continue;
          }
          ZipArchive.Entry entry = base.entries().get(key);
          if (entry.method() == ZipArchive.STORED) {
            long from = base.dataOffset(entry);
            writer.add(key, entry.size(), entry.crc(), o -> transfer(base.channel(), from, entry.size(), o));
          } else {
            ByteBuffer bytes = base.read(entry); // inflated and checked: stored from now on
            writer.add(key, entry.size(), entry.crc(), o -> {
              while (bytes.hasRemaining()) {
                o.write(bytes);
              }
            });
          }
        }
        writer.finish();
        out.force(true);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new StoreException("cannot write zip archive " + target + ": " + e, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write failed already; the hidden leftover is harmless
        }
      }
    }
  }

  private static void transfer(FileChannel from, long position, long length, FileChannel to) throws IOException {
    long done = 0;
    while (done < length) {
      long n = from.transferTo(position + done, length - done, to);
      if (n <= 0) {
        throw new IOException("the source ended after " + done + " of " + length + " bytes");
      }
      done += n;
    }
  }

  private StoreException failure(String what, String key, IOException e) {
    return new StoreException("cannot " + what + " key " + key + " in " + describe() + ": " + e, e);
  }
}
