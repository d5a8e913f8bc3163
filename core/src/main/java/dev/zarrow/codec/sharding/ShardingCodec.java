package dev.zarrow.codec.sharding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.DecodedPieces;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.grid.Box;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code sharding_indexed} (ZEP2): a chunk (the shard) is cut into inner chunks, each encoded with its
 * own codec chain and stored one after another, followed (or preceded) by a fixed-size index of their
 * byte ranges. Layout: see {@link ShardIndex}.
 *
 * <p>Reads fetch the index with one range request, then only the inner chunks a region touches, with
 * adjacent ranges coalesced ({@link ByteSource#readAll(List)}); empty inner chunks cost no read, and an
 * inner chunk that is itself a shard is read through a lazy {@link ByteSource#slice}. Writes encode the
 * inner chunks (leaving out those equal to the fill value); a partial write re-encodes only the inner
 * chunks it touches and copies the stored bytes of the others. Inner chunks are decoded and encoded in
 * parallel on the context's executor when that does more than copy memory.
 *
 * <p>Spec: zarr-specs v3 codecs/sharding-indexed v1.0. Configuration:
 *
 * <pre>{@code
 * {"chunk_shape": [32, 32],
 *  "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "zstd", ...}],
 *  "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
 *  "index_location": "end"}
 * }</pre>
 *
 * {@code index_codecs} must give the index a fixed size; {@code index_location} defaults to
 * {@code "end"}.
 */
public final class ShardingCodec implements ArrayToBytesCodec {
  public static final String NAME = "sharding_indexed";

  private final int[] chunkShape;
  private final List<Codec> codecs;
  private final List<Codec> indexCodecs;
  private final IndexLocation indexLocation;
  private final CodecContext context;
  private final NamedConfig metadata;
  // The layout of the last shard spec seen: one entry (an array binds its codecs to one spec), so it
  // cannot grow.
  private volatile ShardLayout layout;

  private ShardingCodec(
      NamedConfig metadata, int[] chunkShape, List<Codec> codecs, List<Codec> indexCodecs,
      IndexLocation indexLocation, CodecContext context) {
    this.metadata = metadata;
    this.chunkShape = chunkShape.clone();
    this.codecs = List.copyOf(codecs);
    this.indexCodecs = List.copyOf(indexCodecs);
    this.indexLocation = indexLocation;
    this.context = context;
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  public int[] chunkShape() {
    return chunkShape.clone();
  }

  public IndexLocation indexLocation() {
    return indexLocation;
  }

  private ShardLayout layout(ChunkSpec spec) {
    ShardLayout l = layout;
    if (l == null || !l.shard.equals(spec)) {
      l = ShardLayout.of(spec, chunkShape, codecs, indexCodecs, indexLocation, context);
      layout = l;
    }
    return l;
  }

  @Override
  public void validate(ChunkSpec spec) {
    layout(spec);
  }

  /** The inner and index codecs bound to their specs, so that the metadata carries what binding filled in. */
  @Override
  public ShardingCodec bind(ChunkSpec spec) {
    ShardLayout l = layout(spec);
    if (same(l.inner.codecs(), codecs) && same(l.index.codecs(), indexCodecs)) {
      return this;
    }
    ObjectNode config = metadata.config().deepCopy();
    config.set("codecs", json(l.inner.metadata(Factory.codecList(config.get("codecs"), "codecs"))));
    config.set("index_codecs", json(l.index.metadata(Factory.codecList(config.get("index_codecs"), "index_codecs"))));
    return new ShardingCodec(metadata.withConfiguration(config), chunkShape, l.inner.codecs(), l.index.codecs(),
        indexLocation, context);
  }

  private static ArrayNode json(List<NamedConfig> codecs) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    codecs.forEach(c -> out.add(c.toJson()));
    return out;
  }

  private static boolean same(List<Codec> a, List<Codec> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  private Executor executor(ShardLayout l, int tasks) {
    return tasks > 1 && l.innerWorthParallel ? context.executor() : Runnable::run;
  }

  private static <T> T inInner(ShardLayout l, int i, Supplier<T> work) {
    try {
      return work.get();
    } catch (ZarrException e) {
      throw e.withContext(l.name(i));
    }
  }

  // ---- reading ----

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    return decodeRegion(new BufferSource(bytes), spec, Box.of(spec.shape()), allocator);
  }

  /** The inner chunks: each is read with its own range request. */
  @Override
  public int[] partShape(ChunkSpec spec) {
    return chunkShape.clone();
  }

  /** The index, unless the region covers the shard (then the whole shard is read with one request). */
  @Override
  public Optional<ByteRange> firstRead(ChunkSpec spec, Box region) {
    if (region.covers(spec.shape())) {
      return Optional.empty();
    }
    ShardLayout l = layout(spec);
    return Optional.of(l.indexAtEnd ? ByteRange.suffix(l.indexSize) : ByteRange.of(0, l.indexSize));
  }

  @Override
  public FieldVector decodeRegion(ByteSource shard, ChunkSpec spec, Box region, BufferAllocator allocator) {
    ShardLayout l = layout(spec);
    List<ShardLayout.Part> parts = l.parts(region);
    DataType type = spec.dataType();
    if (parts.isEmpty()) {
      return type.filled(allocator, 0, spec.fillValue());
    }
    // The whole shard is wanted: one request for everything instead of the index, then the chunks.
    ByteSource source = region.covers(spec.shape()) && !(shard instanceof BufferSource) ? new BufferSource(shard.readAll()) : shard;
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "sharding_indexed decode")) {
      ShardIndex index = ShardIndex.read(source, l, temp);
      if (parts.size() == 1) {
        // The region lies in one inner chunk: its decoding is the answer, no copy.
        ShardLayout.Part p = parts.get(0);
        if (index.isEmpty(p.index())) {
          return type.filled(allocator, Math.toIntExact(p.inChunk().size()), spec.fillValue());
        }
        ByteSource inner = source.slice(index.offset(p.index()), index.nbytes(p.index()));
        return inInner(l, p.index(), () -> l.inner.decodeRegion(inner, p.inChunk(), allocator));
      }
      long[] shape = region.shape();
      Optional<FieldVector> flat = type instanceof FixedWidthType fixed
          ? fixed.allocateUnset(Math.toIntExact(region.size()), allocator, null) : Optional.empty();
      if (flat.isPresent()) {
        FieldVector out = flat.get();
        try {
          // The parts tile the region: each present one decoded into its place, the empty ones filled.
          List<ShardLayout.Part> present = parts.stream().filter(p -> !index.isEmpty(p.index())).toList();
          long[] origin = new long[shape.length];
          decodeInto(l, present, inputs(source, l, index, present, null), out, shape, origin, temp);
          fillEmpty(parts, index, out, shape, origin, spec);
          return out;
        } catch (RuntimeException e) {
          out.close();
          throw e;
        }
      }
      try (DecodedPieces pieces = decodeParts(l, parts, index, source, spec, temp)) {
        // The data type's field: Arrow Java's getField() misreports sparse union type ids.
        return Regions.assemble(spec.dataType().field(pieces.pieces().get(0).vector().getField().getName()), shape,
            pieces.pieces(), allocator);
      }
    }
  }

  /**
   * Each inner chunk {@code region} touches decoded straight into its place in {@code out} (see {@link
   * CodecPipeline#decodeInto}: a whole inner chunk of the raw layout whose place is contiguous is
   * decompressed there, no buffer of its own, no copy), in parallel; empty ones written as the fill
   * value. A shard read whole is read into memory {@code scratch} lends, when not null.
   */
  @Override
  public void decodeInto(ByteSource shard, ChunkSpec spec, Box region, FieldVector out, long[] outShape, long[] outStart,
      BufferAllocator allocator, ScratchBuffers scratch) {
    ShardLayout l = layout(spec);
    List<ShardLayout.Part> parts = l.parts(region);
    boolean whole = region.covers(spec.shape()) && !(shard instanceof BufferSource);
    try (ScratchBuffers.Loan loan = scratch == null ? null : scratch.loan();
        BufferAllocator temp = Buffers.temporaryAllocator(allocator, "sharding_indexed decode")) {
      ByteSource source = !whole ? shard : new BufferSource(loan == null ? shard.readAll() : shard.readAll(loan));
      ShardIndex index = ShardIndex.read(source, l, temp);
      List<ShardLayout.Part> present = parts.stream().filter(p -> !index.isEmpty(p.index())).toList();
      decodeInto(l, present, inputs(source, l, index, present, whole ? null : loan), out, outShape, outStart, temp);
      fillEmpty(parts, index, out, outShape, outStart, spec);
    }
  }

  /** The places in {@code out} of the {@code parts} whose inner chunks are not stored, written as the fill value. */
  private static void fillEmpty(List<ShardLayout.Part> parts, ShardIndex index, FieldVector out, long[] outShape, long[] outStart,
      ChunkSpec spec) {
    for (ShardLayout.Part p : parts) {
      if (index.isEmpty(p.index())) {
        Regions.fill(out, outShape, new Box(plus(outStart, p.target()), p.inChunk().shape()), spec.fillValue().bytes());
      }
    }
  }

  /** Each of the {@code present} parts decoded from its input straight into its place in {@code out}, in parallel. */
  private void decodeInto(ShardLayout l, List<ShardLayout.Part> present, List<ByteSource> inputs, FieldVector out, long[] outShape,
      long[] outStart, BufferAllocator temp) {
    WorkSharing.forEachIndex(present.size(), k -> {
      ShardLayout.Part p = present.get(k);
      inInner(l, p.index(), () -> {
        l.inner.decodeInto(inputs.get(k), p.inChunk(), out, outShape, plus(outStart, p.target()), temp);
        return null;
      });
    }, executor(l, present.size()));
  }

  private static long[] plus(long[] a, long[] b) {
    long[] sum = new long[a.length];
    for (int d = 0; d < a.length; d++) {
      sum[d] = a[d] + b[d];
    }
    return sum;
  }

  /**
   * The inner chunks {@code region} touches, decoded in parallel on the context's executor and left
   * unassembled, so that a read of many shards copies each element into its result once.
   */
  @Override
  public DecodedPieces decodePieces(ByteSource shard, ChunkSpec spec, Box region, BufferAllocator allocator) {
    ShardLayout l = layout(spec);
    List<ShardLayout.Part> parts = l.parts(region);
    if (parts.size() < 2) {
      return DecodedPieces.whole(decodeRegion(shard, spec, region, allocator), region.shape());
    }
    ByteSource source = region.covers(spec.shape()) && !(shard instanceof BufferSource) ? new BufferSource(shard.readAll()) : shard;
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "sharding_indexed decode")) {
      return decodeParts(l, parts, ShardIndex.read(source, l, temp), source, spec, allocator);
    }
  }

  /** Every part decoded (empty inner chunks as the fill value) into {@code allocator}, in parallel. */
  private DecodedPieces decodeParts(
      ShardLayout l, List<ShardLayout.Part> parts, ShardIndex index, ByteSource source, ChunkSpec spec, BufferAllocator allocator) {
    List<ShardLayout.Part> present = parts.stream().filter(p -> !index.isEmpty(p.index())).toList();
    List<ByteSource> inputs = inputs(source, l, index, present, null);
    int[] input = new int[l.count]; // inner chunk -> its place in present (and inputs)
    for (int k = 0; k < present.size(); k++) {
      input[present.get(k).index()] = k;
    }
    List<FieldVector> decoded = WorkSharing.map(parts, p -> {
      if (index.isEmpty(p.index())) {
        return spec.dataType().filled(allocator, Math.toIntExact(p.inChunk().size()), spec.fillValue());
      }
      ByteSource in = inputs.get(input[p.index()]);
      return inInner(l, p.index(), () -> l.inner.decodeRegion(in, p.inChunk(), allocator));
    }, executor(l, present.size()));
    List<Regions.Piece> placed = new ArrayList<>(parts.size());
    for (int k = 0; k < parts.size(); k++) {
      ShardLayout.Part p = parts.get(k);
      placed.add(new Regions.Piece(decoded.get(k), p.inChunk().shape(), Box.of(p.inChunk().shape()), p.target()));
    }
    return new DecodedPieces(placed);
  }

  /**
   * What each present part decodes from: lazy slices when the inner chunks are shards (they read only
   * what they need), else their bytes, fetched together so that adjacent ranges cost one request. With
   * a {@code loan} (may be null), inner chunks stored next to one another (as a writer lays out a shard)
   * are read as one span into the memory it lends, so that a task reading shard after shard in parts
   * touches no fresh pages for their bytes.
   */
  private static List<ByteSource> inputs(ByteSource source, ShardLayout l, ShardIndex index, List<ShardLayout.Part> present,
      ScratchBuffers.Loan loan) {
    if (l.innerReadsPartially) {
      return present.stream().map(p -> source.slice(index.offset(p.index()), index.nbytes(p.index()))).toList();
    }
    if (loan != null && !present.isEmpty()) {
      long first = present.stream().mapToLong(p -> index.offset(p.index())).min().getAsLong();
      long end = present.stream().mapToLong(p -> index.offset(p.index()) + index.nbytes(p.index())).max().getAsLong();
      long bytes = present.stream().mapToLong(p -> index.nbytes(p.index())).sum();
      if (end - first <= Integer.MAX_VALUE && end - first <= bytes + bytes / 8) { // gaps of an eighth at most read along
        ByteBuffer span = source.read(ByteRange.of(first, end - first), loan);
        return present.stream().<ByteSource>map(p -> new BufferSource(
            span.slice((int) (index.offset(p.index()) - first), (int) index.nbytes(p.index())))).toList();
      }
    }
    List<ByteRange> ranges = present.stream().map(p -> ByteRange.of(index.offset(p.index()), index.nbytes(p.index()))).toList();
    return source.readAll(ranges).stream().<ByteSource>map(BufferSource::new).toList();
  }

  // ---- writing ----

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    ShardLayout l = layout(spec);
    if (chunk.getValueCount() != spec.size()) {
      throw new IllegalArgumentException("codec sharding_indexed: a " + spec + " needs " + spec.size() + " elements, got " + chunk.getValueCount());
    }
    long[] shardShape = Regions.toLong(spec.shape());
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "sharding_indexed encode")) {
      List<ByteBuffer> encoded = WorkSharing.map(IntStream.range(0, l.count).boxed().toList(), i -> inInner(l, i, () -> {
        Box box = l.box(i);
        if (box.covers(spec.shape())) {
          return encodeWhole(l, chunk, temp);
        }
        try (FieldVector part = Regions.extract(chunk, spec.dataType().field(chunk.getField().getName()), shardShape, box, temp)) {
          return encodeWhole(l, part, temp);
        }
      }), executor(l, l.count));
      return assemble(l, encoded.toArray(ByteBuffer[]::new), temp);
    }
  }

  /** The stored bytes of a whole inner chunk in memory of their own, or null when it is all fill value. */
  private static ByteBuffer encodeWhole(ShardLayout l, FieldVector values, BufferAllocator temp) {
    ChunkSpec spec = l.shard;
    if (spec.dataType().isAllFill(values, spec.fillValue())) {
      return null;
    }
    ByteBuffer bytes = l.inner.encode(values, temp);
    // Without bytes->bytes codecs the encoding may view the vector, which is closed before the shard is built.
    return l.inner.bytesCodecs().isEmpty() ? copy(bytes) : bytes;
  }

  @Override
  public Optional<ByteBuffer> encodeRegion(
      Optional<ByteSource> existing, ChunkSpec spec, Box region, FieldVector data, BufferAllocator allocator) {
    ShardLayout l = layout(spec);
    List<ShardLayout.Part> parts = l.parts(region);
    if (data.getValueCount() != region.size()) {
      throw new IllegalArgumentException("codec sharding_indexed: region " + region + " has " + region.size()
          + " elements, the data " + data.getValueCount());
    }
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "sharding_indexed encodeRegion")) {
      // The whole shard is rewritten, so it is read whole: one request, and its untouched inner chunks
      // are copied as they are stored.
      BufferSource old = existing.map(s -> new BufferSource(s.readAll())).orElse(null);
      ShardIndex index = old == null ? ShardIndex.empty(l.count) : ShardIndex.read(old, l, temp);
      ByteBuffer[] chunks = new ByteBuffer[l.count];
      for (int i = 0; i < l.count; i++) {
        if (!index.isEmpty(i)) {
          chunks[i] = old.read(ByteRange.of(index.offset(i), index.nbytes(i)));
        }
      }
      List<ByteBuffer> updated = WorkSharing.map(parts, p -> inInner(l, p.index(), () -> {
        if (parts.size() == 1) {
          return updateInner(l, p, data, old, index, temp);
        }
        try (FieldVector values = Regions.extract(data, spec.dataType().field(data.getField().getName()), region.shape(), p.inRegion(), temp)) {
          return updateInner(l, p, values, old, index, temp);
        }
      }), executor(l, parts.size()));
      for (int k = 0; k < parts.size(); k++) {
        chunks[parts.get(k).index()] = updated.get(k);
      }
      if (Arrays.stream(chunks).allMatch(c -> c == null)) {
        return Optional.empty();
      }
      return Optional.of(assemble(l, chunks, temp));
    }
  }

  /** The new stored bytes of one touched inner chunk, or null when it is now all fill value. */
  private static ByteBuffer updateInner(
      ShardLayout l, ShardLayout.Part p, FieldVector values, ByteSource old, ShardIndex index, BufferAllocator temp) {
    if (p.inChunk().covers(l.innerShape)) {
      return encodeWhole(l, values, temp);
    }
    // Read-only, so that decoding does not wrap (and overlaying then change) bytes that another index
    // entry may share.
    Optional<ByteSource> previous = index.isEmpty(p.index())
        ? Optional.empty()
        : Optional.of(ByteSource.of(old.read(ByteRange.of(index.offset(p.index()), index.nbytes(p.index())))));
    return l.inner.encodeRegion(previous, p.inChunk(), values, temp).orElse(null);
  }

  /** The shard: the present inner chunks in C order, no gaps, and the full index before or after them. */
  private static ByteBuffer assemble(ShardLayout l, ByteBuffer[] chunks, BufferAllocator temp) {
    long total = l.indexSize;
    for (ByteBuffer c : chunks) {
      total += c == null ? 0 : c.remaining();
    }
    if (total > Integer.MAX_VALUE - 64) {
      throw new CodecException("codec sharding_indexed: a shard of " + total + " bytes does not fit one buffer; use smaller shards");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) total);
    ShardIndex index = ShardIndex.empty(l.count);
    int position = l.indexAtEnd ? 0 : (int) l.indexSize;
    for (int i = 0; i < chunks.length; i++) {
      ByteBuffer c = chunks[i];
      if (c != null) {
        index.set(i, position, c.remaining());
        out.put(position, c, c.position(), c.remaining());
        position += c.remaining();
      }
    }
    index.write(l, out, l.indexAtEnd ? position : 0, temp);
    return out;
  }

  private static ByteBuffer copy(ByteBuffer bytes) {
    ByteBuffer out = ByteBuffer.allocateDirect(bytes.remaining());
    out.put(bytes.duplicate()).flip();
    return out;
  }

  @Override
  public String toString() {
    return NAME + "(" + Arrays.toString(chunkShape) + ", " + codecs + ", index " + indexCodecs + " at " + indexLocation.json() + ")";
  }

  /** Makes {@code sharding_indexed} codecs; inner and index codecs come from the same context. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public ShardingCodec create(NamedConfig metadata, CodecContext context) {
      ObjectNode config = metadata.config();
      for (Iterator<String> it = config.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!List.of("chunk_shape", "codecs", "index_codecs", "index_location").contains(key)) {
          throw new MetadataException("/configuration/" + key + ": unknown option of codec " + NAME);
        }
      }
      int[] chunkShape = chunkShape(config.get("chunk_shape"));
      List<Codec> codecs = context.codecs(codecList(config.get("codecs"), "codecs"));
      List<Codec> indexCodecs = context.codecs(codecList(config.get("index_codecs"), "index_codecs"));
      JsonNode location = config.get("index_location");
      IndexLocation where;
      if (location == null) {
        where = IndexLocation.END;
      } else if (location.isTextual() && location.textValue().equals("start")) {
        where = IndexLocation.START;
      } else if (location.isTextual() && location.textValue().equals("end")) {
        where = IndexLocation.END;
      } else {
        throw new MetadataException("/configuration/index_location: must be \"start\" or \"end\", got " + location);
      }
      return new ShardingCodec(metadata, chunkShape, codecs, indexCodecs, where, context);
    }

    private static int[] chunkShape(JsonNode node) {
      if (node == null || !node.isArray()) {
        throw new MetadataException("/configuration/chunk_shape: codec " + NAME + " needs an array of inner chunk sizes");
      }
      int[] out = new int[node.size()];
      for (int d = 0; d < out.length; d++) {
        JsonNode n = node.get(d);
        if (!n.isInt() || n.intValue() < 1) {
          throw new MetadataException("/configuration/chunk_shape/" + d + ": expected a positive integer, got " + n);
        }
        out[d] = n.intValue();
      }
      return out;
    }

    static List<NamedConfig> codecList(JsonNode node, String member) {
      if (node == null || !node.isArray()) {
        throw new MetadataException("/configuration/" + member + ": codec " + NAME + " needs an array of codecs");
      }
      List<NamedConfig> out = new ArrayList<>();
      for (int i = 0; i < node.size(); i++) {
        out.add(NamedConfig.parse(node.get(i), "/configuration/" + member + "/" + i));
      }
      return out;
    }
  }
}
