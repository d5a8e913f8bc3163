/**
 * The chunk layouts of the variable-length data types ({@link dev.zarrow.dtype.VarLenType}): ZEP7
 * (Arrow offsets and data, decoded without a copy), the interleaved {@code vlen-utf8}/{@code vlen-bytes}
 * of numcodecs and {@code zarrs.vlen}. The codec list picks the layout, never the data type's name.
 *
 * <p>Depends on {@code dev.zarrow.codec}, {@code dev.zarrow.dtype}, {@code dev.zarrow.arrow} and
 * {@code dev.zarrow.internal}; never on arrays, stores or the CLI.
 */
package dev.zarrow.codec.vlen;
