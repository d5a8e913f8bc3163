/**
 * Kernels over Arrow vectors of any type: copying regions between chunks and results ({@link
 * dev.zarrow.vector.Regions}), gathering slices into one vector ({@link dev.zarrow.vector.Gather}),
 * dictionary encoding and decoding ({@link dev.zarrow.vector.Dictionaries}), field layout comparisons
 * ({@link dev.zarrow.vector.Fields}), the offsets and data of variable-width vectors and vectors
 * assembled over them after their offsets are checked ({@link dev.zarrow.vector.VlenBuffers}), and
 * writing values as zarrow's JSON ({@link dev.zarrow.vector.JsonValueWriter}, the form of {@code
 * zarrow cat --json}).
 *
 * <p>Every kernel borrows its inputs and returns vectors the caller owns, allocated from the caller's
 * allocator. Layer: above {@code memory}, {@code internal} and {@code grid}; knows no codec, data type or
 * store.
 */
package dev.zarrow.vector;
