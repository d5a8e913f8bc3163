package dev.zarrow.codec.sharding;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.grid.Box;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sharding configuration bound to one shard spec: the inner chunk grid, the inner and index codec
 * pipelines, the index size. Worked out once (it validates everything), then only read. Immutable.
 */
final class ShardLayout {
  /** The most index bytes a shard may have: one buffer. */
  static final long MAX_INDEX_BYTES = Integer.MAX_VALUE - 64;

  final ChunkSpec shard;
  final int[] innerShape;
  final int[] perShard; // inner chunks per shard, per dimension
  final int count;
  final CodecPipeline inner;
  final CodecPipeline index;
  final long indexSize;
  final boolean indexAtEnd;
  /** Inner chunks are shards themselves: give them lazy slices so they read only what they need. */
  final boolean innerReadsPartially;
  /** Decoding an inner chunk does more than copy memory, so doing several in parallel pays. */
  final boolean innerWorthParallel;

  private ShardLayout(
      ChunkSpec shard, int[] innerShape, int[] perShard, int count, CodecPipeline inner, CodecPipeline index,
      long indexSize, boolean indexAtEnd) {
    this.shard = shard;
    this.innerShape = innerShape;
    this.perShard = perShard;
    this.count = count;
    this.inner = inner;
    this.index = index;
    this.indexSize = indexSize;
    this.indexAtEnd = indexAtEnd;
    boolean serializerOnly = inner.arrayCodecs().isEmpty() && inner.bytesCodecs().isEmpty();
    this.innerReadsPartially = serializerOnly && inner.serializer() instanceof ShardingCodec;
    this.innerWorthParallel = !(serializerOnly && inner.serializer().name().equals("bytes"));
  }

  static ShardLayout of(
      ChunkSpec shard, int[] innerShape, List<Codec> codecs, List<Codec> indexCodecs, IndexLocation location,
      CodecContext context) {
    int rank = shard.rank();
    int[] shape = shard.shape();
    if (innerShape.length != rank) {
      throw new CodecException("codec sharding_indexed: chunk_shape " + Arrays.toString(innerShape) + " has "
          + innerShape.length + " dimensions, the shard " + Arrays.toString(shape) + " has " + rank);
    }
    int[] perShard = new int[rank];
    long count = 1;
    for (int d = 0; d < rank; d++) {
      if (innerShape[d] <= 0 || shape[d] % innerShape[d] != 0) {
        throw new CodecException("codec sharding_indexed: the shard shape " + Arrays.toString(shape)
            + " is not divisible by the inner chunk shape " + Arrays.toString(innerShape)
            + " (dimension " + d + ")");
      }
      perShard[d] = shape[d] / innerShape[d];
      count *= perShard[d];
    }
    if (count * 16 > MAX_INDEX_BYTES) {
      throw new CodecException("codec sharding_indexed: " + count + " inner chunks per shard (shard "
          + Arrays.toString(shape) + ", inner chunks " + Arrays.toString(innerShape)
          + ") need an index of more than 2 GiB");
    }
    CodecPipeline inner;
    try {
      inner = CodecPipeline.of(codecs, shard.withShape(innerShape), context);
    } catch (ZarrException e) {
      throw e.withContext("codec sharding_indexed, codecs");
    }
    int[] indexShape = Arrays.copyOf(perShard, rank + 1);
    indexShape[rank] = 2;
    ChunkSpec indexSpec = new ChunkSpec(indexShape, FixedType.UINT64, FixedType.UINT64.defaultFill());
    CodecPipeline index;
    try {
      index = CodecPipeline.of(indexCodecs, indexSpec, context);
    } catch (ZarrException e) {
      throw e.withContext("codec sharding_indexed, index_codecs");
    }
    if (index.encodedSize().isEmpty()) {
      throw new CodecException("codec sharding_indexed: index_codecs "
          + indexCodecs.stream().map(Codec::name).toList()
          + " give the index no fixed size; only fixed-size codecs (such as bytes and crc32c, no compression) may encode it");
    }
    long indexSize = index.encodedSize().getAsLong();
    if (indexSize > MAX_INDEX_BYTES) {
      throw new CodecException("codec sharding_indexed: an index of " + indexSize + " bytes is too large");
    }
    return new ShardLayout(
        shard, innerShape.clone(), perShard, (int) count, inner, index, indexSize, location == IndexLocation.END);
  }

  /** The coordinates (in the inner grid) of inner chunk {@code i} (C order). */
  int[] coords(int i) {
    int[] out = new int[perShard.length];
    for (int d = perShard.length - 1; d >= 0; d--) {
      out[d] = i % perShard[d];
      i /= perShard[d];
    }
    return out;
  }

  /** Inner chunk {@code i} as a box of the shard. */
  Box box(int i) {
    int[] c = coords(i);
    long[] start = new long[c.length];
    long[] shape = new long[c.length];
    for (int d = 0; d < c.length; d++) {
      start[d] = (long) c[d] * innerShape[d];
      shape[d] = innerShape[d];
    }
    return new Box(start, shape);
  }

  /** Names inner chunk {@code i} in messages. */
  String name(int i) {
    return "inner chunk " + Arrays.toString(coords(i));
  }

  /**
   * The part of a shard region that one inner chunk holds.
   *
   * @param index the inner chunk (C order)
   * @param inChunk the part, relative to the inner chunk
   * @param target where the part starts, relative to the region
   */
  record Part(int index, Box inChunk, long[] target) {
    /** The part as a box of the region. */
    Box inRegion() {
      return new Box(target, inChunk.shape());
    }
  }

  /** The inner chunks that {@code region} (of the shard) touches, in C order; none for an empty region. */
  List<Part> parts(Box region) {
    int rank = perShard.length;
    if (region.rank() != rank || !region.within(Arrays.stream(shard.shape()).asLongStream().toArray())) {
      throw new IllegalArgumentException("codec sharding_indexed: region " + region + " is outside the shard " + Arrays.toString(shard.shape()));
    }
    List<Part> out = new ArrayList<>();
    if (region.size() == 0) {
      return out;
    }
    int[] lo = new int[rank];
    int[] hi = new int[rank];
    for (int d = 0; d < rank; d++) {
      lo[d] = (int) (region.start(d) / innerShape[d]);
      hi[d] = (int) ((region.end(d) + innerShape[d] - 1) / innerShape[d]);
    }
    int[] c = lo.clone();
    while (true) {
      int i = 0;
      long[] start = new long[rank];
      long[] shape = new long[rank];
      for (int d = 0; d < rank; d++) {
        i = i * perShard[d] + c[d];
        start[d] = (long) c[d] * innerShape[d];
        shape[d] = innerShape[d];
      }
      Box part = new Box(start, shape).intersect(region);
      out.add(new Part(i, part.relativeTo(start), part.relativeTo(region.start()).start()));
      int d = rank - 1;
      while (d >= 0 && ++c[d] == hi[d]) {
        c[d] = lo[d];
        d--;
      }
      if (d < 0) {
        return out;
      }
    }
  }
}
