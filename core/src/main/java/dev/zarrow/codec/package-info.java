/**
 * The codec model: the three kinds of {@link dev.zarrow.codec.Codec} (array->array, array->bytes,
 * bytes->bytes), the chunk they work on ({@link dev.zarrow.codec.ChunkSpec}), the validated chain bound
 * to one chunk spec ({@link dev.zarrow.codec.CodecPipeline}), partial decoding ({@link
 * dev.zarrow.codec.PartialCoding}), and what factories see ({@link dev.zarrow.codec.CodecContext},
 * {@link dev.zarrow.codec.CodecFactory}, {@link dev.zarrow.codec.CodecOptions}).
 *
 * <p>Codecs are immutable and thread-safe. Decoding returns a vector the caller owns; encoding borrows
 * the chunk. Layer: above {@code dtype} and {@code store} ({@code ByteSource} for partial reads); the
 * implementations live in {@code dev.zarrow.codec.*}, above the {@code spi}.
 */
package dev.zarrow.codec;
