package dev.zarrow.codec.blosc;

import net.jpountz.lz4.LZ4Factory;

/**
 * The LZ4 implementation: lz4-java's native (JNI) one where its library loads, else its fastest Java one.
 * Decoding always goes through a safe decompressor (bounds-checked against hostile input).
 */
final class Lz4 {
  static final LZ4Factory FACTORY = load();

  private Lz4() {}

  private static LZ4Factory load() {
    try {
      return LZ4Factory.nativeInstance();
    } catch (Throwable e) { // no native library for this platform, or it failed to load
      return LZ4Factory.fastestJavaInstance();
    }
  }
}
