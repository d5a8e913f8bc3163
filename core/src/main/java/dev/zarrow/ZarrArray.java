package dev.zarrow;

import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Fields;
import dev.zarrow.vector.Regions;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.codec.DecodedPieces;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.DataType;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.dtype.StructType;
import dev.zarrow.grid.Box;
import dev.zarrow.grid.ChunkGrid;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.internal.WorkSharing;
import dev.zarrow.memory.ScratchBuffers;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.metadata.V2Metadata;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A Zarr v3 array: its metadata interpreted (data type, grid, key encoding, codecs bound to the chunk
 * shape) over a store it does not own. Reads and writes any region as Arrow vectors, decoding and
 * encoding chunks in parallel on the options' executor. Immutable; {@link #resize} and
 * {@link #withAttributes} return the array with its new metadata.
 *
 * <p>Every method that returns Arrow memory takes the caller's allocator and returns a fresh vector the
 * caller owns and must close. Vectors passed in are borrowed: never closed, never changed.
 */
public final class ZarrArray implements ZarrNode {
  private final Store store;
  private final String path;
  private final ArrayMetadata metadata;
  private final ZarrOptions options;
  private final DataType dataType;
  private final ChunkGrid grid;
  private final ChunkKeyEncoding keyEncoding;
  private final FillValue fillValue;
  private final CodecPipeline pipeline;

  private ZarrArray(Store store, String path, ArrayMetadata metadata, ZarrOptions options) {
    this.store = store;
    this.path = path;
    this.options = options;
    String where = "array '" + path + "' (" + ZarrNode.metadataKey(path, metadata.zarrFormat(), true) + " in " + store.describe() + ")";
    try {
      for (NamedConfig t : metadata.storageTransformers() == null ? List.<NamedConfig>of() : metadata.storageTransformers()) {
        if (t.mustUnderstand()) {
          throw new UnsupportedExtensionException("/storage_transformers: unsupported storage transformer '" + t.name() + "'");
        }
      }
      this.dataType = options.registry().dataType(metadata.dataType());
      this.grid = ChunkGrid.parse(metadata.chunkGrid(), metadata.rank());
      grid.checkFits(metadata.shape());
      this.keyEncoding = ChunkKeyEncoding.parse(metadata.chunkKeyEncoding());
      metadata = legacyStructuredLittleEndian(metadata);
      if (metadata.zarrFormat() == 2 && dataType instanceof StructType struct) {
        // v2's base64 is in the array's byte order: held as the v3 object form so a copy to v3 reads right
        this.fillValue = metadata.fillValue() == null || metadata.fillValue().isNull() ? parseFill(dataType, metadata)
            : V2StructFill.read(struct, metadata.fillValue(), V2StructFill.bigEndian(metadata));
        // through text, so its number nodes are those a reader of the written document gets
        metadata = metadata.withFillValue(Json.parse(Json.pretty(struct.fillToJson(fillValue)), "fill_value"));
      } else {
        this.fillValue = parseFill(dataType, metadata);
      }
      var context = options.registry().context(options.codecs(), options.executor());
      this.pipeline =
          CodecPipeline.of(
              context.codecs(metadata.codecs()),
              new ChunkSpec(grid.chunkShape(), dataType, fillValue),
              context);
      // Codec settings left to the data type (blosc's typesize) are stored filled in, as zarr-python does.
      List<NamedConfig> codecs = pipeline.metadata(metadata.codecs());
      this.metadata = codecs == metadata.codecs() ? metadata : metadata.withCodecs(codecs);
    } catch (ZarrException e) {
      throw e.withContext(where);
    }
  }

  /** The legacy {@code structured} type's {@code bytes} codec without {@code endian} is little-endian (its spec). */
  private static ArrayMetadata legacyStructuredLittleEndian(ArrayMetadata metadata) {
    if (!metadata.dataType().name().equals(StructType.LEGACY_NAME)) {
      return metadata;
    }
    List<NamedConfig> codecs = new ArrayList<>();
    boolean changed = false;
    for (NamedConfig c : metadata.codecs()) {
      if (c.name().equals("bytes") && !c.config().has("endian")) {
        c = NamedConfig.of("bytes", c.config().deepCopy().put("endian", "little"));
        changed = true;
      }
      codecs.add(c);
    }
    return changed ? metadata.withCodecs(codecs) : metadata;
  }

  private static FillValue parseFill(DataType type, ArrayMetadata metadata) {
    if (metadata.fillValue() == null || metadata.fillValue().isNull()) {
      return type.parseFill(com.fasterxml.jackson.databind.node.NullNode.getInstance());
    }
    return type.parseFill(metadata.fillValue());
  }

  /** The array at {@code path} described by {@code metadata} (nothing is written). */
  static ZarrArray of(Store store, String path, ArrayMetadata metadata, ZarrOptions options) {
    return new ZarrArray(store, path, metadata, options);
  }

  @Override
  public Store store() {
    return store;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public ZarrOptions options() {
    return options;
  }

  public ArrayMetadata metadata() {
    return metadata;
  }

  @Override
  public ObjectNode attributes() {
    return metadata.attributes().deepCopy();
  }

  public long[] shape() {
    return metadata.shape();
  }

  public int rank() {
    return metadata.rank();
  }

  /** The number of elements (it always fits a long: metadata whose shape counts more is refused). */
  public long size() {
    return metadata.size();
  }

  public DataType dataType() {
    return dataType;
  }

  public ChunkGrid grid() {
    return grid;
  }

  public FillValue fillValue() {
    return fillValue;
  }

  /** The codecs bound to this array's chunks. */
  public CodecPipeline pipeline() {
    return pipeline;
  }

  /** The store key of chunk {@code coords}. */
  public String chunkKey(long[] coords) {
    String key = keyEncoding.key(coords);
    return path.isEmpty() ? key : path + "/" + key;
  }

  /**
   * Every chunk position of the grid, in C order, made one at a time as it is iterated: a grid may
   * have more chunks than memory holds (see {@link #chunkCount()}), so iterate, never collect, unless
   * the count is small. Stored chunks are usually far fewer: a store that lists gives them faster.
   */
  public Iterable<long[]> chunks() {
    return grid.allChunks(metadata.shape());
  }

  /** The number of chunks of the grid (at most {@link #size()}, so it always fits a long). */
  public long chunkCount() {
    return grid.chunkCount(metadata.shape());
  }

  private String context(long[] coords) {
    return "array '" + path + "', chunk " + Arrays.toString(coords) + " (key " + chunkKey(coords) + " in " + store.describe() + ")";
  }

  // ---- reading ----

  /**
   * The elements of chunk {@code coords} that lie inside the array (an edge chunk is clipped), as a
   * vector the caller owns. A chunk that is not stored reads as the fill value. Whole chunks of
   * little-endian fixed-size data share the stored bytes' memory (no copy).
   */
  public NdVector readChunk(long[] coords, BufferAllocator allocator) {
    checkCoords(coords);
    Box inBounds = grid.chunkBox(coords).intersect(Box.of(metadata.shape()));
    Box inChunk = inBounds.relativeTo(grid.chunkBox(coords).start());
    return new NdVector(decodeRegion(coords, inChunk, allocator), inBounds.shape());
  }

  /**
   * The whole chunk {@code coords} as stored, out-of-bounds elements of edge chunks included, or empty
   * when it is not stored. Used to verify chunks and to copy them unchanged.
   */
  public Optional<FieldVector> decodeChunk(long[] coords, BufferAllocator allocator) {
    checkCoords(coords);
    try {
      Optional<ByteSource> stored = store.source(chunkKey(coords));
      if (stored.isEmpty()) {
        return Optional.empty();
      }
      try (ByteSource source = stored.get()) {
        return Optional.of(pipeline.decode(source, allocator)); // refused from its size before it is read
      }
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
  }

  /** The whole array, as a vector the caller owns. */
  public NdVector read(BufferAllocator allocator) {
    return read(Box.of(metadata.shape()), allocator);
  }

  /** The elements of {@code region} in C order, as a vector the caller owns. */
  public NdVector read(Box region, BufferAllocator allocator) {
    checkRegion(region);
    long count = region.size();
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("region " + region + " of array '" + path + "' has " + count + " elements, more than one Arrow vector holds (2^31 - 1)");
    }
    List<long[]> touched = new ArrayList<>();
    grid.chunksOf(region).forEach(touched::add);
    if (touched.size() == 1) {
      long[] coords = touched.get(0);
      Box inChunk = region.relativeTo(grid.chunkBox(coords).start());
      return new NdVector(decodeRegion(coords, inChunk, allocator), region.shape());
    }
    if (touched.isEmpty()) {
      FieldVector empty = Fields.createVector(dataType.field(name()), allocator);
      empty.setValueCount(0);
      return new NdVector(empty, region.shape());
    }
    long[] outShape = region.shape();
    Optional<FieldVector> flat = allocateFlat((int) count, allocator, null);
    if (flat.isPresent()) {
      FieldVector out = flat.get();
      // The stored bytes of each chunk go into buffers reused from chunk to chunk, not fresh memory.
      try (ScratchBuffers scratch = new ScratchBuffers(allocator, "array '" + path + "' read")) {
        // Each chunk's task writes exactly its part of the output (decoded, or the fill value when the
        // chunk is missing): the parts tile the region, so the output needs no filling beforehand.
        WorkSharing.forEach(touched, coords -> readInto(coords, region, out, outShape, allocator, scratch), options.executor());
        return new NdVector(out, outShape);
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
    }
    // Each chunk hands out its parts unassembled (a shard's inner chunks): every element is copied into
    // the result once, by one assembly of all of them.
    List<DecodedPieces> pieces = WorkSharing.map(touched, coords -> {
      Box inChunk = grid.chunkBox(coords).intersect(region).relativeTo(grid.chunkBox(coords).start());
      return decodePieces(coords, inChunk, allocator);
    }, options.executor());
    try {
      if (touched.size() == 1) {
        Optional<FieldVector> whole = pieces.get(0).takeWhole(dataType.field(name()), outShape, allocator);
        if (whole.isPresent()) {
          return new NdVector(whole.get(), outShape);
        }
      }
      List<Regions.Piece> parts = new ArrayList<>();
      for (int i = 0; i < touched.size(); i++) {
        Box part = grid.chunkBox(touched.get(i)).intersect(region);
        parts.addAll(pieces.get(i).shiftedBy(part.relativeTo(region.start()).start()));
      }
      return new NdVector(Regions.assemble(dataType.field(name()), outShape, parts, allocator), outShape);
    } finally {
      pieces.forEach(DecodedPieces::close);
    }
  }

  /**
   * The elements of {@code region} in C order, as {@link #read(Box, BufferAllocator)}, in memory that
   * {@code scratch} lends, for a stream of reads each released soon (a reader's decoded chunks): a
   * fixed-width result's values are in a buffer of {@link ScratchBuffers#lend}, lent again once the
   * result (and anything made from it in the same allocator) is closed, and the stored bytes of each
   * chunk in one of {@link ScratchBuffers#take}. So a stream touches a few chunks of fresh memory, not
   * one per read. The result is a vector of {@code scratch.allocator()} that the caller owns and closes
   * before closing {@code scratch}.
   */
  public NdVector read(Box region, ScratchBuffers scratch) {
    checkRegion(region);
    long count = region.size();
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("region " + region + " of array '" + path + "' has " + count + " elements, more than one Arrow vector holds (2^31 - 1)");
    }
    BufferAllocator allocator = scratch.allocator();
    Optional<FieldVector> flat = count == 0 ? Optional.empty() : allocateFlat((int) count, allocator, scratch);
    if (flat.isEmpty()) {
      return read(region, allocator);
    }
    FieldVector out = flat.get();
    long[] outShape = region.shape();
    try {
      List<long[]> touched = new ArrayList<>();
      grid.chunksOf(region).forEach(touched::add);
      WorkSharing.forEach(touched, coords -> readInto(coords, region, out, outShape, allocator, scratch), options.executor());
      return new NdVector(out, outShape);
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /** An unset vector of this array's type ({@link FixedWidthType#allocateUnset}), or empty. */
  private Optional<FieldVector> allocateFlat(int count, BufferAllocator allocator, ScratchBuffers scratch) {
    return dataType instanceof FixedWidthType fixed ? fixed.allocateUnset(count, allocator, scratch) : Optional.empty();
  }

  /** Decodes the part of chunk {@code coords} that lies in {@code region} into its place in {@code out}. */
  private void readInto(
      long[] coords, Box region, FieldVector out, long[] outShape, BufferAllocator allocator, ScratchBuffers scratch) {
    Box chunk = grid.chunkBox(coords);
    Box part = chunk.intersect(region);
    Box inChunk = part.relativeTo(chunk.start());
    long[] at = part.relativeTo(region.start()).start();
    try {
      Optional<ByteSource> source = source(coords, inChunk);
      if (source.isEmpty()) {
        Regions.fill(out, outShape, new Box(at, part.shape()), fillValue.bytes());
      } else {
        try (ByteSource chunkBytes = source.get()) {
          pipeline.decodeInto(chunkBytes, inChunk, out, outShape, at, allocator, scratch);
        }
      }
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
  }

  /** The stored chunk, told what a read of {@code inChunk} reads first (a shard's index). */
  private Optional<ByteSource> source(long[] coords, Box inChunk) {
    String key = chunkKey(coords);
    Optional<ByteRange> first = pipeline.firstRead(inChunk);
    return first.isPresent() ? store.source(key, first.get()) : store.source(key);
  }

  private FieldVector decodeRegion(long[] coords, Box inChunk, BufferAllocator allocator) {
    Optional<ByteSource> source;
    try {
      source = source(coords, inChunk);
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
    if (source.isEmpty()) {
      return dataType.filled(allocator, Math.toIntExact(inChunk.size()), fillValue);
    }
    try (ByteSource chunkBytes = source.get()) {
      return pipeline.decodeRegion(chunkBytes, inChunk, allocator);
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
  }

  private DecodedPieces decodePieces(long[] coords, Box inChunk, BufferAllocator allocator) {
    Optional<ByteSource> source;
    try {
      source = source(coords, inChunk);
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
    if (source.isEmpty()) {
      return DecodedPieces.whole(dataType.filled(allocator, Math.toIntExact(inChunk.size()), fillValue), inChunk.shape());
    }
    try (ByteSource chunkBytes = source.get()) {
      return pipeline.decodePieces(chunkBytes, inChunk, allocator);
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    }
  }

  // ---- writing ----

  private WritableStore writable() {
    if (store instanceof WritableStore w) {
      return w;
    }
    throw new IllegalStateException("array '" + path + "': " + store.describe() + " is read-only");
  }

  /** Writes {@code data} (borrowed) at {@code offset}; its shape gives the region. */
  public void write(long[] offset, NdVector data) {
    write(new Box(offset, data.shape()), data.vector());
  }

  /** Writes a 1-d {@code data} (borrowed) at {@code offset}. */
  public void write(long offset, FieldVector data) {
    write(new Box(new long[] {offset}, new long[] {data.getValueCount()}), data);
  }

  /**
   * Writes {@code data} (borrowed; {@code region.size()} elements in C order) into {@code region}, with
   * temporaries beside the data's memory. Data of the null type (Arrow Java's {@code NullVector}) has no
   * allocator: write it with {@link #write(Box, FieldVector, BufferAllocator)}.
   */
  public void write(Box region, FieldVector data) {
    write(region, data, Buffers.allocatorOf(data, "array '" + path + "': write"));
  }

  /**
   * Writes {@code data} (borrowed; {@code region.size()} elements in C order) into {@code region};
   * temporaries (chunks read back, encoded pieces) live in a child of {@code allocator} closed before
   * returning. A region outside the array, data of another length or Arrow type, or a read-only store
   * is an {@link IllegalArgumentException} or {@link IllegalStateException}; bad stored chunks are
   * {@link ZarrException}s.
   */
  public void write(Box region, FieldVector data, BufferAllocator allocator) {
    WritableStore out = writable();
    checkRegion(region);
    if (data.getValueCount() != region.size()) {
      throw new IllegalArgumentException("array '" + path + "': region " + region + " has " + region.size()
          + " elements, the data " + data.getValueCount());
    }
    checkType(data);
    List<long[]> touched = new ArrayList<>();
    grid.chunksOf(region).forEach(touched::add);
    Box array = Box.of(metadata.shape());
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "ZarrArray.write")) {
      WorkSharing.forEach(touched, coords -> {
        Box chunk = grid.chunkBox(coords);
        Box part = chunk.intersect(region);
        Box inChunk = part.relativeTo(chunk.start());
        String key = chunkKey(coords);
        boolean whole = part.equals(chunk.intersect(array));
        try (FieldVector piece = part.equals(region) ? null : Regions.extract(data, dataType.field(name()), region.shape(), part.relativeTo(region.start()), temp)) {
          FieldVector values = piece == null ? data : piece;
          Lock lock = out.lock(key);
          lock.lock();
          try {
            Optional<ByteBuffer> encoded;
            if (whole && inChunk.covers(grid.chunkShape())) {
              encoded = dataType.isAllFill(values, fillValue) ? Optional.empty() : Optional.of(pipeline.encode(values, temp));
            } else {
              // Partial chunks keep what is stored; whole edge chunks start from the fill value.
              Optional<ByteSource> existing = whole ? Optional.empty() : out.source(key);
              try {
                encoded = pipeline.encodeRegion(existing, inChunk, values, temp);
              } finally {
                existing.ifPresent(ByteSource::close);
              }
            }
            if (encoded.isPresent()) {
              out.set(key, encoded.get());
            } else {
              out.delete(key);
            }
          } finally {
            lock.unlock();
          }
        } catch (ZarrException e) {
          throw e.withContext(context(coords));
        }
      }, options.executor());
    }
  }

  /**
   * Writes a whole chunk (borrowed; the full chunk shape, edge chunks included), with temporaries beside
   * its memory; a chunk of the null type has none: {@link #writeChunk(long[], FieldVector, BufferAllocator)}.
   */
  public void writeChunk(long[] coords, FieldVector chunk) {
    writeChunk(coords, chunk, Buffers.allocatorOf(chunk, "array '" + path + "': writeChunk"));
  }

  /** Writes a whole chunk (borrowed), with temporaries in a child of {@code allocator}. */
  public void writeChunk(long[] coords, FieldVector chunk, BufferAllocator allocator) {
    WritableStore out = writable();
    checkCoords(coords);
    checkType(chunk);
    String key = chunkKey(coords);
    Lock lock = out.lock(key);
    lock.lock();
    try {
      if (dataType.isAllFill(chunk, fillValue)) {
        out.delete(key);
      } else {
        out.set(key, pipeline.encode(chunk, allocator));
      }
    } catch (ZarrException e) {
      throw e.withContext(context(coords));
    } finally {
      lock.unlock();
    }
  }

  /** Refuses data of another Arrow type (the whole tree of children), or nulls the type cannot hold. */
  private void checkType(FieldVector data) {
    Field want = dataType.field(name());
    Field got = data.getField();
    // The whole tree: a vector with other children would fail deep inside the codecs.
    if (!Fields.sameLayout(want, got)) {
      throw new IllegalArgumentException("array '" + path + "' of data type " + dataType.name() + " holds Arrow "
          + describe(want) + ", not " + describe(got));
    }
    int refused = Fields.refusedNulls(want, data);
    if (refused > 0) {
      throw new IllegalArgumentException("array '" + path + "' of data type " + dataType.name() + " cannot store nulls ("
          + refused + " found)" + (dataType instanceof ArrowDataType ? "" : "; use the arrow data type "
          + "({\"name\": \"arrow\", ...}) for nullable data"));
    }
  }

  private static String describe(Field field) {
    return field.getChildren().isEmpty()
        ? field.getType().toString()
        : field.getType() + field.getChildren().stream().map(ZarrArray::describe).toList().toString();
  }

  /**
   * Resizes the array: writes the new metadata and deletes the chunks that lie wholly outside the new
   * shape (like zarr-python). Returns the array with its new shape. The chunks to delete are found in
   * the store's listing when it lists (the time of the stored chunks), else by trying every dropped
   * grid position. A shape of more than 2^63 - 1 elements, or whose chunks would end past that, is an
   * {@link IllegalArgumentException}.
   */
  public ZarrArray resize(long... newShape) {
    WritableStore out = writable();
    if (newShape.length != rank() || Arrays.stream(newShape).anyMatch(n -> n < 0)
        || ArrayMetadata.elementCount(newShape) < 0) {
      throw new IllegalArgumentException("array '" + path + "': cannot resize " + rank() + " dimensions to " + Arrays.toString(newShape));
    }
    ZarrArray resized;
    try {
      resized = new ZarrArray(store, path, metadata.withShape(newShape), options);
    } catch (ZarrException e) {
      throw new IllegalArgumentException("array '" + path + "': cannot resize to " + Arrays.toString(newShape) + ": " + e.getMessage(), e);
    }
    resized.writeMetadata();
    ConsolidatedMetadata.dropAbove(out, path);
    long[] newGrid = grid.gridShape(newShape);
    if (store.canList()) {
      long[] oldGrid = grid.gridShape(metadata.shape());
      String prefix = path.isEmpty() ? "" : path + "/";
      for (String key : store.list(prefix)) {
        Optional<long[]> coords = keyEncoding.coords(key.substring(prefix.length()), oldGrid);
        if (coords.isPresent() && chunkKey(coords.get()).equals(key) && outside(coords.get(), newGrid)) {
          out.delete(key);
        }
      }
    } else {
      for (long[] coords : grid.chunksOutside(metadata.shape(), newShape)) {
        out.delete(chunkKey(coords));
      }
    }
    return resized;
  }

  private static boolean outside(long[] coords, long[] gridShape) {
    for (int i = 0; i < coords.length; i++) {
      if (coords[i] >= gridShape[i]) {
        return true;
      }
    }
    return false;
  }

  /** Replaces the attributes, writing the metadata; returns the updated array. */
  public ZarrArray withAttributes(ObjectNode attributes) {
    ZarrArray updated = new ZarrArray(store, path, metadata.withAttributes(attributes), options);
    updated.writeMetadata();
    ConsolidatedMetadata.dropAbove(writable(), path);
    return updated;
  }

  void writeMetadata() {
    WritableStore out = writable();
    if (metadata.zarrFormat() == 2) {
      ObjectNode doc = V2Metadata.toZarray(metadata);
      if (dataType instanceof StructType struct) {
        boolean bigEndian = V2StructFill.bigEndian(metadata);
        JsonNode kept = V2Metadata.keptFill(metadata).orElse(null);
        boolean keep = kept != null && (kept.isNull() ? fillValue.equals(FillValue.of(new byte[fillValue.length()]))
            : kept.isTextual() && V2StructFill.read(struct, kept, bigEndian).equals(fillValue));
        doc.set("fill_value", keep ? kept.deepCopy() : V2StructFill.write(struct, fillValue, bigEndian)); // the spelling read when it stands for the fill
      }
      ByteBuffer zarray = ByteBuffer.wrap(Json.prettyAscii(doc));
      V2Writes.writeAttributes(out, path, V2Metadata.toZattrs(metadata));
      out.set(ZarrNode.key(path, V2Metadata.ZARRAY), zarray);
    } else {
      out.set(ZarrNode.metadataKey(path), ByteBuffer.wrap(Json.pretty(metadata.toJson())));
    }
  }

  private void checkCoords(long[] coords) {
    long[] gridShape = grid.gridShape(metadata.shape());
    if (coords.length != rank()) {
      throw new IllegalArgumentException("array '" + path + "': chunk " + Arrays.toString(coords) + " has the wrong rank (" + rank() + ")");
    }
    for (int i = 0; i < coords.length; i++) {
      if (coords[i] < 0 || coords[i] >= gridShape[i]) {
        throw new IllegalArgumentException("array '" + path + "': chunk " + Arrays.toString(coords) + " is outside the grid " + Arrays.toString(gridShape));
      }
    }
  }

  private void checkRegion(Box region) {
    if (region.rank() != rank() || !region.within(metadata.shape())) {
      throw new IllegalArgumentException("array '" + path + "': region " + region + " is outside the shape " + Arrays.toString(metadata.shape()));
    }
  }

  @Override
  public String toString() {
    return "ZarrArray('" + path + "', " + Arrays.toString(metadata.shape()) + ", " + dataType.name() + ")";
  }
}
