package dev.zarrow.store;

import dev.zarrow.error.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A store on a directory: key {@code a/b/c} is the file {@code ROOT/a/b/c}.
 *
 * <p>Reads go straight into fresh direct buffers with positional reads, which the caller owns: decoders
 * wrap them as Arrow buffers without a copy. (Memory mapping would save the kernel's copy but hand out
 * read-only memory that a vector's owner could write to and crash the JVM.) A {@link #source} keeps
 * the file open, so all its ranges come from one version of the value. Writes go
 * to a temporary file in the target directory that is then atomically renamed over the key, so a
 * crash (even {@code kill -9}) leaves the old value or the new one, never a torn one. Temporary files
 * are named {@code .*.zarrow-tmp} and never listed. Writes refuse to follow a symbolic link out of the
 * root. {@link #lock} is shared by every instance opened on one directory in this process, so partial
 * writes through different instances still take turns.
 */
public final class FileSystemStore implements WritableStore {
  private static final String TMP_SUFFIX = ".zarrow-tmp";

  private final Path root;
  private final Path realRoot;
  // One set for every instance: two stores opened on one directory in one process still take turns.
  private static final KeyLocks LOCKS = new KeyLocks();

  private FileSystemStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
    try {
      Files.createDirectories(this.root);
      this.realRoot = this.root.toRealPath();
    } catch (IOException e) {
      throw new StoreException("cannot open directory store " + this.root + ": " + e.getMessage(), e);
    }
  }

  /** Opens (creating if needed) the directory store at {@code root}. */
  public static FileSystemStore open(Path root) {
    return new FileSystemStore(root);
  }

  public Path root() {
    return root;
  }

  private Path path(String key) {
    return root.resolve(Keys.check(key));
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    Path path = path(key);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = channel.size();
      return Optional.of(FileSource.read(channel, 0, size, key));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return absent(path, "read", key, e);
    }
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    Path path = path(key);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = channel.size();
      if (!range.fits(size)) {
        throw new StoreException(
            "byte range " + range + " is outside key " + key + " of " + size + " bytes in " + describe());
      }
      return Optional.of(FileSource.read(channel, range.start(size), range.length(size), key));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return absent(path, "read", key, e);
    }
  }

  /**
   * Opens the file once: all the source's reads go through that channel, so they see one version of the
   * value even when a writer renames a new one over it meanwhile (a shard's index and its inner chunks
   * must agree). The caller closes the source, which closes the file.
   */
  @Override
  public Optional<ByteSource> source(String key) {
    Path path = path(key);
    if (!Files.isRegularFile(path)) {
      return Optional.empty();
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      return Optional.empty(); // deleted since
    } catch (IOException e) {
      throw failure("read", key, e);
    }
    try {
      return Optional.of(new FileSource(channel, channel.size(), key, describe()));
    } catch (IOException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw failure("read", key, e);
    }
  }

  /**
   * A read that failed because no file is there (a directory, or a path through a file) finds no key;
   * any other failure is the store's. Checked only after a failure, so reads cost no extra call.
   */
  private Optional<ByteBuffer> absent(Path path, String what, String key, IOException e) {
    if (!Files.isRegularFile(path)) {
      return Optional.empty();
    }
    throw failure(what, key, e);
  }

  @Override
  public Optional<Long> size(String key) {
    try {
      Path path = path(key);
      if (!Files.isRegularFile(path)) {
        return Optional.empty();
      }
      return Optional.of(Files.size(path));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("stat", key, e);
    }
  }

  @Override
  public List<String> list(String prefix) {
    Keys.checkPrefix(prefix);
    // Walk the deepest directory the prefix names, then filter by the rest of the prefix.
    int slash = prefix.lastIndexOf('/');
    String dirKey = slash < 0 ? "" : prefix.substring(0, slash);
    Path dir = dirKey.isEmpty() ? root : root.resolve(dirKey);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile() && !isTemporary(file)) {
                String key = toKey(file);
                if (key.startsWith(prefix)) {
                  out.add(key);
                }
              }
              return FileVisitResult.CONTINUE;
            }

            // A value deleted, or a temporary file renamed, while the walk passes by: not listed.
            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw failure("list", prefix, e);
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public Listing listDir(String prefix) {
    Keys.checkPrefix(prefix);
    Path dir = prefix.isEmpty() ? root : root.resolve(prefix);
    List<String> keys = new ArrayList<>();
    TreeSet<String> prefixes = new TreeSet<>();
    if (!Files.isDirectory(dir)) {
      return new Listing(keys, List.of());
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (isTemporary(entry)) {
          continue;
        }
        String name = entry.getFileName().toString();
        if (Files.isDirectory(entry)) {
          prefixes.add(prefix + name + "/");
        } else if (Files.isRegularFile(entry)) {
          keys.add(prefix + name);
        }
      }
    } catch (IOException e) {
      throw failure("list", prefix, e);
    }
    Collections.sort(keys);
    return new Listing(keys, new ArrayList<>(prefixes));
  }

  @Override
  public void set(String key, ByteBuffer value) {
    Path target = path(key);
    Path dir = target.getParent();
    Path tmp = null;
    try {
      // Check before creating anything: a symbolic link on the way must not make directories outside.
      checkInsideRoot(key, existingAncestor(dir));
      Files.createDirectories(dir);
      checkInsideRoot(key, dir);
      if (Files.isSymbolicLink(target)) {
        throw new StoreException("refusing to write key " + key + ": it is a symbolic link in " + describe());
      }
      tmp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + TMP_SUFFIX);
      try (FileChannel channel =
          FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW)) {
        ByteBuffer bytes = value.duplicate();
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw failure("write", key, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write already failed; the leftover is invisible to listings
        }
      }
    }
  }

  @Override
  public java.util.concurrent.locks.Lock lock(String key) {
    return LOCKS.lock(realRoot + "/" + Keys.check(key));
  }

  /** One rename of a directory: atomic on a local file system. */
  @Override
  public boolean canRenameAtomically() {
    return true;
  }

  @Override
  public void renamePrefix(String from, String to) {
    Path source = prefixDir(from);
    Path target = prefixDir(to);
    try {
      checkInsideRoot(from, source.getParent());
      checkInsideRoot(to, existingAncestor(target.getParent()));
      Files.createDirectories(target.getParent());
      // rename(2): replaces an empty directory, refuses one with keys in it.
      Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new StoreException("cannot rename " + from + " to " + to + " in " + describe() + ": " + e, e);
    }
  }

  private Path prefixDir(String prefix) {
    if (prefix.isEmpty() || !prefix.endsWith("/")) {
      throw new IllegalArgumentException("a prefix to rename ends with '/' and is not the root: '" + prefix + "'");
    }
    return root.resolve(Keys.check(prefix.substring(0, prefix.length() - 1)));
  }

  @Override
  public void delete(String key) {
    Path path = path(key);
    try {
      if (!Files.isDirectory(path.getParent())) {
        return;
      }
      checkInsideRoot(key, path.getParent());
      Files.deleteIfExists(path);
    } catch (IOException e) {
      if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
        throw failure("delete", key, e);
      }
      // a directory or a path through a file: no such key
    }
  }

  /** Refuses a write of {@code key} whose directory {@code dir} (which exists) resolves outside the root. */
  private void checkInsideRoot(String key, Path dir) throws IOException {
    if (!dir.toRealPath().startsWith(realRoot)) {
      throw new StoreException("refusing to change key " + key + ": its directory leaves the root of " + describe()
          + " through a symbolic link");
    }
  }

  /** The deepest existing directory on the way to {@code dir} (at worst the root). */
  private Path existingAncestor(Path dir) {
    Path p = dir;
    while (!p.equals(root) && !Files.exists(p)) {
      p = p.getParent();
    }
    return p;
  }

  private static boolean isTemporary(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith(".") && name.endsWith(TMP_SUFFIX);
  }

  private String toKey(Path file) {
    return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }

  private StoreException failure(String what, String key, IOException e) {
    return new StoreException("cannot " + what + " key " + key + " in " + describe() + ": " + e, e);
  }

  @Override
  public String describe() {
    return "directory store " + root;
  }
}
