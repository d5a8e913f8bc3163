/**
 * Zarr data types and their Arrow form ({@link dev.zarrow.dtype.DataType}): the core numeric types and
 * raw bits ({@link dev.zarrow.dtype.FixedType}), numpy's other fixed-size types ({@link
 * dev.zarrow.dtype.NumpyTypes}, converted to their Arrow form by {@link dev.zarrow.dtype.ConvertedType}),
 * the variable-length types ({@link
 * dev.zarrow.dtype.VarLenType}) and the {@code arrow} type ({@link dev.zarrow.dtype.ArrowDataType}),
 * with fill values ({@link dev.zarrow.dtype.FillValue}). A type describes its vectors; assembling them
 * from buffers is {@code dev.zarrow.vector.VlenBuffers}'s job.
 *
 * <p>A data type names the serializer it implies (ZEP7) as codec metadata; it never makes codecs.
 * Layer: above {@code vector}, {@code memory} and {@code metadata}; never imports {@code codec}.
 */
package dev.zarrow.dtype;
