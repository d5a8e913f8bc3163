/**
 * Zarr arrays and groups as streams of Arrow record batches, and Arrow tables written into groups.
 *
 * <p>A <b>group table</b> is a group whose 1-D child arrays are the columns of one Arrow schema.
 * {@link dev.zarrow.table.TableLayout} is its on-disk description (the group attribute {@code
 * zarrow_table}: the original Arrow schema in the JSON-integration spelling and the child node
 * that holds each field), so that the exact schema (names, including duplicates and names that are
 * not valid node names, types, nullability, metadata, dictionaries) comes back on export. The
 * attribute is written last, so it is the claim that the table is complete: a group without it is
 * not read as a table, except an AnnData dataframe or on request ({@code
 * TableReader.ofAlignedArrays}), as its aligned arrays.
 *
 * <p>{@link dev.zarrow.table.TableWriter} writes a table ({@link dev.zarrow.table.TableOptions}
 * says how): native Zarr data types where a column allows, the {@code arrow} data type otherwise.
 *
 * <p>{@link dev.zarrow.table.ArrayReader} and {@link dev.zarrow.table.TableReader} stream an array or
 * a group table as record batches, decoding ahead in parallel.
 *
 * <p>Layer: the top of the library, like Arrow Java's {@code ipc} over its vectors. Depends on {@code
 * dev.zarrow} (arrays, groups, {@code ArraySpec} for the layout of new columns), {@code dev.zarrow.vector},
 * {@code dev.zarrow.dtype} and {@code dev.zarrow.metadata}; never on codec implementations. Nothing in
 * the library depends on it.
 */
package dev.zarrow.table;
