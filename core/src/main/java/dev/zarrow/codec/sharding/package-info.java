/**
 * The {@code sharding_indexed} codec (ZEP2): many inner chunks and an index of their byte ranges in one
 * stored object, read one inner chunk at a time through {@link dev.zarrow.store.ByteSource} ranges.
 *
 * <p>Owns the binary shard format (index layout, empty-chunk marker, index validation) and the partial
 * read and read-modify-write of shards. Depends on {@code dev.zarrow.codec} (pipelines for the inner
 * chunks and the index, made through the codec context), {@code dev.zarrow.store.ByteSource}, {@code
 * dev.zarrow.dtype}, {@code dev.zarrow.metadata}, {@code dev.zarrow.memory}, {@code dev.zarrow.vector}
 * and {@code dev.zarrow.internal}; never on arrays, groups, concrete stores or another codec
 * implementation. Not exported; its metadata is built by {@code ArraySpec.shardingIndexed}.
 */
package dev.zarrow.codec.sharding;
