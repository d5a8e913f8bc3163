package dev.zarrow.codec.vlen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.Codec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.VlenBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code zarrs.vlen}: the offsets (the index) and the element bytes (the data) of a chunk, each encoded
 * through its own codec chain, so that both compress well and any Zarr v3 codec applies.
 *
 * <p>Spec: zarrs' codec.zarrs.dev/array_to_bytes/vlen (experimental; after J. Maitin-Shepard's proposal
 * in zarr-developers/zeps#47). Names: {@code zarrs.vlen}, {@code https://codec.zarrs.dev/array_to_bytes/vlen}.
 * Configuration:
 * <pre>
 * {"index_codecs": [...], "data_codecs": [...], "index_data_type": "uint32" | "uint64",
 *  "index_location": "start" | "end"}
 * </pre>
 * {@code index_location} is absent in the first (v0.0) form, which means {@code start}. Grammar of a
 * chunk of n elements:
 * <pre>
 * start-chunk := index-length index data
 * end-chunk   := data index index-length
 * index-length:= u64 little-endian: the size of index
 * index       := the n + 1 offsets (index_data_type), 1-d, encoded by index_codecs;
 *                0 &lt;= offsets[0] &lt;= ... &lt;= offsets[n]
 * data        := offsets[n] bytes (uint8, 1-d) encoded by data_codecs; nothing when offsets[n] is 0
 * </pre>
 * With a plain {@code bytes} data chain the decoded data is the chunk's own memory (no copy when the
 * store hands out writable direct buffers), and a {@code uint32} index shares its buffer with the
 * vector's offsets for {@code string} and {@code bytes} ({@code uint64} for the large types).
 */
public final class ZarrsVlenCodec implements ArrayToBytesCodec {
  public static final String NAME = "zarrs.vlen";
  private static final String URL = "https://codec.zarrs.dev/array_to_bytes/vlen";

  /** Where the encoded index goes. */
  public enum IndexLocation { START, END }

  private final List<Codec> indexCodecs;
  private final List<Codec> dataCodecs;
  private final FixedType indexType;
  private final IndexLocation location;
  private final NamedConfig metadata;
  private final CodecContext context;
  private final CodecOptions options;

  private ZarrsVlenCodec(List<Codec> indexCodecs, List<Codec> dataCodecs, FixedType indexType, IndexLocation location,
      NamedConfig metadata, CodecContext context) {
    this.indexCodecs = List.copyOf(indexCodecs);
    this.dataCodecs = List.copyOf(dataCodecs);
    this.indexType = indexType;
    this.location = location;
    this.metadata = metadata;
    this.context = context;
    this.options = context.options();
  }

  /**
   * The metadata of a {@code zarrs.vlen} codec (for {@link dev.zarrow.ArraySpec#serializer}).
   *
   * @param indexDataType {@code "uint32"} or {@code "uint64"}
   * @param location where the index goes
   * @param indexCodecs the chain of the index, e.g. {@code bytes} little-endian then {@code zstd}
   * @param dataCodecs the chain of the data, e.g. {@code bytes} then {@code zstd}
   */
  public static NamedConfig metadata(String indexDataType, IndexLocation location, List<NamedConfig> indexCodecs,
      List<NamedConfig> dataCodecs) {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    ArrayNode index = config.putArray("index_codecs");
    indexCodecs.forEach(c -> index.add(c.toJson()));
    ArrayNode data = config.putArray("data_codecs");
    dataCodecs.forEach(c -> data.add(c.toJson()));
    config.put("index_data_type", indexDataType);
    config.put("index_location", location.name().toLowerCase(java.util.Locale.ROOT));
    return NamedConfig.of(NAME, config);
  }

  /** {@code bytes} codec metadata, little-endian when {@code endian}, else without configuration. */
  public static NamedConfig bytesCodec(boolean endian) {
    return NamedConfig.of("bytes", endian ? JsonNodeFactory.instance.objectNode().put("endian", "little") : null);
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  public IndexLocation indexLocation() {
    return location;
  }

  private CodecPipeline indexPipeline(int count) {
    if (count == Integer.MAX_VALUE) {
      throw new CodecException("codec zarrs.vlen: a chunk of " + count + " elements needs more index entries than one vector holds");
    }
    byte[] zero = new byte[indexType.byteWidth()];
    return CodecPipeline.of(indexCodecs, new ChunkSpec(new int[] {count + 1}, indexType, FillValue.of(zero)), context);
  }

  private CodecPipeline dataPipeline(long length) {
    return CodecPipeline.of(
        dataCodecs, new ChunkSpec(new int[] {Math.toIntExact(length)}, FixedType.UINT8, FillValue.of(new byte[1])), context);
  }

  @Override
  public void validate(ChunkSpec spec) {
    VarLenCodecs.type(spec, NAME);
    try {
      indexPipeline(spec.size());
    } catch (ZarrException e) {
      throw e.withContext("codec zarrs.vlen, index_codecs");
    }
    try {
      dataPipeline(1);
    } catch (ZarrException e) {
      throw e.withContext("codec zarrs.vlen, data_codecs");
    }
  }

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = VarLenCodecs.type(spec, NAME);
    VlenBuffers.Parts parts = VarLenCodecs.parts(type, chunk);
    int n = parts.count();
    long first = parts.first();
    long dataLength = parts.dataLength();
    int iw = indexType.byteWidth();
    if (iw == 4 && dataLength > 0xffffffffL) {
      throw new CodecException("codec zarrs.vlen: " + dataLength + " data bytes need index_data_type uint64");
    }
    try (BufferAllocator temp = Buffers.temporaryAllocator(allocator, "zarrs.vlen encode")) {
      return encode(parts, n, first, dataLength, iw, temp);
    }
  }

  private ByteBuffer encode(VlenBuffers.Parts parts, int n, long first, long dataLength, int iw, BufferAllocator allocator) {
    ByteBuffer index;
    try (ArrowBuf offsets = allocator.buffer((long) (n + 1) * iw)) {
      long to = offsets.memoryAddress();
      for (int i = 0; i <= n; i++) {
        long offset = parts.offset(i) - first;
        if (iw == 4) {
          MemoryUtil.putInt(to + 4L * i, (int) offset);
        } else {
          MemoryUtil.putLong(to + 8L * i, offset);
        }
      }
      try (FieldVector vector = indexType.fromBytes(offsets, n + 1, allocator)) {
        index = copy(indexPipeline(n).encode(vector, allocator));
      }
    }
    ByteBuffer data = ByteBuffer.allocate(0);
    if (dataLength > 0) {
      if (dataLength > Integer.MAX_VALUE) {
        throw new CodecException("codec zarrs.vlen: " + dataLength + " data bytes are more than one buffer holds (2 GiB); use smaller chunks");
      }
      try (FieldVector bytes = FixedType.UINT8.fromBytes(parts.data().slice(first, dataLength), (int) dataLength, allocator)) {
        data = copy(dataPipeline(dataLength).encode(bytes, allocator));
      }
    }
    long indexLength = index.remaining();
    ByteBuffer out = VarLenCodecs.allocate(8 + indexLength + data.remaining(), NAME);
    if (location == IndexLocation.START) {
      out.putLong(indexLength).put(index).put(data);
    } else {
      out.put(data).put(index).putLong(indexLength);
    }
    return out.flip();
  }

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = VarLenCodecs.type(spec, NAME);
    int n = spec.size();
    int length = bytes.remaining();
    if (length < 8) {
      throw corrupt("truncated: " + length + " bytes cannot hold the 8-byte index length");
    }
    int p = bytes.position();
    ByteBuffer le = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long indexLength = location == IndexLocation.START ? le.getLong(p) : le.getLong(p + length - 8);
    int rest = length - 8;
    if (indexLength < 0 || indexLength > rest) {
      throw corrupt("the index length " + Long.toUnsignedString(indexLength) + " (" + location.name().toLowerCase(java.util.Locale.ROOT)
          + ") is more than the " + rest + " bytes after the length field");
    }
    int il = (int) indexLength;
    ByteBuffer indexBytes = location == IndexLocation.START ? bytes.slice(p + 8, il) : bytes.slice(p + rest - il, il);
    ByteBuffer dataBytes = location == IndexLocation.START ? bytes.slice(p + 8 + il, rest - il) : bytes.slice(p, rest - il);

    FieldVector index;
    try {
      index = indexPipeline(n).decode(indexBytes, allocator);
    } catch (ZarrException e) {
      throw e.withContext("codec zarrs.vlen, index");
    }
    try (index) {
      ArrowBuf offsets = index.getDataBuffer();
      long last = checkIndex(offsets.memoryAddress(), n, type);
      ArrowBuf data = allocator.getEmpty();
      FieldVector dataVector = null;
      try {
        if (last > 0) {
          try {
            dataVector = dataPipeline(last).decode(dataBytes, allocator);
          } catch (ZarrException e) {
            throw e.withContext("codec zarrs.vlen, data");
          }
          data = dataVector.getDataBuffer();
        }
        // checkIndex proved the offsets sound and the data pipeline decoded exactly `last` bytes: no second check.
        if (indexType.byteWidth() == type.offsetWidth()) {
          return VarLenCodecs.checked(VlenBuffers.fromBuiltBuffers(type.field(""), offsets, data, n, allocator), type, options);
        }
        try (ArrowBuf converted = convert(offsets, n, type.offsetWidth(), allocator)) {
          return VarLenCodecs.checked(VlenBuffers.fromBuiltBuffers(type.field(""), converted, data, n, allocator), type, options);
        }
      } finally {
        if (dataVector != null) {
          dataVector.close();
        }
      }
    }
  }

  /** Checks the decoded index (unsigned values) and returns its last offset, the data length. */
  private long checkIndex(long address, int n, VarLenType type) {
    long prev = -1;
    long first = 0;
    for (int i = 0; i <= n; i++) {
      long cur = indexType.byteWidth() == 4 ? MemoryUtil.getInt(address + 4L * i) & 0xffffffffL : MemoryUtil.getLong(address + 8L * i);
      if (cur < 0) {
        throw corrupt("index entry " + i + " is " + Long.toUnsignedString(cur) + ", beyond any data");
      }
      if (i == 0) {
        first = cur;
      } else if (cur < prev) {
        throw corrupt("the index decreases at element " + (i - 1) + " (offset " + (i - 1) + " is " + prev + ", offset " + i + " is " + cur + ")");
      }
      prev = cur;
    }
    long last = prev;
    if (last > type.maxDataBytes()) {
      throw corrupt("the index ends at " + last + " bytes, more than data type " + type.name() + " holds in one chunk (2 GiB)");
    }
    if (last > Integer.MAX_VALUE) {
      throw corrupt("the index ends at " + last + " bytes, more than one buffer holds (2 GiB)");
    }
    if (last > options.maxChunkBytes()) {
      throw corrupt("the index ends at " + last + " bytes, more than the limit of " + options.maxChunkBytes() + " (CodecOptions.maxChunkBytes)");
    }
    if (first > last) {
      throw corrupt("the first offset " + first + " is past the last " + last);
    }
    return last;
  }

  /** The {@code n + 1} offsets of {@code offsets} (checked, index width) at {@code width} bytes each, in new memory. */
  private ArrowBuf convert(ArrowBuf offsets, int n, int width, BufferAllocator allocator) {
    ArrowBuf out = Buffers.allocateUninitialized(allocator, (long) (n + 1) * width);
    long from = offsets.memoryAddress();
    long to = out.memoryAddress();
    for (int i = 0; i <= n; i++) {
      long value = indexType.byteWidth() == 4 ? MemoryUtil.getInt(from + 4L * i) & 0xffffffffL : MemoryUtil.getLong(from + 8L * i);
      if (width == 4) {
        MemoryUtil.putInt(to + 4L * i, (int) value);
      } else {
        MemoryUtil.putLong(to + 8L * i, value);
      }
    }
    return out;
  }

  private static CorruptChunkException corrupt(String message) {
    return new CorruptChunkException("codec zarrs.vlen: " + message);
  }

  @Override
  public String toString() {
    return NAME + "(" + indexType.name() + ", " + location + ")";
  }

  /** A copy of an encoding that may view memory about to be closed. */
  private static ByteBuffer copy(ByteBuffer bytes) {
    return ByteBuffer.allocate(bytes.remaining()).put(bytes.duplicate()).flip();
  }

  /** Makes {@code zarrs.vlen} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME, URL);
    }

    @Override
    public ZarrsVlenCodec create(NamedConfig metadata, CodecContext context) {
      ObjectNode config = metadata.config();
      for (Iterator<String> it = config.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!List.of("index_codecs", "data_codecs", "index_data_type", "index_location").contains(key)) {
          throw new MetadataException("/configuration/" + key + ": unknown option of codec zarrs.vlen");
        }
      }
      List<Codec> index = chain(config, "index_codecs", context);
      List<Codec> data = chain(config, "data_codecs", context);
      JsonNode type = config.get("index_data_type");
      FixedType indexType;
      if (type != null && type.isTextual() && type.textValue().equals("uint32")) {
        indexType = FixedType.UINT32;
      } else if (type != null && type.isTextual() && type.textValue().equals("uint64")) {
        indexType = FixedType.UINT64;
      } else {
        throw new MetadataException("/configuration/index_data_type: codec zarrs.vlen needs \"uint32\" or \"uint64\", got "
            + (type == null ? "nothing" : Json.kind(type)));
      }
      JsonNode where = config.get("index_location");
      IndexLocation location;
      if (where == null) {
        location = IndexLocation.START; // the v0.0 form of the configuration
      } else if (where.isTextual() && where.textValue().equals("start")) {
        location = IndexLocation.START;
      } else if (where.isTextual() && where.textValue().equals("end")) {
        location = IndexLocation.END;
      } else {
        throw new MetadataException("/configuration/index_location: codec zarrs.vlen needs \"start\" or \"end\", got " + Json.kind(where));
      }
      NamedConfig kept = metadata.withName(NAME).withConfiguration(config.deepCopy());
      return new ZarrsVlenCodec(index, data, indexType, location, kept, context);
    }

    private static List<Codec> chain(ObjectNode config, String key, CodecContext context) {
      JsonNode list = config.get(key);
      if (list == null || !list.isArray()) {
        throw new MetadataException("/configuration/" + key + ": codec zarrs.vlen needs an array of codecs");
      }
      List<NamedConfig> parsed = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        parsed.add(NamedConfig.parse(list.get(i), "/configuration/" + key + "/" + i));
      }
      return context.codecs(parsed);
    }
  }
}
