/**
 * Arrow's side of zarrow: the Arrow field JSON of the {@code arrow} data type (the JSON-integration
 * spelling, {@link dev.zarrow.arrow.FieldJson}), zero-copy wrapping of decoded buffers as Arrow
 * memory, chunk vector allocation and region copy, and the Arrow readers and writers of arrays and
 * group tables.
 *
 * <p>Depends on Arrow Java, Jackson and the {@code dev.zarrow} exceptions; the Zarr metadata, codec
 * and store packages build on it, not the other way round.
 */
package dev.zarrow.arrow;
