/**
 * numcodecs' codecs, named as zarr-python 3 names them: Zarr v2's compressors and filters beyond the v3
 * core ({@code numcodecs.zlib}, {@code .lz4}, {@code .bz2}, {@code .shuffle}, {@code .delta},
 * {@code .fixedscaleoffset}, {@code .quantize}, {@code .astype}, {@code vlen-array}) and the numcodecs
 * spellings of gzip, zstd and blosc. Each reads what numcodecs writes and writes what it reads (checked
 * against numcodecs in the tests; the filters, shuffle and vlen-array encode to numcodecs' exact bytes);
 * the numeric filters change the chunk's data type as numcodecs does, computing on values: a big-endian
 * {@code astype} is the serializer's business (the {@code bytes} codec after them).
 *
 * <p>Layer: a codec implementation (with {@code dev.zarrow.codec.core} and the others). Depends on
 * {@code dev.zarrow.codec}, {@code dev.zarrow.dtype}, {@code dev.zarrow.metadata}, {@code dev.zarrow.error},
 * lz4-java and Apache Commons Compress (bzip2); never on arrays, groups or stores.
 */
package dev.zarrow.codec.numcodecs;
