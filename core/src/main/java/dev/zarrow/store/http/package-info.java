/**
 * The read-only HTTP(S) store ({@link dev.zarrow.store.http.HttpStore}) on {@code java.net.http}, found
 * through its {@link dev.zarrow.store.StoreProvider} for {@code http://} and {@code https://} locations.
 *
 * <p>Layer: a store implementation; uses {@code dev.zarrow.store} and {@code dev.zarrow.error} only.
 */
package dev.zarrow.store.http;
