/**
 * Google Cloud Storage, read-only ({@link dev.zarrow.store.gcs.GcsStore}): values through the HTTP store
 * (opened by location with {@link dev.zarrow.store.Stores}, so ranges, retries and checks are the HTTP
 * store's), listings through the GCS JSON API.
 *
 * <p>Layer: a store implementation; uses {@code dev.zarrow.store}, {@code dev.zarrow.error},
 * {@code java.net.http} and Jackson.
 */
package dev.zarrow.store.gcs;
