package dev.zarrow.cli;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.flatbuf.Message;

/**
 * An Arrow IPC stream read message by message, each length checked before Arrow's reader allocates
 * for it: Arrow reads a message's metadata length and allocates that much at once, then its body
 * length and allocates that, so the first four bytes of any file (a text file's "abcd" is 1.7 GB)
 * would be taken on trust. Here the metadata length, and the body length its metadata gives, must fit
 * in the bytes that remain (when the input's size is known), and the metadata is read in pieces
 * before Arrow sees it (when it is not), so a bad length fails at once, naming the message and the
 * byte where it starts. Framing: an optional continuation marker {@code 0xFFFFFFFF}, the little-endian
 * int32 metadata length (0 ends the stream), the metadata (a flatbuffer {@code Message}), the body.
 */
final class CheckedIpcStream extends InputStream {
  private static final int CONTINUATION = 0xFFFFFFFF;
  private static final int PIECE = 1 << 16;

  private final InputStream in;
  private final long size;
  private long position;
  private int messages;
  /** Prefix and metadata of the current message, checked, not yet handed on. */
  private byte[] head = new byte[0];
  private int headAt;
  /** Body bytes of the current message not yet handed on. */
  private long body;
  private boolean ended;

  /** {@code in} of {@code size} bytes, or of unknown size when {@code size} is negative. */
  CheckedIpcStream(InputStream in, long size) {
    this.in = in;
    this.size = size;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (headAt == head.length && body == 0 && !ended && !nextMessage()) {
      return -1;
    }
    if (headAt < head.length) {
      int n = Math.min(len, head.length - headAt);
      System.arraycopy(head, headAt, b, off, n);
      headAt += n;
      return n;
    }
    int n = in.read(b, off, ended ? len : (int) Math.min(len, body));
    if (n > 0) {
      position += n;
      if (!ended) {
        body -= n;
      }
    }
    return n;
  }

  /** Reads and checks the next message's prefix and metadata; false at the end of the input. */
  private boolean nextMessage() throws IOException {
    long start = position;
    byte[] prefix = readUpTo(4);
    if (prefix.length == 0) {
      return false; // the end of the input, where a message could start: Arrow takes it as the end
    }
    messages++;
    if (prefix.length < 4) {
      throw new EOFException(where(start) + ": " + prefix.length + " bytes where a message length should be");
    }
    int length = littleEndian(prefix, 0);
    if (length == CONTINUATION) {
      byte[] more = readUpTo(4);
      if (more.length < 4) {
        throw new EOFException(where(start) + ": the input ends inside the message length");
      }
      prefix = Arrays.copyOf(prefix, 8);
      System.arraycopy(more, 0, prefix, 4, 4);
      length = littleEndian(more, 0);
    }
    if (length == 0) {
      ended = true; // end of stream: what follows is not Arrow's business
      head = prefix;
      headAt = 0;
      return true;
    }
    if (length < 0 || (size >= 0 && length > size - position)) {
      throw new IOException(where(start) + " says its metadata is " + Integer.toUnsignedLong(length) + " bytes, but "
          + (size >= 0 ? "only " + (size - position) + " bytes follow" : "that is not a length"));
    }
    byte[] metadata = readUpTo(length);
    if (metadata.length < length) {
      throw new EOFException(where(start) + ": its metadata of " + length + " bytes is cut off after " + metadata.length);
    }
    long bodyLength;
    try {
      bodyLength = Message.getRootAsMessage(ByteBuffer.wrap(metadata).order(ByteOrder.LITTLE_ENDIAN)).bodyLength();
    } catch (RuntimeException e) {
      throw new IOException(where(start) + ": its metadata is not an Arrow message (" + e + ")", e);
    }
    if (bodyLength < 0 || (size >= 0 && bodyLength > size - position)) {
      throw new IOException(where(start) + " says its body is " + bodyLength + " bytes, but "
          + (size >= 0 ? "only " + (size - position) + " bytes follow" : "that is not a length"));
    }
    head = new byte[prefix.length + metadata.length];
    System.arraycopy(prefix, 0, head, 0, prefix.length);
    System.arraycopy(metadata, 0, head, prefix.length, metadata.length);
    headAt = 0;
    body = bodyLength;
    return true;
  }

  private String where(long start) {
    return "message " + messages + " at byte " + start;
  }

  /** Up to {@code n} bytes (fewer only at the end of the input), read in pieces: memory follows what arrives. */
  private byte[] readUpTo(int n) throws IOException {
    byte[] out = new byte[Math.min(n, PIECE)];
    int got = 0;
    while (got < n) {
      if (got == out.length) {
        out = Arrays.copyOf(out, (int) Math.min(n, (long) out.length * 2));
      }
      int r = in.read(out, got, out.length - got);
      if (r < 0) {
        break;
      }
      got += r;
      position += r;
    }
    return got == out.length ? out : Arrays.copyOf(out, got);
  }

  private static int littleEndian(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
