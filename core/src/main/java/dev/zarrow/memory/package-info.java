/**
 * Raw memory under Arrow vectors ({@link dev.zarrow.memory.Buffers}): wrapping a decoded {@code
 * ByteBuffer} as an {@code ArrowBuf} without a copy where it may be (a writable direct buffer the
 * caller owns), copying where it may not, unzeroed allocation, fills and comparisons by pattern, offsets
 * checks by address, read-only views that encoders hand out, and the named child allocators that
 * temporaries come from ({@code Buffers.temporaryAllocator}; there is no allocator of zarrow's own).
 *
 * <p>Layer: above {@code error}; knows no Zarr concept.
 */
package dev.zarrow.memory;
