/**
 * The core codecs of Zarr v3: {@code bytes} (endian), {@code transpose}, {@code gzip}, {@code zstd} and
 * {@code crc32c}, registered by {@link dev.zarrow.codec.core.CorePlugin} with the core data types.
 *
 * <p>Not exported: reached by name through the registry. Layer: a codec implementation; uses {@code
 * codec}, {@code dtype}, {@code memory}, {@code vector}, {@code metadata}, {@code store} and {@code spi},
 * never another implementation package, arrays or the CLI.
 */
package dev.zarrow.codec.core;
