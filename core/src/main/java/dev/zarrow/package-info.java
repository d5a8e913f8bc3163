/**
 * zarrow's API: open and create nodes ({@link dev.zarrow.Zarr}), arrays and groups ({@link
 * dev.zarrow.ZarrNode}: {@link dev.zarrow.ZarrArray} | {@link dev.zarrow.ZarrGroup}), what a new array
 * looks like ({@link dev.zarrow.ArraySpec}), how nodes are opened ({@link dev.zarrow.ZarrOptions}) and
 * a region of an array in Arrow memory ({@link dev.zarrow.NdVector}).
 *
 * <p>Arrays read and write chunks through the codec pipeline bound to their metadata; a chunk in memory
 * is a flat, C-order Arrow vector. Every method that returns Arrow memory takes the caller's allocator
 * and hands over a vector the caller closes; vectors passed in are borrowed.
 *
 * <p>Layer: above the codecs and the registry ({@code spi}); may use every package below it (see
 * docs/architecture.md); nothing below imports it. {@code dev.zarrow.table} sits on top of it.
 */
package dev.zarrow;
