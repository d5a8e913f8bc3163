package dev.zarrow.codec.numcodecs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.dtype.ArrowDataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.metadata.NamedConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code vlen-array}: numcodecs' {@code VLenArray}, an object array whose elements are 1-d numeric
 * arrays, as the {@code arrow} data type with field {@code list<T>} ({@code T} the Arrow type of
 * {@code dtype}; a null list is written as an empty one, as numcodecs writes {@code None}). Layout: the
 * element count as 4 little-endian bytes, then per element its byte length (4 bytes, little-endian) and
 * its items in {@code dtype}'s byte order. Configuration: {@code {"dtype": "<i4"}}.
 */
final class VlenArrayCodec implements ArrayToBytesCodec {
  static final String NAME = "vlen-array";

  private final NumpyType dtype;
  private final ArrowType itemType;

  VlenArrayCodec(NumpyType dtype) {
    this.dtype = dtype;
    FixedType t = dtype.type();
    this.itemType =
        switch (t.kind()) {
          case INT -> new ArrowType.Int(8 * t.byteWidth(), true);
          case UINT -> new ArrowType.Int(8 * t.byteWidth(), false);
          default -> new ArrowType.FloatingPoint(
              switch (t.byteWidth()) {
                case 2 -> FloatingPointPrecision.HALF;
                case 4 -> FloatingPointPrecision.SINGLE;
                default -> FloatingPointPrecision.DOUBLE;
              });
        };
  }

  @Override
  public NamedConfig toMetadata() {
    return NamedConfig.of(NAME, JsonNodeFactory.instance.objectNode().put("dtype", dtype.text()));
  }

  /** The Arrow field of chunks this codec serializes for {@code dtype}: non-null lists of non-null items. */
  Field field() {
    return new Field("x", org.apache.arrow.vector.types.pojo.FieldType.notNullable(ArrowType.List.INSTANCE),
        List.of(new Field("item", org.apache.arrow.vector.types.pojo.FieldType.notNullable(itemType), null)));
  }

  @Override
  public void validate(ChunkSpec spec) {
    if (spec.dataType() instanceof ArrowDataType arrow) {
      Field f = arrow.memoryField();
      if (f.getType() instanceof ArrowType.List && f.getChildren().size() == 1 && f.getChildren().get(0).getType().equals(itemType)) {
        return;
      }
    }
    throw new CodecException("codec " + NAME + " with dtype " + dtype.text() + " serializes the arrow data type with field list<"
        + itemType + ">, not " + spec.dataType().name() + (spec.dataType() instanceof ArrowDataType a ? " " + a.memoryField() : ""));
  }

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    validate(spec);
    ListVector list = (ListVector) chunk;
    FieldVector items = (FieldVector) list.getDataVector();
    if (Buffers.hasNulls(items)) {
      throw new CodecException("codec " + NAME + ": numcodecs' arrays have no null items; " + items.getNullCount() + " found");
    }
    int count = list.getValueCount();
    int width = dtype.type().byteWidth();
    ArrowBuf offsets = list.getOffsetBuffer();
    long size = 4;
    for (int i = 0; i < count; i++) {
      if (!list.isNull(i)) {
        size += (long) (offsets.getInt(4L * (i + 1)) - offsets.getInt(4L * i)) * width;
      }
      size += 4;
    }
    if (size > Sizes.MAX_BUFFER) {
      throw new CodecException("codec " + NAME + ": the chunk encodes to " + size + " bytes, more than one buffer holds; use smaller chunks");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(count);
    ArrowBuf data = items.getDataBuffer();
    for (int i = 0; i < count; i++) {
      int start = offsets.getInt(4L * i);
      int n = list.isNull(i) ? 0 : offsets.getInt(4L * (i + 1)) - start;
      out.putInt(n * width);
      copyItems(data, (long) start * width, out, n, width);
    }
    return out.flip();
  }

  /** {@code n} items of {@code width} bytes from Arrow memory to {@code out}, swapped when dtype is big-endian. */
  private void copyItems(ArrowBuf data, long from, ByteBuffer out, int n, int width) {
    int bytes = n * width;
    if (!dtype.bigEndian() || width == 1) {
      data.getBytes(from, out.slice(out.position(), bytes));
      out.position(out.position() + bytes);
      return;
    }
    switch (width) {
      case 2 -> { for (int k = 0; k < n; k++) out.putShort(Short.reverseBytes(data.getShort(from + 2L * k))); }
      case 4 -> { for (int k = 0; k < n; k++) out.putInt(Integer.reverseBytes(data.getInt(from + 4L * k))); }
      default -> { for (int k = 0; k < n; k++) out.putLong(Long.reverseBytes(data.getLong(from + 8L * k))); }
    }
  }

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    validate(spec);
    ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int base = in.position();
    int end = in.limit();
    if (end - base < 4) {
      throw new CorruptChunkException("codec " + NAME + ": " + (end - base) + " bytes hold no 4-byte element count");
    }
    long count = Integer.toUnsignedLong(in.getInt(base));
    if (count != spec.size()) {
      throw new CorruptChunkException("codec " + NAME + ": the header counts " + count + " elements, the chunk has " + spec.size());
    }
    int width = dtype.type().byteWidth();
    // First pass: check every length against what remains, and count the items.
    long total = 0;
    int p = base + 4;
    for (int i = 0; i < count; i++) {
      if (end - p < 4) {
        throw new CorruptChunkException("codec " + NAME + ": element " + i + " of " + count + " has no length: the chunk ends after " + (p - base) + " bytes");
      }
      long length = Integer.toUnsignedLong(in.getInt(p));
      p += 4;
      if (length > end - p) {
        throw new CorruptChunkException("codec " + NAME + ": element " + i + " declares " + length + " bytes, only " + (end - p) + " remain");
      }
      if (length % width != 0) {
        throw new CorruptChunkException("codec " + NAME + ": element " + i + " has " + length + " bytes, not whole " + dtype.text() + " items of " + width);
      }
      p += (int) length;
      total += length / width;
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new CorruptChunkException("codec " + NAME + ": " + total + " items are more than one list vector holds");
    }
    ArrowBuf offsets = allocator.buffer(4L * (count + 1));
    ArrowBuf data = null;
    try {
      data = allocator.buffer(Math.max(1, total * width));
      p = base + 4;
      int at = 0;
      offsets.setInt(0, 0);
      for (int i = 0; i < count; i++) {
        int length = in.getInt(p);
        p += 4;
        int n = length / width;
        readItems(in, p, data, (long) at * width, n, width);
        p += length;
        at += n;
        offsets.setInt(4L * (i + 1), at);
      }
      ListVector list = (ListVector) spec.dataType().field("").createVector(allocator);
      try {
        list.loadFieldBuffers(new ArrowFieldNode(count, 0), List.of(allocator.getEmpty(), offsets));
        ((FieldVector) list.getDataVector()).loadFieldBuffers(new ArrowFieldNode(total, 0), List.of(allocator.getEmpty(), data));
        return list;
      } catch (RuntimeException e) {
        list.close();
        throw e;
      }
    } finally {
      offsets.close();
      if (data != null) {
        data.close();
      }
    }
  }

  private void readItems(ByteBuffer in, int p, ArrowBuf data, long to, int n, int width) {
    if (!dtype.bigEndian() || width == 1) {
      data.setBytes(to, in.slice(p, n * width));
      return;
    }
    switch (width) {
      case 2 -> { for (int k = 0; k < n; k++) data.setShort(to + 2L * k, Short.reverseBytes(in.getShort(p + 2 * k))); }
      case 4 -> { for (int k = 0; k < n; k++) data.setInt(to + 4L * k, Integer.reverseBytes(in.getInt(p + 4 * k))); }
      default -> { for (int k = 0; k < n; k++) data.setLong(to + 8L * k, Long.reverseBytes(in.getLong(p + 8 * k))); }
    }
  }

  /** Makes {@code vlen-array} codecs. */
  static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(NAME);
    }

    @Override
    public VlenArrayCodec create(NamedConfig metadata, CodecContext context) {
      return new VlenArrayCodec(Configs.dtype(metadata, "dtype", null));
    }
  }
}
