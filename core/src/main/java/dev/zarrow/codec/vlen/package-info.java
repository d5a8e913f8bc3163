/**
 * The chunk layouts of the variable-length data types ({@link dev.zarrow.dtype.VarLenType}): ZEP7
 * (Arrow offsets and data, decoded without a copy), the interleaved {@code vlen-utf8}/{@code vlen-bytes}
 * of numcodecs (also {@code zarrs.vlen_v2}) and {@code zarrs.vlen}, and {@link
 * dev.zarrow.codec.vlen.VlenPlugin}, which registers them with the data types. The codec list picks the
 * layout, never the data type's name.
 *
 * <p>Depends on {@code dev.zarrow.codec}, {@code dev.zarrow.dtype}, {@code dev.zarrow.memory},
 * {@code dev.zarrow.internal} and {@code dev.zarrow.error}; never on arrays, stores or the CLI. ZEP7
 * makes the data type the final codec: {@code VarLenType.implicitSerializer()} names {@link
 * dev.zarrow.codec.vlen.Zep7Codec} by its registered name ({@code zarrow.zep7}) and the pipeline finds
 * it in the registry. Not exported.
 */
package dev.zarrow.codec.vlen;
