/**
 * The {@code blosc} codec: the Blosc 1 container format (header version 2, as c-blosc 1.x writes it),
 * decoded and encoded in Java.
 *
 * <p>The format ({@link dev.zarrow.codec.blosc.BloscHeader}, {@link dev.zarrow.codec.blosc.BloscDecoder},
 * {@link dev.zarrow.codec.blosc.BloscEncoder}, the shuffles and the block codecs) knows nothing of Zarr
 * metadata, so that both the v3 {@code blosc} codec ({@link dev.zarrow.codec.blosc.BloscCodec}) and Zarr
 * v2's {@code blosc} compressor can use it. Depends on {@code dev.zarrow.codec}, {@code dev.zarrow.error},
 * {@code dev.zarrow.metadata}, {@code dev.zarrow.internal}, lz4-java, zstd-jni and {@code java.util.zip};
 * it must not depend on arrays, groups or stores.
 */
package dev.zarrow.codec.blosc;
