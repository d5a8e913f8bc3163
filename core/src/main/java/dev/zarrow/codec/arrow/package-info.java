/**
 * The {@code arrow} codec: a chunk as an Arrow IPC stream ({@link dev.zarrow.codec.arrow.ArrowIpcCodec}),
 * read without copying the bodies and without trusting any offset, length or count in them. Depends on
 * {@code dev.zarrow.ipc} (the checked messages and batch loader), {@code dev.zarrow.vector}
 * (dictionaries, gathering), {@code dev.zarrow.memory} (zero-copy wrapping), {@code dev.zarrow.dtype}
 * and {@code dev.zarrow.codec}; not exported.
 */
package dev.zarrow.codec.arrow;
