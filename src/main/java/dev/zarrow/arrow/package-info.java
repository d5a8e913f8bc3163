/**
 * Arrow's side of zarrow: the Arrow field JSON of the {@code arrow} data type (the JSON-integration
 * spelling, {@link dev.zarrow.arrow.FieldJson}), zero-copy wrapping of decoded buffers as Arrow
 * memory, chunk vector allocation and region copy, and the Arrow readers and writers of arrays and
 * group tables.
 *
 * <p>The field JSON depends only on Arrow Java's {@code types.pojo}, Jackson and the {@code
 * dev.zarrow} exceptions, so that metadata parsing never needs vectors or an allocator. Nothing
 * here depends on {@code dev.zarrow.cli}.
 */
package dev.zarrow.arrow;
