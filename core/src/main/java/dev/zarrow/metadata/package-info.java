/**
 * The documents zarrow reads and writes, as values: {@code zarr.json} of arrays ({@link
 * dev.zarrow.metadata.ArrayMetadata}) and groups ({@link dev.zarrow.metadata.GroupMetadata}), extension
 * points ({@link dev.zarrow.metadata.NamedConfig}), the JSON helpers with a stable key order ({@link
 * dev.zarrow.metadata.Json}), and the Arrow field JSON of the {@code arrow} data type in the Arrow
 * JSON-integration spelling ({@link dev.zarrow.metadata.FieldJson}, keeping metadata order with {@link
 * dev.zarrow.metadata.OrderedMetadata}), and the consolidated metadata of a hierarchy ({@link
 * dev.zarrow.metadata.ConsolidatedMetadata}: zarr-python 2's {@code .zmetadata}, zarr-python 3's inline
 * {@code consolidated_metadata}) with the read-only store view that answers metadata reads from it
 * ({@link dev.zarrow.metadata.ConsolidatedStore}).
 *
 * <p>Layer: above {@code error}; uses Jackson and Arrow Java's {@code types.pojo}, so parsing
 * metadata never needs vectors, an allocator, codecs or a store. Only the consolidated classes use the
 * {@code Store} interface (a lower layer): to read, write and view a hierarchy's consolidated document,
 * which knows nothing of what an array's metadata means.
 */
package dev.zarrow.metadata;
