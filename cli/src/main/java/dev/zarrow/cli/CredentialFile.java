package dev.zarrow.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A file of credentials that {@code serve} reads at start and again whenever it changes (so that an
 * entry removed is refused from the next call on, without a restart). The file must be readable by
 * its owner only: a file that group or others may read is refused at start, and once running any
 * version of the file that cannot be used (unreadable, readable by others, a bad line) refuses every
 * call until it is fixed. Lines are trimmed; empty lines and lines starting with {@code #} are
 * skipped. Messages name the file and line numbers, never a line's content.
 *
 * @param <T> what the lines make
 */
final class CredentialFile<T> {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

  /** Makes the contents of a file from its lines (numbered from 1); a bad line is an {@link IllegalArgumentException} naming its number. */
  interface Parser<T> {
    T parse(List<Line> lines);
  }

  record Line(int number, String text) {}

  private final String option;
  private final Path path;
  private final Parser<T> parser;
  private final PrintWriter log;
  private Object version;
  private T contents; // null: the current version cannot be used

  /** Reads {@code path} (named by {@code option} in messages); what is wrong with it is an {@link IllegalArgumentException}. */
  CredentialFile(String option, Path path, Parser<T> parser, PrintWriter log) {
    this.option = option;
    this.path = path;
    this.parser = parser;
    this.log = log;
    this.version = version();
    this.contents = read();
  }

  /** The contents of the file as it is now; {@code null} when this version cannot be used (said once on the log). */
  synchronized T current() {
    Object now;
    try {
      now = version();
    } catch (IllegalArgumentException e) {
      now = e.getMessage();
    }
    if (!now.equals(version)) {
      version = now;
      try {
        contents = read();
        log.println("serve: " + option + " " + path + " changed: read again");
      } catch (IllegalArgumentException e) {
        contents = null;
        log.println("serve: " + e.getMessage() + "; every call is refused until it is fixed");
      }
      log.flush();
    }
    return contents;
  }

  /** What tells one version of the file from another: its modification time, size, inode and permissions. */
  private Object version() {
    try {
      if (Files.getFileStore(path).supportsFileAttributeView("posix")) {
        PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class);
        return List.of(a.lastModifiedTime(), a.size(), String.valueOf(a.fileKey()), a.permissions());
      }
      BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
      return List.of(a.lastModifiedTime(), a.size(), String.valueOf(a.fileKey()));
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " " + path + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    }
  }

  private T read() {
    try {
      if (Files.getFileStore(path).supportsFileAttributeView("posix")) {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
        if (permissions.stream().anyMatch(OTHERS::contains)) {
          throw new IllegalArgumentException(option + " " + path + ": group or others may read or change it (mode "
              + PosixFilePermissions.toString(permissions) + "); make it readable by its owner only (chmod 600)");
        }
      }
      List<Line> lines = new ArrayList<>();
      int number = 0;
      for (String text : Files.readAllLines(path, StandardCharsets.UTF_8)) {
        number++;
        String trimmed = text.strip();
        if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
          lines.add(new Line(number, trimmed));
        }
      }
      if (lines.isEmpty()) {
        throw new IllegalArgumentException(option + " " + path + ": holds no entries");
      }
      return parser.parse(lines);
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " " + path + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith(option) ? e : new IllegalArgumentException(option + " " + path + ": " + e.getMessage());
    }
  }
}
