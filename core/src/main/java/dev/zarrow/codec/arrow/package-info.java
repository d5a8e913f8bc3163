/**
 * The {@code arrow} codec: a chunk as an Arrow IPC stream ({@link dev.zarrow.codec.arrow.ArrowIpcCodec}),
 * read without copying the bodies and without trusting any offset, length or count in them. Depends on
 * {@code dev.zarrow.arrow} (dictionaries, gathering, zero-copy wrapping) and {@code dev.zarrow.dtype}.
 */
package dev.zarrow.codec.arrow;
