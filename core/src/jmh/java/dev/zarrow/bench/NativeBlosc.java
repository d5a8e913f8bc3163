package dev.zarrow.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.SymbolLookup;

/**
 * c-blosc 1.x itself (Debian's libblosc1, the library numcodecs links), called through JDK 17's incubating
 * foreign linker on direct buffers: the native baseline of {@link BloscBench}, decoding into memory the
 * caller reuses, as zarrow does. Needs {@code --add-modules jdk.incubator.foreign} and
 * {@code --enable-native-access=ALL-UNNAMED}.
 */
final class NativeBlosc {
  static final String LIBRARY = "/usr/lib/x86_64-linux-gnu/libblosc.so.1";
  private static final MethodHandle COMPRESS;
  private static final MethodHandle DECOMPRESS;

  static {
    System.load(LIBRARY);
    SymbolLookup lookup = SymbolLookup.loaderLookup();
    CLinker linker = CLinker.getInstance();
    // int blosc_compress_ctx(int clevel, int doshuffle, size_t typesize, size_t nbytes, const void* src,
    //                        void* dest, size_t destsize, const char* compressor, size_t blocksize, int nthreads)
    COMPRESS = linker.downcallHandle(lookup.lookup("blosc_compress_ctx").orElseThrow(),
        MethodType.methodType(int.class, int.class, int.class, long.class, long.class, MemoryAddress.class,
            MemoryAddress.class, long.class, MemoryAddress.class, long.class, int.class),
        FunctionDescriptor.of(CLinker.C_INT, CLinker.C_INT, CLinker.C_INT, CLinker.C_LONG, CLinker.C_LONG,
            CLinker.C_POINTER, CLinker.C_POINTER, CLinker.C_LONG, CLinker.C_POINTER, CLinker.C_LONG, CLinker.C_INT));
    // int blosc_decompress_ctx(const void* src, void* dest, size_t destsize, int nthreads)
    DECOMPRESS = linker.downcallHandle(lookup.lookup("blosc_decompress_ctx").orElseThrow(),
        MethodType.methodType(int.class, MemoryAddress.class, MemoryAddress.class, long.class, int.class),
        FunctionDescriptor.of(CLinker.C_INT, CLinker.C_POINTER, CLinker.C_POINTER, CLinker.C_LONG, CLinker.C_INT));
  }

  private NativeBlosc() {}

  private static MemoryAddress address(ByteBuffer direct) {
    return MemorySegment.ofByteBuffer(direct).address();
  }

  /** c-blosc's chunk of the remaining bytes of {@code data} (direct), one thread. */
  static ByteBuffer compress(ByteBuffer data, int typesize, String cname, int clevel, int shuffle) {
    ByteBuffer out = ByteBuffer.allocateDirect(data.remaining() + 16);
    ByteBuffer name = ByteBuffer.allocateDirect(cname.length() + 1).put(cname.getBytes()).put((byte) 0).flip();
    try {
      int n = (int) COMPRESS.invokeExact(clevel, shuffle, (long) typesize, (long) data.remaining(), address(data),
          address(out), (long) out.capacity(), address(name), 0L, 1);
      if (n <= 0) {
        throw new IllegalStateException("blosc_compress_ctx returned " + n);
      }
      return out.limit(n);
    } catch (Throwable t) {
      throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }
  }

  /** Decodes {@code chunk} (direct) into {@code target} (direct, exactly the decoded size), one thread. */
  static void decompress(ByteBuffer chunk, ByteBuffer target) {
    try {
      int n = (int) DECOMPRESS.invokeExact(address(chunk), address(target), (long) target.remaining(), 1);
      if (n != target.remaining()) {
        throw new IllegalStateException("blosc_decompress_ctx returned " + n);
      }
    } catch (Throwable t) {
      throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }
  }
}
