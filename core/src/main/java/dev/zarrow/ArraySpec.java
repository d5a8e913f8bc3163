package dev.zarrow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FillValue;
import dev.zarrow.grid.ChunkGrid;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.metadata.ArrayMetadata;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.metadata.V2Metadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a new array looks like: a builder of its {@link ArrayMetadata}. Unless told otherwise, chunks
 * are the whole array (at most 1M elements per dimension step), the fill value is the type's zero, and
 * the codecs are the type's default serializer followed by {@code zstd} level 0, as zarr-python does.
 */
public final class ArraySpec {
  private final long[] shape;
  private final DataType dataType;
  private int[] chunks;
  private JsonNode fill;
  private List<NamedConfig> serializerAndAfter; // null: the defaults
  private List<NamedConfig> compressors = List.of(zstd(0));
  private List<NamedConfig> arrayCodecs = List.of();
  private NamedConfig serializer; // null: the type's default
  private ChunkKeyEncoding keyEncoding; // null: the format's default
  private List<String> dimensionNames;
  private ObjectNode attributes = JsonNodeFactory.instance.objectNode();
  private int zarrFormat = 3;

  private ArraySpec(DataType dataType, long[] shape) {
    this.dataType = dataType;
    this.shape = shape.clone();
  }

  /**
   * An array of {@code dataType} and {@code shape}; a negative size, or more elements than 2^63 - 1, is
   * an {@link IllegalArgumentException}.
   */
  public static ArraySpec of(DataType dataType, long... shape) {
    for (long n : shape) {
      if (n < 0) {
        throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative size");
      }
    }
    if (ArrayMetadata.elementCount(shape) < 0) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has more elements than 2^63 - 1");
    }
    return new ArraySpec(dataType, shape);
  }

  /** The chunk shape; sizes must be positive (an {@link IllegalArgumentException} otherwise). */
  public ArraySpec chunks(int... chunkShape) {
    for (int n : chunkShape) {
      if (n <= 0) {
        throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunkShape) + ": sizes must be positive");
      }
    }
    this.chunks = chunkShape.clone();
    return this;
  }

  /** The fill value as its JSON form (e.g. {@code 0}, {@code "NaN"}, {@code null}). */
  public ArraySpec fillValue(JsonNode json) {
    this.fill = json;
    return this;
  }

  public ArraySpec fillValue(FillValue value) {
    this.fill = dataType.fillToJson(value);
    return this;
  }

  /** The whole codec chain, replacing every default (array->array, serializer and bytes->bytes). */
  public ArraySpec codecs(List<NamedConfig> codecs) {
    this.serializerAndAfter = List.copyOf(codecs);
    return this;
  }

  /** The serializer (array->bytes codec), keeping the default compression. */
  public ArraySpec serializer(NamedConfig codec) {
    this.serializer = codec;
    return this;
  }

  /** The array->array codecs before the serializer (e.g. transpose). */
  public ArraySpec arrayCodecs(List<NamedConfig> codecs) {
    this.arrayCodecs = List.copyOf(codecs);
    return this;
  }

  /** The bytes->bytes codecs after the serializer; empty for none. */
  public ArraySpec compressors(List<NamedConfig> codecs) {
    this.compressors = List.copyOf(codecs);
    return this;
  }

  public ArraySpec keyEncoding(ChunkKeyEncoding encoding) {
    this.keyEncoding = encoding;
    return this;
  }

  public ArraySpec dimensionNames(List<String> names) {
    this.dimensionNames = names == null ? null : new ArrayList<>(names);
    return this;
  }

  public ArraySpec attributes(ObjectNode attrs) {
    this.attributes = attrs.deepCopy();
    return this;
  }

  /** {@code {"name": "zstd", "configuration": {"level": level, "checksum": false}}}. */
  public static NamedConfig zstd(int level) {
    return NamedConfig.of("zstd", JsonNodeFactory.instance.objectNode().put("level", level).put("checksum", false));
  }

  public static NamedConfig gzip(int level) {
    return NamedConfig.of("gzip", JsonNodeFactory.instance.objectNode().put("level", level));
  }

  /**
   * {@code blosc} with compressor {@code cname} ({@code lz4}, {@code lz4hc}, {@code zstd}, {@code zlib})
   * at {@code clevel} (0-9) and {@code shuffle} ({@code noshuffle}, {@code shuffle}, {@code bitshuffle},
   * or null for the data type's: bitshuffle for one-byte elements, else shuffle); the typesize is the
   * element size, filled in when the array is created.
   */
  public static NamedConfig blosc(String cname, int clevel, String shuffle) {
    ObjectNode config = JsonNodeFactory.instance.objectNode().put("cname", cname).put("clevel", clevel);
    if (shuffle != null) {
      config.put("shuffle", shuffle);
    }
    return NamedConfig.of("blosc", config.put("blocksize", 0));
  }

  public static NamedConfig crc32c() {
    return NamedConfig.of("crc32c", null);
  }

  /** {@code {"name": "bytes", "configuration": {"endian": endian}}}, {@code endian} {@code little} or {@code big}. */
  public static NamedConfig bytes(String endian) {
    return NamedConfig.of("bytes", JsonNodeFactory.instance.objectNode().put("endian", endian));
  }

  /** The recommended shard index codecs: little-endian {@code bytes}, then {@code crc32c}. */
  public static List<NamedConfig> defaultIndexCodecs() {
    return List.of(bytes("little"), crc32c());
  }

  /**
   * The {@code sharding_indexed} codec (ZEP2) with inner chunks of {@code innerChunkShape}, each encoded
   * by {@code codecs}, and the recommended index ({@link #defaultIndexCodecs()}) at the end of the shard.
   * The array's chunk shape is then the shard shape, a multiple of the inner chunk shape.
   */
  public static NamedConfig shardingIndexed(int[] innerChunkShape, List<NamedConfig> codecs) {
    return shardingIndexed(innerChunkShape, codecs, defaultIndexCodecs(), "end");
  }

  /** The {@code sharding_indexed} codec with its index encoded by {@code indexCodecs} at {@code indexLocation} ({@code start} or {@code end}). */
  public static NamedConfig shardingIndexed(
      int[] innerChunkShape, List<NamedConfig> codecs, List<NamedConfig> indexCodecs, String indexLocation) {
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    ArrayNode shape = config.putArray("chunk_shape");
    Arrays.stream(innerChunkShape).forEach(shape::add);
    ArrayNode inner = config.putArray("codecs");
    codecs.forEach(codec -> inner.add(codec.toJson()));
    ArrayNode index = config.putArray("index_codecs");
    indexCodecs.forEach(codec -> index.add(codec.toJson()));
    config.put("index_location", indexLocation);
    return NamedConfig.of("sharding_indexed", config);
  }

  /**
   * The format the array is stored in: 3 (the default, {@code zarr.json}) or 2 ({@code .zarray}, chunk keys
   * {@code 0.0} unless a {@code v2} key encoding with {@code /} is given, string and bytes through
   * {@code vlen-utf8}/{@code vlen-bytes}). What v2 cannot express (sharding, crc32c, another transpose than
   * F order) is refused by {@link #toMetadata} with an {@code UnsupportedExtensionException}.
   */
  public ArraySpec zarrFormat(int format) {
    if (format != 2 && format != 3) {
      throw new IllegalArgumentException("zarr format " + format + ": expected 2 or 3");
    }
    this.zarrFormat = format;
    return this;
  }

  /** The metadata document of the array. */
  public ArrayMetadata toMetadata() {
    int[] chunkShape = chunks;
    if (chunkShape == null) {
      chunkShape = new int[shape.length];
      for (int i = 0; i < shape.length; i++) {
        chunkShape[i] = (int) Math.max(1, Math.min(shape[i], 1 << 20));
      }
    }
    if (chunkShape.length != shape.length) {
      throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunkShape) + " does not match shape " + Arrays.toString(shape));
    }
    List<NamedConfig> codecs = serializerAndAfter;
    if (codecs == null) {
      codecs = new ArrayList<>(arrayCodecs);
      NamedConfig s = serializer != null ? serializer : dataType.defaultSerializer().orElse(null);
      if (s != null) {
        codecs.add(s);
      }
      codecs.addAll(compressors);
    }
    JsonNode fillJson = fill != null ? fill : dataType.fillToJson(dataType.defaultFill());
    // Unset, v2's keys are 0.0 (zarr-python 2's default); a key encoding given keeps its separator.
    ChunkKeyEncoding keys = keyEncoding != null ? keyEncoding
        : zarrFormat == 2 ? new ChunkKeyEncoding(true, '.') : ChunkKeyEncoding.DEFAULT;
    ArrayMetadata metadata = new ArrayMetadata(
        shape, dataType.toMetadata(), ChunkGrid.regular(chunkShape).toMetadata(), keys.toMetadata(),
        fillJson, codecs, attributes, dimensionNames, null, null);
    return zarrFormat == 2 ? V2Metadata.asV2(metadata) : metadata;
  }
}
