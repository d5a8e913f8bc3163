package dev.zarrow.codec.arrow;

import com.github.luben.zstd.Zstd;
import com.google.flatbuffers.FlatBufferBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Arrow IPC streams for tests: written by Arrow Java, or assembled message by message to break rules. */
final class IpcBytes {
  private IpcBytes() {}

  /** A schema message with {@code fields} (stored form), as Arrow Java writes it. */
  static byte[] schema(Field... fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), new Schema(List.of(fields)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A node: {length, nullCount}. A buffer: {offset, length} in the body. */
  static byte[] batch(long rows, long[][] nodes, long[][] buffers, byte[] body) {
    return message(MessageHeader.RecordBatch, b -> recordBatch(b, rows, nodes, buffers, null, (byte) -1), body);
  }

  static byte[] batch(long rows, long[][] nodes, long[][] buffers, long[] variadic, byte compression, byte[] body) {
    return message(MessageHeader.RecordBatch, b -> recordBatch(b, rows, nodes, buffers, variadic, compression), body);
  }

  static byte[] dictionary(long id, boolean delta, long rows, long[][] nodes, long[][] buffers, byte[] body) {
    return message(MessageHeader.DictionaryBatch, b -> {
      int data = recordBatch(b, rows, nodes, buffers, null, (byte) -1);
      return DictionaryBatch.createDictionaryBatch(b, id, data, delta);
    }, body);
  }

  /** The end-of-stream marker. */
  static byte[] eos() {
    return new byte[] {-1, -1, -1, -1, 0, 0, 0, 0};
  }

  private interface Header {
    int build(FlatBufferBuilder builder);
  }

  private static int recordBatch(
      FlatBufferBuilder b, long rows, long[][] nodes, long[][] buffers, long[] variadic, byte compression) {
    RecordBatch.startNodesVector(b, nodes.length);
    for (int i = nodes.length - 1; i >= 0; i--) {
      FieldNode.createFieldNode(b, nodes[i][0], nodes[i][1]);
    }
    int nodesAt = b.endVector();
    RecordBatch.startBuffersVector(b, buffers.length);
    for (int i = buffers.length - 1; i >= 0; i--) {
      Buffer.createBuffer(b, buffers[i][0], buffers[i][1]);
    }
    int buffersAt = b.endVector();
    int variadicAt = variadic == null ? 0 : RecordBatch.createVariadicBufferCountsVector(b, variadic);
    int compressionAt = compression < 0 ? 0 : BodyCompression.createBodyCompression(b, compression, (byte) 0);
    RecordBatch.startRecordBatch(b);
    b.forceDefaults(true);
    RecordBatch.addLength(b, rows);
    b.forceDefaults(false);
    RecordBatch.addNodes(b, nodesAt);
    RecordBatch.addBuffers(b, buffersAt);
    if (variadic != null) {
      RecordBatch.addVariadicBufferCounts(b, variadicAt);
    }
    if (compression >= 0) {
      RecordBatch.addCompression(b, compressionAt);
    }
    return RecordBatch.endRecordBatch(b);
  }

  private static byte[] message(byte type, Header header, byte[] body) {
    FlatBufferBuilder b = new FlatBufferBuilder();
    int headerAt = header.build(b);
    int paddedBody = (body.length + 7) & ~7;
    b.finish(Message.createMessage(b, MetadataVersion.V5, type, headerAt, paddedBody, 0));
    byte[] metadata = b.sizedByteArray();
    int padded = ((8 + metadata.length + 7) & ~7) - 8;
    ByteBuffer out = ByteBuffer.allocate(8 + padded + paddedBody).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(-1).putInt(padded).put(metadata);
    out.position(8 + padded);
    out.put(body);
    return out.array();
  }

  /** Little-endian bytes of ints. */
  static byte[] ints(int... values) {
    ByteBuffer out = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      out.putInt(v);
    }
    return out.array();
  }

  /** The concatenation of {@code parts}. */
  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** {@code bytes} in a fresh writable direct buffer (what stores hand to decoders). */
  static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  static byte[] array(ByteBuffer bytes) {
    byte[] out = new byte[bytes.remaining()];
    bytes.duplicate().get(out);
    return out;
  }

  /** A stream written by Arrow Java's own ArrowStreamWriter, one batch per root. */
  static byte[] arrowJava(List<VectorSchemaRoot> batches, DictionaryProvider dictionaries, IpcOption option,
      CompressionCodec.Factory compression, CompressionUtil.CodecType codec, BufferAllocator allocator) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    VectorSchemaRoot first = batches.get(0);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(first.getSchema(), allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, dictionaries, Channels.newChannel(out), option,
            compression, codec)) {
      writer.start();
      for (VectorSchemaRoot batch : batches) {
        try (ArrowRecordBatch data = new VectorUnloader(batch).getRecordBatch()) {
          new VectorLoader(root).load(data);
        }
        writer.writeBatch();
      }
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Compresses IPC buffers with ZSTD (zstd-jni), or pretends to use {@code type}. */
  static final class TestCompression implements CompressionCodec.Factory {
    private final CompressionUtil.CodecType type;

    TestCompression(CompressionUtil.CodecType type) {
      this.type = type;
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
      return new AbstractCompressionCodec() {
        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf plain) {
          byte[] in = new byte[(int) plain.writerIndex()];
          plain.getBytes(0, in);
          byte[] packed = Zstd.compress(in);
          ArrowBuf out = allocator.buffer(8L + packed.length);
          out.setBytes(8, packed);
          out.writerIndex(8L + packed.length);
          return out;
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf packed) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
          return type;
        }
      };
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int level) {
      return createCodec(codecType);
    }
  }
}
