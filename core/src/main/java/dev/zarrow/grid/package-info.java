/**
 * Where elements are: regions ({@link dev.zarrow.grid.Box}), the regular chunk grid and its projection
 * of a region onto chunks ({@link dev.zarrow.grid.ChunkGrid}), and chunk keys ({@link
 * dev.zarrow.grid.ChunkKeyEncoding}: {@code default} and {@code v2}).
 *
 * <p>Layer: above {@code metadata} (it parses its own metadata entries); no Arrow memory.
 */
package dev.zarrow.grid;
