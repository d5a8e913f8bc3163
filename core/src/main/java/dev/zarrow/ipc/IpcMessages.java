package dev.zarrow.ipc;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;

/**
 * The encapsulated messages of an Arrow IPC stream held in memory, read without trusting it.
 *
 * <pre>
 * stream    = message* [eos]
 * message   = [0xFFFFFFFF] int32 metadata_length   (the continuation marker is absent before Arrow 0.15)
 *             metadata (a flatbuffer Message, metadata_length bytes including padding)
 *             body (Message.bodyLength bytes)
 * eos       = 0xFFFFFFFF 0x00000000 | 0x00000000
 * </pre>
 *
 * <p>Every length is checked against the bytes that remain before it is used; metadata that the
 * flatbuffer accessors cannot read is a {@link CorruptChunkException} naming the byte offset.
 * {@link IpcReader} reads the same grammar from a file through {@link #message}.
 */
public final class IpcMessages {
  private final ByteBuffer bytes;
  private final int size;
  private int position;
  private boolean ended;

  /** One message: its metadata, and where its body lies (in the stream, or the file) and how long it is. */
  public record Msg(Message message, byte headerType, short version, long bodyStart, long bodyLength, long at) {
    /** The header type's name, for messages. */
    public String kind() {
      return headerType >= 0 && headerType < MessageHeader.names.length ? MessageHeader.names[headerType]
          : "unknown (" + headerType + ")";
    }

    /** True for metadata version V4 (unions with validity bitmaps). */
    public boolean v4() {
      return version == MetadataVersion.V4;
    }

    /** The header, read into {@code table} (for example {@code new RecordBatch()}); corrupt when absent or unreadable. */
    public <T extends com.google.flatbuffers.Table> T header(T table) {
      try {
        @SuppressWarnings("unchecked")
        T t = (T) message.header(table);
        if (t == null) {
          throw corrupt(at, kind() + " message without a header");
        }
        return t;
      } catch (CorruptChunkException e) {
        throw e;
      } catch (RuntimeException e) {
        throw corrupt(at, "unreadable " + kind() + " header");
      }
    }
  }

  public IpcMessages(ByteBuffer stream) {
    this.bytes = stream.slice().order(ByteOrder.LITTLE_ENDIAN);
    this.size = bytes.remaining();
  }

  /** The next message, or null at the end-of-stream marker or at the end of the bytes. */
  public Msg next() {
    if (ended || position == size) {
      return null;
    }
    int at = position;
    if (size - at < 4) {
      throw corrupt(at, "truncated message length (" + (size - at) + " bytes left)");
    }
    int prefix = 4;
    int length = bytes.getInt(at);
    if (length == -1) {
      if (size - at < 8) {
        throw corrupt(at, "truncated message length after the continuation marker");
      }
      prefix = 8;
      length = bytes.getInt(at + 4);
    }
    if (length == 0) {
      position = at + prefix;
      ended = true;
      return null;
    }
    checkMetadataLength(length, at, size - at - prefix);
    Msg m = message(bytes.slice(at + prefix, length), at, at + prefix + length, size - at - prefix - length);
    position = (int) (m.bodyStart() + m.bodyLength());
    return m;
  }

  /** Bytes after the end-of-stream marker (0 when the stream ended cleanly). */
  public int trailing() {
    return size - position;
  }

  public boolean ended() {
    return ended;
  }

  /** Refuses a metadata length that is negative or longer than the {@code left} bytes after the prefix. */
  static void checkMetadataLength(int length, long at, long left) {
    if (length < 0 || length > left) {
      throw corrupt(at, "metadata length " + Integer.toUnsignedString(length) + " exceeds the " + left + " bytes left");
    }
  }

  /**
   * The message whose metadata is {@code metadata} (read at byte {@code at}), its body starting at
   * {@code bodyStart} with {@code left} bytes after that: the version must be V4 or V5 and the body
   * must fit.
   */
  static Msg message(ByteBuffer metadata, long at, long bodyStart, long left) {
    Message message;
    short version;
    byte type;
    long bodyLength;
    try {
      message = Message.getRootAsMessage(metadata.order(ByteOrder.LITTLE_ENDIAN));
      version = message.version();
      type = message.headerType();
      bodyLength = message.bodyLength();
    } catch (RuntimeException e) {
      throw corrupt(at, "unreadable message metadata (" + e.getClass().getSimpleName() + ")");
    }
    if (version != MetadataVersion.V4 && version != MetadataVersion.V5) {
      throw new UnsupportedExtensionException("Arrow IPC message at byte " + at + " has metadata version "
          + (version >= 0 && version < MetadataVersion.names.length ? MetadataVersion.names[version] : version)
          + "; supported: V4, V5");
    }
    if (bodyLength < 0 || bodyLength > left) {
      throw corrupt(at, "body length " + bodyLength + " exceeds the " + left + " bytes left");
    }
    return new Msg(message, type, version, bodyStart, bodyLength, at);
  }

  public static CorruptChunkException corrupt(long at, String what) {
    return new CorruptChunkException("Arrow IPC stream, message at byte " + at + ": " + what);
  }
}
