/**
 * Where Zarr keys live: {@link dev.zarrow.store.Store} (read), {@link dev.zarrow.store.WritableStore},
 * values read whole or by {@link dev.zarrow.store.ByteRange} through a {@link
 * dev.zarrow.store.ByteSource} (the partial-read primitive, coalescing nearby ranges), the local
 * stores: a directory ({@link dev.zarrow.store.FileSystemStore}) and memory ({@link
 * dev.zarrow.store.MemoryStore}); {@link dev.zarrow.store.Stores} opens any store by location, through the
 * {@link dev.zarrow.store.StoreProvider} SPI for HTTP, S3 and zip.
 *
 * <p>Ownership: a store is a resource, closed by whoever opened it; a source from a store is closed by
 * whoever got it; a writable buffer a store returns is the caller's own (decoders may wrap it as Arrow
 * memory), a read-only one is shared and must be copied before anything could write to it.
 *
 * <p>Layer: above {@code error} and {@code internal}; knows nothing of metadata, codecs or arrays.
 * Store implementations in sub-packages are found by location through the store SPI, never imported
 * from here.
 */
package dev.zarrow.store;
