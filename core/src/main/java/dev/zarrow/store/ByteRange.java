package dev.zarrow.store;

/** A byte range of a stored value: from an offset (with a length), or the last {@code length} bytes. */
public sealed interface ByteRange {

  /** {@code length} bytes starting at {@code offset}. */
  record FromStart(long offset, long length) implements ByteRange {
    public FromStart {
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException("bad byte range: offset " + offset + ", length " + length);
      }
    }

    @Override
    public long start(long size) {
      return offset;
    }

    @Override
    public long length(long size) {
      return length;
    }
  }

  /** The last {@code length} bytes. */
  record Suffix(long length) implements ByteRange {
    public Suffix {
      if (length < 0) {
        throw new IllegalArgumentException("bad suffix length " + length);
      }
    }

    @Override
    public long start(long size) {
      return size - length;
    }

    @Override
    public long length(long size) {
      return length;
    }
  }

  static ByteRange of(long offset, long length) {
    return new FromStart(offset, length);
  }

  static ByteRange suffix(long length) {
    return new Suffix(length);
  }

  /** The first byte of this range in a value of {@code size} bytes. */
  long start(long size);

  /** The number of bytes this range asks for. */
  long length(long size);

  /** True when the range lies inside a value of {@code size} bytes. */
  default boolean fits(long size) {
    long start = start(size);
    return start >= 0 && start <= size && length(size) <= size - start;
  }
}
