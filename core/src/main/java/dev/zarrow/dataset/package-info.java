/**
 * Gridded datasets (xarray's Zarr groups: N-D variables over named dimensions, coordinates, CF
 * attributes) as Arrow tables: {@link dev.zarrow.dataset.Dataset} (opened once: dimensions, variables,
 * coordinates), {@link dev.zarrow.dataset.DatasetTable} (the table of some variables: grid, chunking,
 * schema, dimension values for planning) and {@link dev.zarrow.dataset.DatasetReader} (an ArrowReader
 * of all chunks of the grid, a chunk range or a list of chunks).
 *
 * <p>Layer: above {@code dev.zarrow.table}; uses the API, {@code vector}, {@code ipc}, {@code grid},
 * {@code metadata}, {@code internal} and {@code error}.
 */
package dev.zarrow.dataset;
