/**
 * Zip archives as stores: {@link dev.zarrow.store.zip.ZipStore} reads (stored entries mapped, not copied;
 * deflate; ZIP64), {@link dev.zarrow.store.zip.ZipWriteStore} writes a new archive of stored entries and
 * renames it into place whole. Found through the {@link dev.zarrow.store.StoreProvider} of {@code zip:}
 * and {@code *.zip} locations.
 *
 * <p>Layer: a store implementation; uses {@code dev.zarrow.store} and {@code dev.zarrow.error} only.
 */
package dev.zarrow.store.zip;
