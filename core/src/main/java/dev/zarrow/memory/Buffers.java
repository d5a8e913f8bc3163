package dev.zarrow.memory;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/** Moving bytes between {@link ByteBuffer}s and Arrow memory, without copying where that is safe. */
public final class Buffers {
  private Buffers() {}

  /**
   * Arrow memory holding the remaining bytes of {@code bytes}; the caller owns the result and closes
   * it. A direct, writable buffer is the caller's own memory (see {@link dev.zarrow.store.Store}) and is
   * wrapped without a copy: the Arrow buffer keeps it reachable until released. A read-only or heap
   * buffer is copied, because Arrow vectors are writable and must not alias shared memory.
   */
  public static ArrowBuf wrap(ByteBuffer bytes, BufferAllocator allocator) {
    int length = bytes.remaining();
    if (length == 0) {
      return allocator.getEmpty();
    }
    if (bytes.isDirect() && !bytes.isReadOnly()) {
      long address = MemoryUtil.getByteBufferAddress(bytes) + bytes.position();
      return allocator.wrapForeignAllocation(new HeldBuffer(bytes, length, address));
    }
    return copy(bytes, allocator);
  }

  /** True when {@link #wrap} would not copy {@code bytes}. */
  public static boolean wrapsWithoutCopy(ByteBuffer bytes) {
    return bytes.remaining() == 0 || (bytes.isDirect() && !bytes.isReadOnly());
  }

  /**
   * Packs {@code count} one-byte booleans at {@code src} (any non-zero byte is true, as numpy reads
   * them) into Arrow's bit layout at {@code dst} (bit i of byte i / 8 for element i), whose
   * {@code (count + 7) / 8} bytes must be zero. Eight elements per step: a long's non-zero bytes become
   * their top bits, which one multiplication gathers into a byte. Addresses are the caller's to check.
   */
  public static void packBooleans(long src, int count, long dst) {
    int i = 0;
    if (MemoryUtil.LITTLE_ENDIAN) {
      for (; i + 8 <= count; i += 8) {
        long v = MemoryUtil.getLong(src + i);
        long top = (((v & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | v) & 0x8080808080808080L;
        MemoryUtil.putByte(dst + (i >>> 3), (byte) (((top >>> 7) * 0x0102040810204080L) >>> 56));
      }
    }
    for (; i < count; i++) {
      if (MemoryUtil.getByte(src + i) != 0) {
        long at = dst + (i >>> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (i & 7))));
      }
    }
  }

  /** The inverse of {@link #packBooleans}: {@code count} bits at {@code src} become bytes 0 or 1 at {@code dst}. */
  public static void unpackBooleans(long src, int count, long dst) {
    int i = 0;
    if (MemoryUtil.LITTLE_ENDIAN) {
      for (; i + 8 <= count; i += 8) {
        MemoryUtil.putLong(dst + i, BYTE_OF_BITS[MemoryUtil.getByte(src + (i >>> 3)) & 0xFF]);
      }
    }
    for (; i < count; i++) {
      MemoryUtil.putByte(dst + i, (byte) (MemoryUtil.getByte(src + (i >>> 3)) >> (i & 7) & 1));
    }
  }

  /** For each byte of bits, the little-endian long of its eight bits as bytes 0 or 1. */
  private static final long[] BYTE_OF_BITS = new long[256];

  static {
    for (int b = 0; b < 256; b++) {
      for (int k = 0; k < 8; k++) {
        BYTE_OF_BITS[b] |= (long) (b >>> k & 1) << (8 * k);
      }
    }
  }

  /** A copy of the remaining bytes of {@code bytes} in new Arrow memory owned by the caller. */
  public static ArrowBuf copy(ByteBuffer bytes, BufferAllocator allocator) {
    int length = bytes.remaining();
    ArrowBuf out = allocator.buffer(length);
    out.setBytes(0, bytes.duplicate());
    return out;
  }

  /**
   * New Arrow memory of exactly {@code size} bytes whose contents are undefined, for a buffer the caller
   * overwrites whole at once; owned by the caller. It is accounted to {@code allocator} like any of its
   * buffers (its limit applies, leaks are reported) but taken from the C heap through Arrow's
   * {@link MemoryUtil#allocateMemory}, not from the allocator's pool: the pool rounds a request up to a
   * power of two and, for buffers of megabytes, hands out fresh zeroed memory each time, so writing a
   * decoded chunk into it first pays for zeroing and page faults (about 0.5-2 ms per 4 MB buffer here,
   * against 0.01 ms for freed heap memory reused; see VlenBench).
   */
  public static ArrowBuf allocateUninitialized(BufferAllocator allocator, long size) {
    if (size == 0) {
      return allocator.getEmpty();
    }
    long address = MemoryUtil.allocateMemory(size);
    try {
      return allocator.wrapForeignAllocation(new HeapMemory(size, address));
    } catch (RuntimeException e) {
      MemoryUtil.freeMemory(address); // refused (over the allocator's limit): the allocator never took it
      throw e;
    }
  }

  /**
   * What is wrong with the order of {@code count + 1} offsets of {@code width} (4 or 8) bytes at
   * {@code address} (valid memory the caller has checked the size of): a negative first offset or a
   * decrease, named by element; null when they start at 0 or more and never decrease. One pass
   * without a branch per offset (any negative offset or decrease turns the sign bit of an
   * accumulator on); the element is looked for only when something is wrong. The last offset's bound
   * is the caller's to check.
   */
  public static String offsetsOrderProblem(long address, int count, int width) {
    long bad;
    if (width == 4) {
      int prev = MemoryUtil.getInt(address);
      int acc = prev;
      for (int i = 1; i <= count; i++) {
        int cur = MemoryUtil.getInt(address + 4L * i);
        acc |= cur | (cur - prev);
        prev = cur;
      }
      bad = acc;
    } else {
      long prev = MemoryUtil.getLong(address);
      long acc = prev;
      for (int i = 1; i <= count; i++) {
        long cur = MemoryUtil.getLong(address + 8L * i);
        acc |= cur | (cur - prev);
        prev = cur;
      }
      bad = acc;
    }
    if (bad >= 0) {
      return null;
    }
    long first = offsetAt(address, 0, width);
    if (first < 0) {
      return "the first offset is negative (" + first + ")";
    }
    for (int i = 1; i <= count; i++) {
      long prev = offsetAt(address, i - 1, width);
      long cur = offsetAt(address, i, width);
      if (cur < prev) {
        return "offsets decrease at element " + (i - 1) + " (" + prev + " then " + cur + ")";
      }
    }
    return null; // not reached: a set sign bit means a negative offset or a decrease
  }

  /** Offset {@code i} of {@code width} bytes at {@code address}. */
  public static long offsetAt(long address, int i, int width) {
    return width == 4 ? MemoryUtil.getInt(address + 4L * i) : MemoryUtil.getLong(address + 8L * i);
  }

  /**
   * A little-endian view of {@code length} bytes of {@code buf} from {@code offset}, to write into
   * Arrow memory through a {@link ByteBuffer}; valid while buf is.
   */
  public static ByteBuffer view(ArrowBuf buf, long offset, long length) {
    if (length == 0) {
      return ByteBuffer.allocate(0);
    }
    return buf.nioBuffer(offset, Math.toIntExact(length)).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * A read-only little-endian view of {@code length} bytes of {@code buf} from {@code offset}, valid while
   * buf is open and unchanged: how an encoder hands out bytes that are its input's memory. Read-only,
   * so that {@link #wrap} copies it rather than letting a decoded vector alias the caller's.
   */
  public static ByteBuffer readOnlyView(ArrowBuf buf, long offset, long length) {
    return view(buf, offset, length).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Writes {@code count} copies of {@code pattern} into {@code buf} from {@code offset}. */
  public static void fill(ArrowBuf buf, long offset, long count, byte[] pattern) {
    long total = count * pattern.length;
    if (total == 0) {
      return;
    }
    boolean zero = true;
    for (byte b : pattern) {
      zero &= b == 0;
    }
    if (zero) {
      buf.setZero(offset, total);
      return;
    }
    buf.setBytes(offset, pattern);
    // Double the filled prefix until done: log(n) memcpy calls instead of n small writes.
    long done = pattern.length;
    while (done < total) {
      long n = Math.min(done, total - done);
      buf.setBytes(offset + done, buf, offset, n);
      done += n;
    }
  }

  /** True when the {@code count} elements of {@code pattern.length} bytes from {@code offset} all equal it. */
  public static boolean allEqual(ArrowBuf buf, long offset, long count, byte[] pattern) {
    int width = pattern.length;
    long total = count * width;
    if (total == 0) {
      return true;
    }
    if (8 % width == 0) {
      long word = 0;
      for (int i = 0; i < 8; i++) {
        word |= (pattern[i % width] & 0xffL) << (8 * i);
      }
      long i = 0;
      for (; i + 8 <= total; i += 8) {
        if (buf.getLong(offset + i) != word) {
          return false;
        }
      }
      for (; i < total; i++) {
        if (buf.getByte(offset + i) != pattern[(int) (i % width)]) {
          return false;
        }
      }
      return true;
    }
    for (long i = 0; i < total; i++) {
      if (buf.getByte(offset + i) != pattern[(int) (i % width)]) {
        return false;
      }
    }
    return true;
  }

  /**
   * A validity bitmap of {@code count} set bits, the bits past them clear, owned by the caller: what
   * Arrow makes for a vector loaded with no nulls and no bitmap, in unzeroed memory of {@code allocator}
   * written once (Arrow zeroes its bitmap, then sets the bits: twice).
   */
  public static ArrowBuf allValid(int count, BufferAllocator allocator) {
    long full = count / 8;
    int rest = count % 8;
    ArrowBuf bits = allocateUninitialized(allocator, full + (rest > 0 ? 1 : 0));
    bits.setOne(0L, full);
    if (rest > 0) {
      bits.setByte(full, (1 << rest) - 1);
    }
    return bits;
  }

  /**
   * Whether {@code vector} holds a null: Arrow's {@code getNullCount() > 0}, answered for the vectors
   * with a validity bitmap by one pass that ANDs its words from memory. Arrow counts the bits through
   * bounds-checked reads, about 18 us for a million values: a tenth of a float cast of that many, paid on
   * every chunk encoded or decoded. Other vectors (unions, nulls, run-end encoded) ask Arrow.
   */
  public static boolean hasNulls(ValueVector vector) {
    int count = vector.getValueCount();
    if (count == 0) {
      return false;
    }
    if (!(vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector
        || vector instanceof BaseLargeVariableWidthVector || vector instanceof BaseVariableWidthViewVector
        || vector instanceof ListVector || vector instanceof LargeListVector || vector instanceof FixedSizeListVector
        || vector instanceof StructVector)) {
      return vector.getNullCount() > 0;
    }
    ArrowBuf bits = vector.getValidityBuffer();
    if (bits.capacity() < (count + 7L) / 8) {
      return vector.getNullCount() > 0; // a bitmap too short: Arrow's count says what is wrong
    }
    return !allSet(bits.memoryAddress(), count);
  }

  /** Whether the first {@code count} bits at {@code address} (Arrow's bit order) are all set. */
  private static boolean allSet(long address, int count) {
    int words = count >>> 6;
    long a = -1L;
    long b = -1L;
    int i = 0;
    for (; i + 4 <= words; i += 4) { // two chains of ANDs: a load each half cycle
      long at = address + 8L * i;
      a &= MemoryUtil.getLong(at) & MemoryUtil.getLong(at + 8);
      b &= MemoryUtil.getLong(at + 16) & MemoryUtil.getLong(at + 24);
    }
    for (; i < words; i++) {
      a &= MemoryUtil.getLong(address + 8L * i);
    }
    if ((a & b) != -1L) {
      return false;
    }
    for (i = words << 6; i < count; i++) {
      if ((MemoryUtil.getByte(address + (i >>> 3)) >> (i & 7) & 1) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * A child of {@code parent} for the temporaries of one operation, named {@code name} so that a leak
   * names its source; the caller closes it before returning.
   */
  public static BufferAllocator temporaryAllocator(BufferAllocator parent, String name) {
    return parent.newChildAllocator(name, 0, Long.MAX_VALUE);
  }

  /**
   * The allocator of {@code vector}, beside which temporaries of an operation on it go. Arrow Java's
   * {@code NullVector} has none (it holds no memory): that is an {@link IllegalArgumentException}
   * telling the caller to pass an allocator, never a hidden root allocator of zarrow's own.
   */
  public static BufferAllocator allocatorOf(ValueVector vector, String operation) {
    BufferAllocator allocator = vector.getAllocator();
    if (allocator == null) {
      throw new IllegalArgumentException(operation + ": a vector of Arrow type " + vector.getField().getType()
          + " has no allocator to take temporaries from; pass one");
    }
    return allocator;
  }

  /** Memory from {@link MemoryUtil#allocateMemory}, freed when Arrow releases it. */
  private static final class HeapMemory extends ForeignAllocation {
    HeapMemory(long size, long address) {
      super(size, address);
    }

    @Override
    protected void release0() {
      MemoryUtil.freeMemory(memoryAddress());
    }
  }

  /** Keeps a direct buffer reachable for as long as Arrow uses its memory. */
  private static final class HeldBuffer extends ForeignAllocation {
    @SuppressWarnings("unused") // holds the memory; read by nothing
    private ByteBuffer held;

    HeldBuffer(ByteBuffer held, long size, long address) {
      super(size, address);
      this.held = held;
    }

    @Override
    protected void release0() {
      held = null;
    }
  }

  /**
   * An input stream over {@code bytes} from its position to its limit, advancing it: a decompressor
   * reads stored bytes through it without a heap copy of them. Borrowed: pass a duplicate to keep the
   * caller's position.
   */
  public static InputStream inputStream(ByteBuffer bytes) {
    return new ByteBufferInput(bytes);
  }

  private static final class ByteBufferInput extends InputStream {
    private final ByteBuffer buffer;

    ByteBufferInput(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public int read() {
      return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (!buffer.hasRemaining()) {
        return -1;
      }
      int n = Math.min(len, buffer.remaining());
      buffer.get(b, off, n);
      return n;
    }

    @Override
    public int available() {
      return buffer.remaining();
    }
  }

}
