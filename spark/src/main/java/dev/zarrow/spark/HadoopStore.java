package dev.zarrow.spark;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.StoreException;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Keys;
import dev.zarrow.store.WritableStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A store on a Hadoop file system ({@code hdfs://}, {@code s3a://}, {@code gs://}, {@code abfs://},
 * ...): key {@code a/b/c} is the file {@code ROOT/a/b/c}, reached through Hadoop's {@link FileSystem}
 * with the job's Hadoop configuration, as Spark's own file sources reach storage.
 *
 * <p>Reads are positional reads into fresh buffers the caller owns; a {@link #source} keeps the file
 * open, so all its ranges come from one version of the value. Writes are atomic: on object stores
 * (where a file appears whole when its upload completes, and rename is a copy) a value is written in
 * place; elsewhere to a temporary file {@code .NAME.UUID.zarrow-tmp} beside it that is then renamed
 * over the key (where the file system's rename refuses to replace, the old value is deleted first:
 * a reader may then briefly miss the key). Temporary and Hadoop checksum files are never listed.
 */
public final class HadoopStore implements WritableStore {
  private static final String TMP_SUFFIX = ".zarrow-tmp";
  /** Schemes of object stores: a file appears whole when its upload completes. */
  private static final Set<String> OBJECT_STORES = Set.of("s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cosn", "obs");

  private final FileSystem fs;
  private final Path root;
  private final boolean writeInPlace;
  private final Lock[] locks = new Lock[64];

  private HadoopStore(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
    this.writeInPlace = OBJECT_STORES.contains(fs.getScheme());
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The store at {@code uri}, through the file system Hadoop configures for its scheme. */
  public static HadoopStore open(URI uri, Configuration conf) {
    try {
      Path root = new Path(uri);
      FileSystem fs = root.getFileSystem(conf);
      return new HadoopStore(fs, fs.makeQualified(root));
    } catch (IOException e) {
      throw new StoreException("cannot open " + uri + " through Hadoop: " + e.getMessage(), e);
    }
  }

  private Path path(String key) {
    return new Path(root, Keys.check(key));
  }

  /** The hosts that hold the most of {@code key}'s blocks (none when the file system does not say). */
  public List<String> hosts(String key) {
    try {
      FileStatus status = fs.getFileStatus(path(key));
      List<String> hosts = new ArrayList<>();
      for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
        for (String host : block.getHosts()) {
          if (!host.equals("localhost") && !hosts.contains(host)) {
            hosts.add(host);
          }
        }
      }
      return hosts;
    } catch (IOException e) {
      return List.of(); // a hint only
    }
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    try (ByteSource source = open(key)) {
      return Optional.ofNullable(source).map(ByteSource::readAll);
    }
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    try (ByteSource source = open(key)) {
      if (source == null) {
        return Optional.empty();
      }
      if (!range.fits(source.size())) {
        throw new StoreException("byte range " + range + " is outside " + key + " (" + source.size() + " bytes) in " + describe());
      }
      return Optional.of(source.read(range));
    }
  }

  @Override
  public Optional<Long> size(String key) {
    try {
      return Optional.ofNullable(file(path(key))).map(FileStatus::getLen);
    } catch (IOException e) {
      throw failed("stat", key, e);
    }
  }

  /** The status of the file at {@code path}, or null when there is none (a directory is no key). */
  private FileStatus file(Path path) throws IOException {
    try {
      FileStatus status = fs.getFileStatus(path);
      return status.isFile() ? status : null;
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  @Override
  public Optional<ByteSource> source(String key) {
    return Optional.ofNullable(open(key));
  }

  /**
   * The open file of {@code key}, or null when it does not exist. The size comes from a status taken
   * before and after opening that agree, so it is the size of the version opened even when the key
   * is being replaced.
   */
  private FileSource open(String key) {
    Path path = path(key);
    try {
      for (int attempt = 0; ; attempt++) {
        FileStatus before = file(path);
        if (before == null) {
          return null;
        }
        FSDataInputStream in = fs.open(path);
        FileStatus after;
        try {
          after = file(path);
        } catch (IOException | RuntimeException e) {
          in.close();
          throw e;
        }
        if (after != null && after.getLen() == before.getLen() && after.getModificationTime() == before.getModificationTime()) {
          return new FileSource(in, after.getLen(), key);
        }
        in.close();
        if (attempt == 10) {
          throw new IOException("the file keeps changing while it is opened");
        }
      }
    } catch (FileNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw failed("open", key, e);
    }
  }

  /** Positional reads of one open file: every range from the version opened. */
  private final class FileSource implements ByteSource {
    private final FSDataInputStream in;
    private final long size;
    private final String key;

    FileSource(FSDataInputStream in, long size, String key) {
      this.in = in;
      this.size = size;
      this.key = key;
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    public ByteBuffer read(ByteRange range) {
      if (!range.fits(size)) {
        throw new CorruptChunkException("byte range " + range + " is outside " + key + " (" + size + " bytes)");
      }
      long length = range.length(size);
      if (length > Integer.MAX_VALUE - 16) {
        throw new StoreException("byte range " + range + " of " + key + " is larger than one buffer");
      }
      byte[] bytes = new byte[(int) length];
      try {
        in.readFully(range.start(size), bytes, 0, bytes.length);
      } catch (IOException e) {
        throw failed("read", key, e);
      }
      return ByteBuffer.wrap(bytes);
    }

    @Override
    public void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // reads are done; nothing is lost
      }
    }
  }

  @Override
  public List<String> list(String prefix) {
    Keys.checkPrefix(prefix);
    int slash = prefix.lastIndexOf('/');
    String dir = prefix.substring(0, slash + 1);
    List<String> out = new ArrayList<>();
    try {
      Path base = dir.isEmpty() ? root : path(dir.substring(0, dir.length() - 1));
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(base, true);
      String rootPath = root.toUri().getPath();
      String rootSlash = rootPath.endsWith("/") ? rootPath : rootPath + "/";
      while (files.hasNext()) {
        String full = files.next().getPath().toUri().getPath();
        String key = full.startsWith(rootSlash) ? full.substring(rootSlash.length()) : null;
        if (key != null && key.startsWith(prefix) && listed(key)) {
          out.add(key);
        }
      }
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw failed("list", prefix, e);
    }
    Collections.sort(out);
    return out;
  }

  private static boolean listed(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return !name.endsWith(TMP_SUFFIX) && !(name.startsWith(".") && name.endsWith(".crc"));
  }

  @Override
  public Listing listDir(String prefix) {
    Keys.checkPrefix(prefix);
    TreeSet<String> keys = new TreeSet<>();
    TreeSet<String> prefixes = new TreeSet<>();
    try {
      Path dir = prefix.isEmpty() ? root : path(prefix.substring(0, prefix.length() - 1));
      for (FileStatus status : fs.listStatus(dir)) {
        String name = status.getPath().getName();
        if (status.isDirectory()) {
          prefixes.add(prefix + name + "/");
        } else if (listed(name)) {
          keys.add(prefix + name);
        }
      }
    } catch (FileNotFoundException e) {
      return new Listing(List.of(), List.of());
    } catch (IOException e) {
      throw failed("list", prefix, e);
    }
    return new Listing(new ArrayList<>(keys), new ArrayList<>(prefixes));
  }

  @Override
  public void set(String key, ByteBuffer value) {
    Path target = path(key);
    ByteBuffer bytes = value.duplicate();
    try {
      if (writeInPlace) {
        write(target, bytes);
        return;
      }
      Path tmp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + TMP_SUFFIX);
      write(tmp, bytes);
      if (!fs.rename(tmp, target)) {
        fs.delete(target, false); // this file system does not rename over an existing file
        if (!fs.rename(tmp, target)) {
          fs.delete(tmp, false);
          throw new IOException("rename of " + tmp + " to " + target + " failed");
        }
      }
    } catch (IOException e) {
      throw failed("write", key, e);
    }
  }

  private void write(Path path, ByteBuffer bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(path, true)) {
      if (bytes.hasArray()) {
        out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
      } else {
        byte[] chunk = new byte[Math.min(bytes.remaining(), 1 << 20)];
        while (bytes.hasRemaining()) {
          int n = Math.min(chunk.length, bytes.remaining());
          bytes.get(chunk, 0, n);
          out.write(chunk, 0, n);
        }
      }
    }
  }

  @Override
  public Lock lock(String key) {
    return locks[Math.floorMod(key.hashCode(), locks.length)];
  }

  @Override
  public void delete(String key) {
    try {
      fs.delete(path(key), false);
    } catch (FileNotFoundException e) {
      // already gone
    } catch (IOException e) {
      throw failed("delete", key, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    if (prefix.isEmpty() || prefix.endsWith("/")) {
      Keys.checkPrefix(prefix);
      try {
        Path dir = prefix.isEmpty() ? root : path(prefix.substring(0, prefix.length() - 1));
        if (prefix.isEmpty()) {
          for (FileStatus child : listOrEmpty(dir)) {
            fs.delete(child.getPath(), true);
          }
        } else {
          fs.delete(dir, true);
        }
      } catch (IOException e) {
        throw failed("delete", prefix, e);
      }
    } else {
      WritableStore.super.deletePrefix(prefix);
    }
  }

  private FileStatus[] listOrEmpty(Path dir) throws IOException {
    try {
      return fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  @Override
  public String describe() {
    return "Hadoop file system " + root;
  }

  private StoreException failed(String what, String key, IOException e) {
    return new StoreException("cannot " + what + " " + key + " in " + describe() + ": " + e.getMessage(), e);
  }
}
