package dev.zarrow.codec.vlen;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.codec.ArrayToBytesCodec;
import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecContext;
import dev.zarrow.codec.CodecFactory;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.vector.VlenBuffers;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code vlen-utf8}, {@code vlen-bytes} and {@code zarrs.vlen_v2}: the interleaved layout of numcodecs'
 * VLenUTF8/VLenBytes that zarr-python, zarrs, zarrita and GDAL read and write.
 *
 * <p>Spec: zarr-extensions codecs/vlen-utf8 and vlen-bytes (numcodecs "vlen" docs); zarrs'
 * {@code zarrs.vlen_v2} is the same layout for any variable-length type. Configuration: none. Grammar
 * of a chunk of n elements:
 * <pre>
 * chunk := count item{n}
 * count := u32 little-endian, equal to n
 * item  := length (u32 little-endian) byte{length}
 * </pre>
 * nothing after the last item. {@code vlen-utf8} serializes {@code string} and {@code large_string},
 * {@code vlen-bytes} serializes {@code bytes} and {@code large_binary}, {@code zarrs.vlen_v2} any of them.
 *
 * <p>Decoding is one pass that copies each element's bytes straight into preallocated Arrow memory
 * and writes its offset (the data size is known from the chunk size: the bytes minus the 4 + 4n header
 * bytes, so one exact allocation holds offsets and data), with no object per element. Every length is
 * checked against what is left before it is used, so the offsets need no second pass.
 */
public final class VlenInterleavedCodec implements ArrayToBytesCodec {
  /** The names this codec is read under; the first three are also written. */
  public static final String UTF8 = "vlen-utf8";
  public static final String BYTES = "vlen-bytes";
  public static final String ANY = "zarrs.vlen_v2";
  private static final String ANY_URL = "https://codec.zarrs.dev/array_to_bytes/vlen_v2";

  private static final int SLACK = 32;

  private final NamedConfig metadata;
  private final CodecOptions options;

  private VlenInterleavedCodec(NamedConfig metadata, CodecOptions options) {
    this.metadata = metadata;
    this.options = options;
  }

  /** The codec named {@code name} ({@link #UTF8}, {@link #BYTES} or {@link #ANY}). */
  public static VlenInterleavedCodec of(String name, CodecOptions options) {
    return new VlenInterleavedCodec(metadata(name), options);
  }

  /** {@code {"name": name, "configuration": {}}}, as zarr-python writes it. */
  public static NamedConfig metadata(String name) {
    return NamedConfig.of(name, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
  }

  @Override
  public NamedConfig toMetadata() {
    return metadata;
  }

  private VarLenType type(ChunkSpec spec) {
    VarLenType type = VarLenCodecs.type(spec, name());
    if (name().equals(UTF8) && !type.isText()) {
      throw new CodecException("codec vlen-utf8 serializes string and large_string, not " + type.name()
          + "; use vlen-bytes (or zarrs.vlen_v2, which takes any variable-length type)");
    }
    if (name().equals(BYTES) && type.isText()) {
      throw new CodecException("codec vlen-bytes serializes bytes and large_binary, not " + type.name()
          + "; use vlen-utf8 (or zarrs.vlen_v2, which takes any variable-length type)");
    }
    return type;
  }

  @Override
  public void validate(ChunkSpec spec) {
    type(spec);
  }

  @Override
  public ByteBuffer encode(FieldVector chunk, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = type(spec);
    VlenBuffers.Parts parts = VarLenCodecs.parts(type, chunk);
    int n = parts.count();
    ByteBuffer out = VarLenCodecs.allocate(4 + 4L * n + parts.dataLength(), name());
    long to = VarLenCodecs.address(out);
    long from = parts.data().memoryAddress();
    VarLenCodecs.putIntLE(to, n);
    long pos = to + 4;
    long start = parts.first();
    for (int i = 0; i < n; i++) {
      long end = parts.offset(i + 1);
      int length = (int) (end - start); // fits: the whole chunk is under 2 GiB
      VarLenCodecs.putIntLE(pos, length);
      MemoryUtil.copyMemory(from + start, pos + 4, length);
      pos += 4 + length;
      start = end;
    }
    return out;
  }

  @Override
  public FieldVector decode(ByteBuffer bytes, ChunkSpec spec, BufferAllocator allocator) {
    VarLenType type = type(spec);
    ByteBuffer in = VarLenCodecs.direct(bytes);
    try {
      return VarLenCodecs.checked(decode(in, type, spec.size(), allocator), type, options);
    } finally {
      Reference.reachabilityFence(in); // read by address below
    }
  }

  private FieldVector decode(ByteBuffer in, VarLenType type, int n, BufferAllocator allocator) {
    long base = VarLenCodecs.address(in);
    long length = in.remaining();
    if (length < 4) {
      throw corrupt("truncated header: " + length + " bytes cannot hold the 4-byte item count");
    }
    long count = VarLenCodecs.getIntLE(base) & 0xffffffffL;
    if (count != n) {
      throw corrupt("the header counts " + count + " items, the chunk has " + n + " elements");
    }
    long header = 4 + 4L * n;
    if (length < header) {
      throw corrupt("truncated: " + length + " bytes cannot hold the lengths of " + n + " items (" + header + " bytes at least)");
    }
    // Well-formed, the rest is exactly the element bytes: allocate it once.
    long dataLength = length - header;
    if (dataLength > type.maxDataBytes()) {
      throw type.tooLarge(dataLength);
    }
    boolean wide = type.offsetWidth() == 8;
    long sourceEnd = base + length;
    // One exact, unzeroed allocation holds the offsets, then (64-byte aligned) the data and SLACK spare
    // bytes that let short items move as whole 8-byte words (see below). The loop writes the offsets and
    // the data whole; the padding and the slack between and after them are never part of the vector.
    long offsetsLength = (long) (n + 1) * type.offsetWidth();
    long dataStart = VarLenCodecs.pad64(offsetsLength);
    try (ArrowBuf all = Buffers.allocateUninitialized(allocator, dataStart + dataLength + SLACK)) {
      ArrowBuf offsets = all.slice(0, offsetsLength);
      ArrowBuf data = all.slice(dataStart, dataLength + SLACK);
      long offsetsAt = offsets.memoryAddress();
      long dataAt = data.memoryAddress();
      long pos = base + 4;
      long out = 0;
      if (wide) {
        MemoryUtil.putLong(offsetsAt, 0);
      } else {
        MemoryUtil.putInt(offsetsAt, 0);
      }
      for (int i = 0; i < n; i++) {
        long itemLength = VarLenCodecs.getIntLE(pos) & 0xffffffffL;
        // Room for this item and the length fields of the items after it: pos stays in bounds too.
        if (itemLength > dataLength - out) {
          throw corrupt("item " + i + " (at byte " + (pos - base) + ") claims " + itemLength + " bytes, but only "
              + (dataLength - out) + " remain for it" + (i + 1 < n ? " after the lengths of the " + (n - i - 1) + " items after it" : ""));
        }
        long from = pos + 4;
        long to = dataAt + out;
        if (itemLength <= SLACK && from + SLACK <= sourceEnd) {
          // Short items move as four words, without a branch on their length (random lengths would
          // mispredict) and without a copy call. The words may read bytes of the next items (still inside
          // the chunk) and write past this item, into bytes the next items overwrite or into the slack.
          MemoryUtil.putLong(to, MemoryUtil.getLong(from));
          MemoryUtil.putLong(to + 8, MemoryUtil.getLong(from + 8));
          MemoryUtil.putLong(to + 16, MemoryUtil.getLong(from + 16));
          MemoryUtil.putLong(to + 24, MemoryUtil.getLong(from + 24));
        } else {
          MemoryUtil.copyMemory(from, to, itemLength);
        }
        out += itemLength;
        pos = from + itemLength;
        if (wide) {
          MemoryUtil.putLong(offsetsAt + 8L * (i + 1), out);
        } else {
          MemoryUtil.putInt(offsetsAt + 4L * (i + 1), (int) out);
        }
      }
      if (out != dataLength) {
        throw corrupt((dataLength - out) + " bytes follow the last of the " + n + " items");
      }
      // The offsets start at 0, never decrease and end at dataLength: each length was checked above.
      return VlenBuffers.fromBuiltBuffers(type.field(""), offsets, data.slice(0, dataLength), n, allocator);
    }
  }

  private CorruptChunkException corrupt(String message) {
    return new CorruptChunkException("codec " + name() + ": " + message);
  }

  @Override
  public String toString() {
    return name();
  }

  /** Makes the interleaved codecs under all their names. */
  public static final class Factory implements CodecFactory {
    @Override
    public List<String> names() {
      return List.of(UTF8, BYTES, ANY, ANY_URL);
    }

    @Override
    public VlenInterleavedCodec create(NamedConfig metadata, CodecContext context) {
      if (!metadata.config().isEmpty()) {
        throw new MetadataException("/configuration: codec " + metadata.name() + " takes no options");
      }
      String name = metadata.name().equals(ANY_URL) ? ANY : metadata.name();
      NamedConfig kept = metadata.withName(name);
      return new VlenInterleavedCodec(kept, context.options());
    }
  }
}
