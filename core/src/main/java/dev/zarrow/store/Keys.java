package dev.zarrow.store;

import dev.zarrow.error.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Validation of store keys: every store refuses keys that could escape its root. */
public final class Keys {
  private Keys() {}

  /**
   * Returns {@code key} when it is a valid relative key: non-empty segments separated by {@code /},
   * none of them {@code .} or {@code ..}, no leading {@code /}, no backslash, no NUL or other control
   * character. Throws {@link StoreException} naming the key otherwise.
   */
  public static String check(String key) {
    if (key == null || key.isEmpty()) {
      throw new StoreException("empty store key");
    }
    if (key.startsWith("/")) {
      throw new StoreException("store key '" + printable(key) + "' is absolute");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '\\' || c < 0x20 || c == 0x7f) {
        throw new StoreException(
            "store key '" + printable(key) + "' contains a backslash or control character");
      }
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new StoreException(
            "store key '" + printable(key) + "' has an empty, '.' or '..' segment");
      }
    }
    return key;
  }

  /** Checks a listing prefix: empty, or a valid key followed by {@code /}. */
  public static String checkPrefix(String prefix) {
    if (prefix.isEmpty()) {
      return prefix;
    }
    check(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    return prefix;
  }

  /**
   * The end of every temporary name: a value being written, a node being written beside the one it
   * replaces, or an old node set aside while the new one takes its place. Stores that rename leave
   * such names ({@code .NAME....zarrow-tmp}, see {@link #isTemporary}) out of their listings.
   */
  public static final String TEMPORARY_SUFFIX = ".zarrow-tmp";

  /** Whether the last segment {@code name} of a key is a temporary one: {@code .} first, {@link #TEMPORARY_SUFFIX} last. */
  public static boolean isTemporary(String name) {
    return name.length() > 1 + TEMPORARY_SUFFIX.length() && name.startsWith(".") && name.endsWith(TEMPORARY_SUFFIX);
  }

  /**
   * The temporary sibling of the node path {@code path} (non-empty) that a writer tags {@code tag}:
   * {@code PARENT/.NAME.TAG.zarrow-tmp}.
   */
  public static String temporarySibling(String path, String tag) {
    check(path);
    int slash = path.lastIndexOf('/');
    return path.substring(0, slash + 1) + "." + path.substring(slash + 1) + "." + tag + TEMPORARY_SUFFIX;
  }

  /**
   * One level of {@code keys} (sorted, each starting with {@code prefix}) below {@code prefix}: what
   * {@link Store#listDir} returns for stores that hold their keys in a sorted collection.
   */
  public static Store.Listing listing(Iterable<String> keys, String prefix) {
    List<String> direct = new ArrayList<>();
    TreeSet<String> prefixes = new TreeSet<>();
    for (String key : keys) {
      String rest = key.substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        direct.add(key);
      } else {
        prefixes.add(prefix + rest.substring(0, slash + 1));
      }
    }
    return new Store.Listing(direct, new ArrayList<>(prefixes));
  }

  static String printable(String key) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
