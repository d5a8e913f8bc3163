/**
 * Arrow IPC read without trusting it, and written so that every reader reads the same values.
 *
 * <p>{@link dev.zarrow.ipc.IpcReader} reads an IPC stream or file (any producer: apache-arrow, pyarrow,
 * Arrow C++, Arrow Java) as an {@code ArrowReader}; {@link dev.zarrow.ipc.IpcStreamWriter} writes one
 * with nested dictionaries in an order every reader understands. {@link dev.zarrow.ipc.IpcMessages} and
 * {@link dev.zarrow.ipc.BatchLoader} are the checked pieces both they and the {@code arrow} codec read
 * with: message framing, and record batches loaded into vectors (every length, offset and type id
 * checked before use). {@link dev.zarrow.ipc.SchemaRootReader} is the base of zarrow's readers: its
 * vectors keep struct children that repeat a name.
 *
 * <p>Layer: above {@code vector} and {@code memory}; knows no data type, codec, array or store.
 */
package dev.zarrow.ipc;
