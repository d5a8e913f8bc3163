package dev.zarrow.codec.arrow;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.UnsupportedExtensionException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;

/**
 * The encapsulated messages of an Arrow IPC stream, read from memory without trusting it.
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
 */
final class IpcMessages {
  private final ByteBuffer bytes;
  private final int size;
  private int position;
  private boolean ended;

  /** One message: its metadata, and where its body lies in the stream. */
  record Msg(Message message, byte headerType, short version, int bodyStart, int bodyLength, int at) {
    String kind() {
      return headerType >= 0 && headerType < MessageHeader.names.length ? MessageHeader.names[headerType]
          : "unknown (" + headerType + ")";
    }
  }

  IpcMessages(ByteBuffer stream) {
    this.bytes = stream.slice().order(ByteOrder.LITTLE_ENDIAN);
    this.size = bytes.remaining();
  }

  /** The next message, or null at the end-of-stream marker or at the end of the bytes. */
  Msg next() {
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
    if (length < 0 || length > size - at - prefix) {
      throw corrupt(at, "metadata length " + Integer.toUnsignedString(length) + " exceeds the "
          + (size - at - prefix) + " bytes left");
    }
    ByteBuffer metadata = bytes.slice(at + prefix, length).order(ByteOrder.LITTLE_ENDIAN);
    Message message;
    short version;
    byte type;
    long bodyLength;
    try {
      message = Message.getRootAsMessage(metadata);
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
    int bodyStart = at + prefix + length;
    if (bodyLength < 0 || bodyLength > size - bodyStart) {
      throw corrupt(at, "body length " + bodyLength + " exceeds the " + (size - bodyStart) + " bytes left");
    }
    position = bodyStart + (int) bodyLength;
    return new Msg(message, type, version, bodyStart, (int) bodyLength, at);
  }

  /** Bytes after the end-of-stream marker (0 when the stream ended cleanly). */
  int trailing() {
    return size - position;
  }

  boolean ended() {
    return ended;
  }

  static CorruptChunkException corrupt(int at, String what) {
    return new CorruptChunkException("Arrow IPC stream, message at byte " + at + ": " + what);
  }
}
