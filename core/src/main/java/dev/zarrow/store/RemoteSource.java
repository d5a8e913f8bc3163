package dev.zarrow.store;

import dev.zarrow.error.StoreException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A value of a network store, read by range. Its size and its first bytes come with the request that
 * found the key ({@link Store#source(String, ByteRange)}); reads inside those bytes cost nothing, the
 * others go to {@code fetch}, which gets the merged ranges of one {@link #readAll(List)} together (to send
 * them concurrently) and returns exactly the bytes asked, each from the version of the value the first
 * request saw (network stores pin it with that answer's ETag). Holds nothing that needs closing.
 */
public final class RemoteSource implements ByteSource {
  private final long size;
  private final long firstStart;
  private final ByteBuffer first;
  private final Function<List<ByteRange>, List<ByteBuffer>> fetch;

  /**
   * A value of {@code size} bytes whose bytes from {@code firstStart} are {@code first} (kept read-only:
   * reads inside them share it); {@code fetch} reads the rest.
   */
  public RemoteSource(long size, long firstStart, ByteBuffer first, Function<List<ByteRange>, List<ByteBuffer>> fetch) {
    if (firstStart < 0 || firstStart > size || first.remaining() > size - firstStart) {
      throw new IllegalArgumentException("first bytes [" + firstStart + ", +" + first.remaining() + ") outside " + size + " bytes");
    }
    this.size = size;
    this.firstStart = firstStart;
    this.first = first.slice().asReadOnlyBuffer();
    this.fetch = fetch;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public ByteBuffer read(ByteRange range) {
    return readAll(List.of(range)).get(0);
  }

  @Override
  public List<ByteBuffer> readAll(List<ByteRange> ranges) {
    ByteBuffer[] out = new ByteBuffer[ranges.size()];
    List<ByteRange> missing = new ArrayList<>();
    List<Integer> where = new ArrayList<>();
    for (int i = 0; i < ranges.size(); i++) {
      ByteRange range = ranges.get(i);
      ByteSource.check(range, size);
      long start = range.start(size);
      long length = range.length(size);
      if (start >= firstStart && start + length <= firstStart + first.remaining()) {
        out[i] = first.slice((int) (start - firstStart), (int) length);
      } else {
        missing.add(ByteRange.of(start, length));
        where.add(i);
      }
    }
    if (!missing.isEmpty()) {
      List<ByteBuffer> fetched = Coalescing.readMerged(missing, size, fetch);
      for (int k = 0; k < fetched.size(); k++) {
        ByteBuffer bytes = fetched.get(k);
        if (bytes.remaining() != missing.get(k).length(size)) {
          throw new StoreException("asked for " + missing.get(k) + ", got " + bytes.remaining() + " bytes");
        }
        out[where.get(k)] = bytes;
      }
    }
    return List.of(out);
  }
}
