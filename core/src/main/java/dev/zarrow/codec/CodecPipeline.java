package dev.zarrow.codec;

import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.vector.Regions;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A validated codec chain ({@code array->array* array->bytes bytes->bytes*}) bound to one chunk spec:
 * shapes, data types and size bounds are worked out once here, so encoding and decoding only run codecs.
 * Immutable and thread-safe.
 */
public final class CodecPipeline {
  private final List<ArrayToArrayCodec> arrayCodecs;
  private final List<ChunkSpec> arraySpecs; // arraySpecs.get(i) is the input (decoded) spec of arrayCodecs.get(i)
  private final ArrayToBytesCodec serializer;
  private final ChunkSpec serializerSpec;
  private final List<BytesToBytesCodec> bytesCodecs;
  private final long[] decodedSizes; // decodedSizes[i]: exact output size of decoding bytesCodecs.get(i), or -1
  private final long encodedSize;
  private final long maxStoredSize; // the most bytes a stored chunk may take, or -1 when the chain does not bound it
  private final boolean rawLayout; // the bytes->bytes codecs' output is the chunk's Arrow data buffer
  private final ChunkSpec spec;
  private final CodecOptions options;
  private final List<Codec> declared; // the chain as given
  private final List<Codec> bound; // the chain bound to the spec (see BytesToBytesCodec.bind), same order

  private CodecPipeline(List<Codec> codecs, ChunkSpec spec, CodecContext context) {
    this.spec = spec;
    this.options = context.options();
    Optional<NamedConfig> implicit = spec.dataType().implicitSerializer();
    List<ArrayToArrayCodec> a2a = new ArrayList<>();
    List<ChunkSpec> specs = new ArrayList<>();
    ArrayToBytesCodec a2b = null;
    List<BytesToBytesCodec> b2b = new ArrayList<>();
    ChunkSpec current = spec;
    List<Codec> chain = new ArrayList<>();
    for (Codec codec : codecs) {
      if (codec instanceof ArrayToArrayCodec c) {
        if (a2b != null) {
          throw new CodecException("codec " + c.name() + " (array->array) must come before the array->bytes codec " + a2b.name());
        }
        specs.add(current);
        current = c.encodedSpec(current);
        a2a.add(c);
        chain.add(c);
      } else if (codec instanceof ArrayToBytesCodec c) {
        if (a2b != null) {
          throw new CodecException("two array->bytes codecs: " + a2b.name() + " and " + c.name());
        }
        a2b = c.bind(current);
        chain.add(a2b);
      } else {
        BytesToBytesCodec c = (BytesToBytesCodec) codec;
        if (a2b == null) {
          if (implicit.isEmpty()) {
            throw new CodecException("codec " + c.name() + " (bytes->bytes) comes before any array->bytes codec");
          }
          a2b = implicitSerializer(implicit.get(), context);
        }
        BytesToBytesCodec b = c.bind(current);
        b2b.add(b);
        chain.add(b);
      }
    }
    if (a2b == null) {
      a2b = implicitSerializer(implicit.orElseThrow(() -> new CodecException(
          "the codecs name no array->bytes codec (such as bytes), and data type "
              + spec.dataType().name() + " implies none")), context);
    }
    a2b.validate(current);
    this.arrayCodecs = List.copyOf(a2a);
    this.arraySpecs = List.copyOf(specs);
    this.serializer = a2b;
    this.serializerSpec = current;
    this.bytesCodecs = List.copyOf(b2b);
    this.decodedSizes = new long[b2b.size()];
    OptionalLong size = a2b.encodedSize(current);
    for (int i = 0; i < b2b.size(); i++) {
      decodedSizes[i] = size.orElse(-1);
      size = size.isPresent() ? b2b.get(i).encodedSize(size.getAsLong()) : OptionalLong.empty();
    }
    this.encodedSize = size.orElse(-1);
    // Unbounded serialized bytes (variable-length data) are capped at maxChunkBytes as the bytes codecs
    // decode them, so what those codecs bound from there bounds the stored chunk too.
    OptionalLong serialized = a2b.maxEncodedSize(current);
    OptionalLong max = serialized.isEmpty() && !b2b.isEmpty() ? OptionalLong.of(options.maxChunkBytes()) : serialized;
    for (BytesToBytesCodec b : b2b) {
      max = max.isPresent() ? b.maxEncodedSize(max.getAsLong()) : OptionalLong.empty();
    }
    this.maxStoredSize = max.orElse(-1);
    this.rawLayout = a2a.isEmpty() && a2b.isArrowLayout(current);
    this.declared = List.copyOf(codecs);
    this.bound = List.copyOf(chain);
  }

  /**
   * Binds {@code codecs} to {@code spec}, decoding with {@code context}'s options. When the chain has no
   * array->bytes codec, the serializer the data type implies (ZEP7) comes from {@code context}'s
   * registry. A chain in the wrong order, or one that cannot handle the spec, is a {@link CodecException}.
   */
  public static CodecPipeline of(List<Codec> codecs, ChunkSpec spec, CodecContext context) {
    return new CodecPipeline(codecs, spec, context);
  }

  private static ArrayToBytesCodec implicitSerializer(NamedConfig metadata, CodecContext context) {
    if (context.codec(metadata) instanceof ArrayToBytesCodec serializer) {
      return serializer;
    }
    throw new CodecException("the implied serializer " + metadata.name() + " is not an array->bytes codec");
  }

  public ChunkSpec spec() {
    return spec;
  }

  public ArrayToBytesCodec serializer() {
    return serializer;
  }

  public List<ArrayToArrayCodec> arrayCodecs() {
    return arrayCodecs;
  }

  public List<BytesToBytesCodec> bytesCodecs() {
    return bytesCodecs;
  }

  /** The chain as bound to the spec (without an implicit serializer): what encodes and decodes. */
  public List<Codec> codecs() {
    return bound;
  }

  /**
   * The {@code codecs} metadata of the bound chain: {@code metadata} (the entries the chain was made from,
   * in order) with the entries of codecs that binding completed replaced; {@code metadata} itself when
   * binding changed nothing.
   */
  public List<NamedConfig> metadata(List<NamedConfig> metadata) {
    if (metadata.size() != bound.size()) {
      throw new IllegalArgumentException(metadata.size() + " codec entries for a chain of " + bound.size());
    }
    List<NamedConfig> out = new ArrayList<>(metadata);
    boolean changed = false;
    for (int i = 0; i < bound.size(); i++) {
      if (bound.get(i) != declared.get(i)) {
        out.set(i, bound.get(i).toMetadata());
        changed = true;
      }
    }
    return changed ? List.copyOf(out) : metadata;
  }

  /** The size of every encoded chunk when it is fixed (no compression, fixed-size type), else empty. */
  public OptionalLong encodedSize() {
    return encodedSize < 0 ? OptionalLong.empty() : OptionalLong.of(encodedSize);
  }

  /**
   * The most bytes a stored chunk may take (its exact size when fixed; a compressor's worst case), when
   * the codecs bound it, else empty.
   */
  public OptionalLong maxStoredSize() {
    return maxStoredSize < 0 ? OptionalLong.empty() : OptionalLong.of(maxStoredSize);
  }

  /**
   * Refuses a stored chunk larger than any chunk of this spec can be, from its size alone: before it is
   * read, so that a store that learns a value's size before reading it (a zip entry's declared size, an
   * HTTP answer's length) allocates nothing for one that lies.
   */
  private void checkStoredSize(ByteSource source) {
    if (maxStoredSize >= 0 && source.size() > maxStoredSize) {
      throw new CorruptChunkException("the stored chunk is " + source.size() + " bytes, more than a " + spec + " can take ("
          + maxStoredSize + (encodedSize == maxStoredSize ? "" : " at most") + ")");
    }
  }

  /** True when only the serializer runs, so it sees the stored bytes (and can read parts of them). */
  private boolean serializerOnly() {
    return arrayCodecs.isEmpty() && bytesCodecs.isEmpty();
  }

  /**
   * The stored bytes of {@code chunk} (borrowed; {@code spec().size()} elements in C order), with
   * temporaries beside the chunk's own memory: {@link #encode(FieldVector, BufferAllocator)}. A vector
   * without an allocator (Arrow Java's {@code NullVector}) is an {@link IllegalArgumentException}: pass one.
   */
  public ByteBuffer encode(FieldVector chunk) {
    return encode(chunk, Buffers.allocatorOf(chunk, "encoding a " + spec));
  }

  /**
   * The stored bytes of {@code chunk} (borrowed; {@code spec().size()} elements in C order). The result
   * is memory of its own or a read-only view of the chunk's memory (valid while the chunk stays open
   * and unchanged), never writable memory of the caller's. Temporaries (the outputs of array->array
   * codecs, a shard's inner chunks) live in a child of {@code allocator} closed before returning. A
   * chunk of the wrong length is an {@link IllegalArgumentException}.
   */
  public ByteBuffer encode(FieldVector chunk, BufferAllocator allocator) {
    if (chunk.getValueCount() != spec.size()) {
      throw new IllegalArgumentException("a " + spec + " needs " + spec.size() + " elements, got " + chunk.getValueCount());
    }
    // The array->array codecs' outputs are the pipeline's temporaries; a serializer names its own.
    try (BufferAllocator temp = arrayCodecs.isEmpty() ? null : Buffers.temporaryAllocator(allocator, "CodecPipeline.encode")) {
      FieldVector current = chunk;
      try {
        for (int i = 0; i < arrayCodecs.size(); i++) {
          FieldVector next = arrayCodecs.get(i).encode(current, arraySpecs.get(i), temp);
          if (current != chunk) {
            current.close();
          }
          current = next;
        }
        ByteBuffer bytes = serializer.encode(current, serializerSpec, allocator);
        if (bytesCodecs.isEmpty() && current != chunk) {
          bytes = copy(bytes); // it may view an intermediate vector that is about to be closed
        }
        for (BytesToBytesCodec codec : bytesCodecs) {
          bytes = codec.encode(bytes);
        }
        return bytes;
      } finally {
        if (current != chunk) {
          current.close();
        }
      }
    }
  }

  /**
   * Decodes the stored chunk in {@code source} into a chunk of {@code spec().size()} elements owned by the
   * caller; a source larger than any chunk of the spec is refused before it is read.
   */
  public FieldVector decode(ByteSource source, BufferAllocator allocator) {
    checkStoredSize(source);
    return withStored(source, allocator, bytes -> decode(bytes, allocator));
  }

  /**
   * {@code decode} applied to the whole stored value of {@code source}. When no decoded chunk can keep
   * the stored bytes (the first bytes codec decompresses into memory of the chunk's own, see {@link
   * #decodeRaw}), a file's bytes are read into a temporary of {@code allocator}'s, freed as soon as
   * {@code decode} returns: not into a direct buffer that only a GC frees, which a small heap rarely
   * runs, so that a stream of chunks would hold the stored bytes of every chunk read since the last GC.
   * Otherwise the bytes are read into memory of their own, which the decoded chunk may wrap.
   */
  private <T> T withStored(ByteSource source, BufferAllocator allocator, Function<ByteBuffer, T> decode) {
    return withStored(source, allocator, storedIsConsumed(), decode);
  }

  /**
   * Whether nothing a decode returns keeps the stored bytes: the first bytes codec decodes straight
   * into the chunk's memory ({@link #decodeRaw}), or another codec on the way never returns its input.
   */
  private boolean storedIsConsumed() {
    if (rawLayout && !bytesCodecs.isEmpty() && decodedSizes[0] > 0) {
      return true;
    }
    for (BytesToBytesCodec codec : bytesCodecs) {
      if (codec.decodesToNewMemory()) {
        return true;
      }
    }
    return false;
  }

  /** As {@link #withStored(ByteSource, BufferAllocator, java.util.function.Function)}; {@code consumed}: nothing {@code decode} returns keeps the stored bytes. */
  private <T> T withStored(
      ByteSource source, BufferAllocator allocator, boolean consumed, Function<ByteBuffer, T> decode) {
    if (!consumed) {
      return decode.apply(source.readAll());
    }
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "CodecPipeline: stored bytes")) {
      ArrowBuf[] lent = new ArrowBuf[1];
      try {
        ByteBuffer stored = source.readAll(size -> {
          lent[0] = Buffers.allocateUninitialized(temp, size);
          return Buffers.view(lent[0], 0, size);
        });
        return decode.apply(stored);
      } finally {
        if (lent[0] != null) {
          lent[0].close();
        }
      }
    }
  }

  /** Decodes stored bytes into a chunk of {@code spec().size()} elements owned by the caller. */
  public FieldVector decode(ByteBuffer stored, BufferAllocator allocator) {
    if (rawLayout && !bytesCodecs.isEmpty() && decodedSizes[0] > 0) {
      return decodeRaw(stored, allocator);
    }
    return decodeBuffered(stored, allocator);
  }

  /**
   * Decodes through each codec's own output buffer; the first bytes codec, when it knows its output's
   * size from its input ({@link BytesToBytesCodec#decodedSize}) or is a decompressor ({@link
   * BytesToBytesCodec#decodesToNewMemory}) whose output size the spec fixes, into Arrow memory of {@code allocator}
   * that the serializer reads (and its vectors may keep): memory freed when the chunk is closed and
   * taken again from the allocator, not a fresh buffer per chunk that only a GC frees (on a machine
   * where the first touch of a page is dear, that was most of a stream's page faults).
   */
  private FieldVector decodeBuffered(ByteBuffer stored, BufferAllocator allocator) {
    ByteBuffer bytes = stored;
    for (int i = bytesCodecs.size() - 1; i >= 1; i--) {
      bytes = decodeBytes(i, bytes);
    }
    FieldVector current;
    if (bytesCodecs.isEmpty()) {
      current = serializer.decode(bytes, serializerSpec, allocator);
    } else {
      BytesToBytesCodec first = bytesCodecs.get(0);
      OptionalLong declared = first.decodedSize(bytes);
      // A decompressor whose output size the chunk's spec fixes decodes into Arrow memory as well.
      long n = declared.isPresent() ? declared.getAsLong() : first.decodesToNewMemory() ? decodedSizes[0] : -1;
      if (n >= 0 && n <= options.maxChunkBytes() && (decodedSizes[0] < 0 || decodedSizes[0] == n)) {
        try (ArrowBuf data = Buffers.allocateUninitialized(allocator, n)) {
          first.decodeInto(bytes, Buffers.view(data, 0, n));
          current = serializer.decode(data, n, serializerSpec, allocator);
        }
      } else {
        current = serializer.decode(decodeBytes(0, bytes), serializerSpec, allocator);
      }
    }
    try {
      checkCount(current, serializerSpec);
      for (int i = arrayCodecs.size() - 1; i >= 0; i--) {
        FieldVector next = arrayCodecs.get(i).decode(current, arraySpecs.get(i), allocator);
        current.close();
        current = next;
        checkCount(current, arraySpecs.get(i));
      }
      return current;
    } catch (RuntimeException e) {
      current.close();
      throw e;
    }
  }

  /**
   * A chunk whose decoded bytes are its Arrow data buffer: the first bytes codec decodes straight into
   * the new vector's memory (unzeroed, as it is overwritten whole), no intermediate buffer and no copy.
   */
  private FieldVector decodeRaw(ByteBuffer stored, BufferAllocator allocator) {
    ByteBuffer bytes = stored;
    for (int i = bytesCodecs.size() - 1; i >= 1; i--) {
      bytes = decodeBytes(i, bytes);
    }
    long size = decodedSizes[0];
    if (size > options.maxChunkBytes()) {
      throw new CodecException("a " + spec + " needs " + size + " bytes after codec " + bytesCodecs.get(0).name()
          + ", more than the limit of " + options.maxChunkBytes());
    }
    try (ArrowBuf data = Buffers.allocateUninitialized(allocator, size)) {
      bytesCodecs.get(0).decodeInto(bytes, Buffers.view(data, 0, size));
      return ((FixedWidthType) serializerSpec.dataType()).fromBytes(data, spec.size(), allocator);
    }
  }

  /**
   * The shape of the parts of a chunk that a region read reads alone (a shard's inner chunks, when
   * sharding is the only codec), else the chunk's shape: see {@link ArrayToBytesCodec#partShape}.
   */
  public int[] partShape() {
    return serializerOnly() ? serializer.partShape(spec) : spec.shape();
  }

  /**
   * What a read of {@code region} (relative to the chunk) reads first from the stored chunk, for
   * {@link dev.zarrow.store.Store#source(String, ByteRange)}; empty when it reads the whole chunk.
   */
  public Optional<ByteRange> firstRead(Box region) {
    return serializerOnly() ? serializer.firstRead(spec, region) : Optional.empty();
  }

  /** The elements of {@code region} (relative to the chunk) in C order; reads only what it needs where it can. */
  public FieldVector decodeRegion(ByteSource source, Box region, BufferAllocator allocator) {
    checkStoredSize(source);
    if (serializerOnly()) {
      FieldVector out = serializer.decodeRegion(source, spec, region, allocator);
      if (out.getValueCount() != region.size()) {
        int n = out.getValueCount();
        out.close();
        throw new CorruptChunkException("decoded " + n + " elements for a region of " + region.size());
      }
      return out;
    }
    FieldVector chunk = withStored(source, allocator, bytes -> decode(bytes, allocator));
    return PartialCoding.region(chunk, spec, region, allocator);
  }

  /**
   * The elements of {@code region} (relative to the chunk) as pieces that tile it, owned by the caller
   * (see {@link ArrayToBytesCodec#decodePieces}): a shard's inner chunks unassembled, else one piece.
   */
  public DecodedPieces decodePieces(ByteSource source, Box region, BufferAllocator allocator) {
    checkStoredSize(source);
    if (!serializerOnly()) {
      return DecodedPieces.whole(decodeRegion(source, region, allocator), region.shape());
    }
    DecodedPieces out = serializer.decodePieces(source, spec, region, allocator);
    if (out.size() != region.size()) {
      long n = out.size();
      out.close();
      throw new CorruptChunkException("decoded " + n + " elements for a region of " + region.size());
    }
    return out;
  }

  /**
   * Decodes {@code stored} as {@link #decode} does, with every check it makes, and frees the result: a
   * chunk verified. A shard's inner chunks are decoded (in parallel) but never assembled into one vector.
   */
  public void verify(ByteBuffer stored, BufferAllocator allocator) {
    // As decode: writable bytes are the caller's own and may be wrapped, read-only ones are copied from.
    verify(stored.isReadOnly() ? ByteSource.of(stored) : ByteSource.owned(stored), allocator);
  }

  /** {@link #verify(ByteBuffer, BufferAllocator)} of the chunk in {@code source}, refused from its size first. */
  public void verify(ByteSource source, BufferAllocator allocator) {
    checkStoredSize(source);
    if (!serializerOnly()) {
      withStored(source, allocator, bytes -> decode(bytes, allocator)).close();
      return;
    }
    decodePieces(source, Box.of(spec.shape()), allocator).close();
  }

  /**
   * As {@link #verify(ByteSource, BufferAllocator)}, with working memory lent by {@code scratch}: a chunk
   * whose decoded bytes are its Arrow data (as for {@link #decodeInto}) is read into a lent buffer and
   * verified by the first bytes codec into another ({@link BytesToBytesCodec#verifyInto}), so that
   * checking N chunks on T threads touches about T chunks' worth of fresh memory, or less, instead of N.
   */
  public void verify(ByteSource source, BufferAllocator allocator, ScratchBuffers scratch) {
    if (!(rawLayout && !bytesCodecs.isEmpty() && decodedSizes[0] > 0)) {
      verify(source, allocator);
      return;
    }
    checkStoredSize(source);
    long size = decodedSizes[0];
    if (size > options.maxChunkBytes()) {
      throw new CodecException("a " + spec + " needs " + size + " bytes after codec " + bytesCodecs.get(0).name()
          + ", more than the limit of " + options.maxChunkBytes());
    }
    try (ScratchBuffers.Loan stored = scratch.loan(); ScratchBuffers.Loan decoded = scratch.loan()) {
      ByteBuffer bytes = source.readAll(stored);
      for (int i = bytesCodecs.size() - 1; i >= 1; i--) {
        bytes = decodeBytes(i, bytes);
      }
      bytesCodecs.get(0).verifyInto(bytes, decoded.apply(size));
    }
  }

  /**
   * The new stored bytes of a chunk whose {@code region} is replaced by {@code data} (borrowed), the
   * rest kept from {@code existing}; empty when the whole chunk now equals the fill value.
   */
  public Optional<ByteBuffer> encodeRegion(Optional<ByteSource> existing, Box region, FieldVector data, BufferAllocator allocator) {
    if (serializerOnly()) {
      return serializer.encodeRegion(existing, spec, region, data, allocator);
    }
    // Not serializer-only: encode() returns memory of its own (compressed, or copied after array codecs).
    return PartialCoding.encodeRegion(
        bytes -> decode(bytes, allocator), chunk -> encode(chunk, allocator), existing, spec, region, data, allocator, false);
  }

  /**
   * Decodes {@code region} (relative to the chunk) of the chunk in {@code source} into {@code out}, a
   * fixed-width vector (see {@link Regions#flatWidth}) of {@code outShape}, at {@code outStart}; the
   * elements there become valid. A whole chunk whose stored bytes, once through the bytes->bytes codecs,
   * are its Arrow data as is (little-endian {@code bytes}, no array->array codec) and whose place in
   * {@code out} is contiguous is decompressed straight into {@code out}'s memory: no chunk buffer, no copy.
   */
  public void decodeInto(ByteSource source, Box region, FieldVector out, long[] outShape, long[] outStart, BufferAllocator allocator) {
    decodeInto(source, region, out, outShape, outStart, allocator, null);
  }

  /**
   * As {@link #decodeInto(ByteSource, Box, FieldVector, long[], long[], BufferAllocator)}; a whole chunk
   * decompressed straight into {@code out} is first read into a buffer lent by {@code scratch} (when
   * not null) instead of fresh memory.
   */
  public void decodeInto(
      ByteSource source, Box region, FieldVector out, long[] outShape, long[] outStart, BufferAllocator allocator,
      ScratchBuffers scratch) {
    checkStoredSize(source);
    int count = Math.toIntExact(region.size());
    if (rawLayout
        && region.covers(spec.shape())
        && Regions.flatWidth(out) == serializerSpec.dataType().byteWidth()
        && Regions.isContiguous(region.shape(), outShape)) {
      long first = 0;
      long[] strides = Regions.strides(outShape);
      for (int d = 0; d < outShape.length; d++) {
        first += outStart[d] * strides[d];
      }
      ByteBuffer target = Regions.view(out, first, count);
      if (scratch == null) {
        withStored(source, allocator, true, bytes -> {
          decodeStraightInto(bytes, target);
          return null;
        });
      } else {
        try (ScratchBuffers.Loan loan = scratch.loan()) {
          decodeStraightInto(source.readAll(loan), target);
        }
      }
      Regions.setBits(out.getValidityBuffer(), first, count);
      return;
    }
    long[] chunkShape = Regions.toLong(spec.shape());
    if (serializerOnly()) {
      // The serializer may read only part of the stored value (a 1-d region, a shard's inner chunks),
      // and decode its parts straight into place (a shard's).
      serializer.decodeInto(source, spec, region, out, outShape, outStart, allocator, scratch);
    } else {
      // A part of the chunk, or a layout to convert: the codecs decode into their own buffers, the part is copied.
      withStored(source, allocator, true, bytes -> {
        try (FieldVector chunk = decode(bytes, allocator)) {
          Regions.copyInto(chunk, chunkShape, region, out, outShape, outStart);
        }
        return null;
      });
    }
  }

  /** The stored {@code bytes} of a whole chunk of the raw layout decoded into {@code target}, its Arrow data. */
  private void decodeStraightInto(ByteBuffer bytes, ByteBuffer target) {
    for (int i = bytesCodecs.size() - 1; i >= 1; i--) {
      bytes = decodeBytes(i, bytes);
    }
    if (bytesCodecs.isEmpty()) {
      if (bytes.remaining() != target.remaining()) {
        throw new CorruptChunkException("a " + spec + " is " + target.remaining() + " bytes, got " + bytes.remaining());
      }
      target.put(0, bytes, bytes.position(), bytes.remaining());
    } else {
      bytesCodecs.get(0).decodeInto(bytes, target);
    }
  }

  private ByteBuffer decodeBytes(int i, ByteBuffer bytes) {
    long expected = decodedSizes[i];
    if (expected > options.maxChunkBytes()) {
      throw new CodecException("a " + spec + " needs " + expected + " bytes after codec " + bytesCodecs.get(i).name()
          + ", more than the limit of " + options.maxChunkBytes());
    }
    return bytesCodecs.get(i).decode(bytes, expected, options.maxChunkBytes());
  }

  private static ByteBuffer copy(ByteBuffer bytes) {
    return PartialCoding.copy(bytes);
  }

  private static void checkCount(FieldVector vector, ChunkSpec spec) {
    if (vector.getValueCount() != spec.size()) {
      throw new CorruptChunkException(
          "a " + spec + " needs " + spec.size() + " elements, got " + vector.getValueCount());
    }
  }
}
