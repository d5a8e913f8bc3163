/**
 * The one exception family of zarrow: {@link dev.zarrow.error.ZarrException} (unchecked) for data
 * problems, refined by what went wrong (a missing node, a store failure, bad metadata, an unsupported
 * extension, a codec failure, a corrupt chunk, a checksum mismatch). Context (store, key, chunk) is
 * added once where it is known, with {@code withContext}. Caller mistakes are not data problems: they
 * are {@code IllegalArgumentException}s and {@code IllegalStateException}s.
 *
 * <p>Layer: the bottom. Imports nothing of zarrow.
 */
package dev.zarrow.error;
