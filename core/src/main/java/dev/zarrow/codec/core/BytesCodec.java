package dev.zarrow.codec.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.FixedWidthType;
import dev.zarrow.grid.Box;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code bytes}: fixed-size elements in C order, little or big endian. Little-endian chunks decode
 * without a copy (the vector's data buffer is the stored bytes) and 1-d regions read only their bytes.
 *
 * <p>Spec: zarr-specs v3 codecs/bytes. Configuration: {@code {"endian": "little" | "big"}}, optional
 * for one-byte types.
 */
public final class BytesCodec implements ArrayToBytesCodec {
  private final ByteOrder order; // null when the configuration names none
  private final NamedConfig metadata;

  public BytesCodec(ByteOrder order) {
    this.order = order;
    ObjectNode config = JsonNodeFactory.instance.objectNode();
    if (order != null) {
      config.put("endian", order == ByteOrder.BIG_ENDIAN ? "big" : "little");
    }
    this.metadata = NamedConfig.of("bytes", config);
  }

  public static final BytesCodec LITTLE = new BytesCodec(ByteOrder.LITTLE_ENDIAN);

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  private FixedWidthType type(ChunkSpec spec) {
    if (!(spec.dataType() instanceof FixedWidthType t)) {
      throw new CodecException("codec bytes cannot serialize data type " + spec.dataType().name()
          + " (its elements have no fixed size)");
    }
    return t;
  }

  @Override
  public void validate(ChunkSpec spec) {
    FixedWidthType t = type(spec);
    if (order == null && t.swapUnit() > 1) {
      throw new CodecException("codec bytes needs \"endian\" for data type " + t.name());
    }
  }

  private boolean swaps(FixedWidthType t) {
    return order == ByteOrder.BIG_ENDIAN && t.swapUnit() > 1;
  }

  /** Little-endian (or one-byte) elements are the Arrow data buffer where the type says so (not bool, strings, records). */
  @Override
  public boolean isArrowLayout(ChunkSpec spec) {
    return spec.dataType() instanceof FixedWidthType t && !swaps(t) && t.bytesAreArrowData();
  }

  /** A byte-swapped copy by the type's units: one unit for numbers, one per field for packed records. */
  private static ByteBuffer swap(ByteBuffer in, FixedWidthType t) {
    int[] units = t.swapUnits();
    for (int u : units) {
      if (u != units[0]) {
        return swapRecords(in, units, t.byteWidth());
      }
    }
    return swap(in, units[0]);
  }

  static ByteBuffer swapRecords(ByteBuffer in, int[] units, int width) {
    int n = in.remaining();
    int base = in.position();
    ByteBuffer src = in.duplicate().order(ByteOrder.BIG_ENDIAN);
    ByteBuffer out = ByteBuffer.allocateDirect(n).order(ByteOrder.LITTLE_ENDIAN);
    for (int e = 0; e + width <= n; e += width) {
      int at = e;
      for (int unit : units) {
        switch (unit) { // typed reads in big-endian order written little-endian: the swap
          case 1 -> out.put(at, src.get(base + at));
          case 2 -> out.putShort(at, src.getShort(base + at));
          case 4 -> out.putInt(at, src.getInt(base + at));
          case 8 -> out.putLong(at, src.getLong(base + at));
          default -> {
            for (int j = 0; j < unit; j++) out.put(at + j, src.get(base + at + unit - 1 - j));
          }
        }
        at += unit;
      }
    }
    return out;
  }

  @Override
  public OptionalLong encodedSize(ChunkSpec spec) {
    return OptionalLong.of((long) spec.size() * type(spec).byteWidth());
  }

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    FixedWidthType t = type(spec);
    ByteBuffer little = t.toBytes(chunk);
    return swaps(t) ? swap(little, t) : little;
  }

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    FixedWidthType t = type(spec);
    long expected = (long) spec.size() * t.byteWidth();
    if (bytes.remaining() != expected) {
      throw new CorruptChunkException("codec bytes: a " + spec + " is " + expected + " bytes, got " + bytes.remaining());
    }
    ByteBuffer little = swaps(t) ? swap(bytes, t) : bytes;
    try (ArrowBuf data = Buffers.wrap(little, allocator)) {
      return t.fromBytes(data, spec.size(), allocator);
    }
  }

  /** A 1-d region is one contiguous byte range: read just that (a partial read from a shard or file). */
  @Override
  public FieldVector decodeRegion(ByteSource source, ChunkSpec spec, Box region, BufferAllocator allocator) {
    FixedWidthType t = type(spec);
    if (spec.rank() != 1 || region.covers(spec.shape())) {
      return ArrayToBytesCodec.super.decodeRegion(source, spec, region, allocator);
    }
    long expected = (long) spec.size() * t.byteWidth();
    if (source.size() != expected) {
      throw new CorruptChunkException("codec bytes: a " + spec + " is " + expected + " bytes, got " + source.size());
    }
    int count = Math.toIntExact(region.size());
    ByteBuffer bytes = source.read(ByteRange.of(region.start(0) * t.byteWidth(), (long) count * t.byteWidth()));
    ByteBuffer little = swaps(t) ? swap(bytes, t) : bytes;
    try (ArrowBuf data = Buffers.wrap(little, allocator)) {
      return t.fromBytes(data, count, allocator);
    }
  }

  /** A byte-swapped copy in fresh direct memory. */
  static ByteBuffer swap(ByteBuffer in, int unit) {
    int n = in.remaining();
    ByteBuffer src = in.duplicate().order(ByteOrder.BIG_ENDIAN);
    ByteBuffer out = ByteBuffer.allocateDirect(n).order(ByteOrder.LITTLE_ENDIAN);
    int base = src.position();
    switch (unit) {
      case 2 -> {
        for (int i = 0; i + 2 <= n; i += 2) out.putShort(i, src.getShort(base + i));
      }
      case 4 -> {
        for (int i = 0; i + 4 <= n; i += 4) out.putInt(i, src.getInt(base + i));
      }
      case 8 -> {
        for (int i = 0; i + 8 <= n; i += 8) out.putLong(i, src.getLong(base + i));
      }
      default -> {
        for (int i = 0; i + unit <= n; i += unit) {
          for (int j = 0; j < unit; j++) out.put(i + j, src.get(base + i + unit - 1 - j));
        }
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "bytes(" + (order == null ? "" : order) + ")";
  }

  /** Makes {@code bytes} codecs. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of("bytes");
    }

    @Override
    public BytesCodec create(NamedConfig metadata, CodecContext context) {
      JsonNode endian = metadata.config().get("endian");
      for (var it = metadata.config().fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!key.equals("endian")) {
          throw new MetadataException("/configuration/" + key + ": unknown option of codec bytes");
        }
      }
      if (endian == null) {
        return new BytesCodec(null);
      }
      return switch (endian.asText()) {
        case "little" -> new BytesCodec(ByteOrder.LITTLE_ENDIAN);
        case "big" -> new BytesCodec(ByteOrder.BIG_ENDIAN);
        default -> throw new MetadataException("/configuration/endian: must be \"little\" or \"big\", got " + endian);
      };
    }
  }
}
