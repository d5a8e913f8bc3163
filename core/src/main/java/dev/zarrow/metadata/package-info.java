/**
 * The documents zarrow reads and writes, as values: {@code zarr.json} of arrays ({@link
 * dev.zarrow.metadata.ArrayMetadata}) and groups ({@link dev.zarrow.metadata.GroupMetadata}), extension
 * points ({@link dev.zarrow.metadata.NamedConfig}), the JSON helpers with a stable key order ({@link
 * dev.zarrow.metadata.Json}), and the Arrow field JSON of the {@code arrow} data type in the Arrow
 * JSON-integration spelling ({@link dev.zarrow.metadata.FieldJson}, keeping metadata order with {@link
 * dev.zarrow.metadata.OrderedMetadata}).
 *
 * <p>Layer: above {@code error}; uses Jackson and Arrow Java's {@code types.pojo} only, so parsing
 * metadata never needs vectors, an allocator, codecs or a store.
 */
package dev.zarrow.metadata;
