package dev.zarrow.ipc;

import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import dev.zarrow.memory.Buffers;
import dev.zarrow.vector.Gather;
import dev.zarrow.vector.Move;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An Arrow IPC stream or IPC file (told apart by the file magic {@code ARROW1}), or a stream read as
 * it arrives (standard input), read as an {@link org.apache.arrow.vector.ipc.ArrowReader}, trusting
 * nothing in it: every message length is checked against what remains before anything is read or
 * allocated (for an input of unknown length, memory grows only with the bytes that arrive), every
 * batch goes through {@link BatchLoader} (layout, buffers, offsets, type ids and memory checked before
 * use; ZSTD bodies decompressed), and everything read wrongly is a {@link CorruptChunkException}
 * naming the byte offset, or an {@link UnsupportedExtensionException} for valid Arrow that zarrow does
 * not read (LZ4 bodies, unions in metadata V4, 32- and 64-bit decimals, which Arrow Java 18 has no
 * vectors for). Whatever fails, nothing stays allocated once the reader is closed.
 *
 * <p>What Arrow Java's own readers do not: structs whose children repeat a name, sparse unions
 * whose members are shorter than the union (as apache-arrow writes them), delta dictionaries in
 * files and at any depth, compressed bodies, files whose schema is only in their footer (as
 * apache-arrow writes them). Dictionaries are replaced or extended (deltas) as their batches arrive;
 * {@link #lookup} gives those of the batch just loaded. The messages of an IPC file are read in
 * order, like a stream, up to its footer.
 *
 * <p><b>One root for every batch</b>: {@link #loadNextBatch} replaces what it held. The caller owns
 * the reader and closes it, which releases the root, the dictionaries and the input.
 */
public final class IpcReader extends SchemaRootReader {
  /** The most bytes loading one message may allocate besides its body (bitmaps Arrow makes, decompression). */
  public static final long DEFAULT_MAX_ALLOCATION = Integer.MAX_VALUE - 64;

  /** The magic of an IPC file, at its start (padded to 8 bytes) and its end. */
  static final byte[] MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};
  /** Bytes read at once from an input of unknown length: what is allocated ahead of the data. */
  private static final int PIECE = 1 << 20;

  /** The two IPC formats. */
  public enum Format { STREAM, FILE }

  private final ReadableByteChannel in;
  private final String name;
  private final Format format;
  /** Where the messages end (the footer of a file, the end of a stream); -1 when unknown. */
  private final long end;
  private final long maxAllocation;
  private long position;
  private boolean ended;
  private long bytesRead;
  private Schema schema;

  private IpcReader(ReadableByteChannel in, String name, Format format, long start, long end, Schema schema,
      BufferAllocator allocator, long maxAllocation) {
    super(allocator);
    this.in = in;
    this.name = name;
    this.format = format;
    this.position = start;
    this.end = end;
    this.schema = schema;
    this.maxAllocation = maxAllocation;
  }

  /**
   * A reader of the IPC stream or file {@code file}, its memory from {@code allocator}; the caller owns
   * the reader and closes it. A missing or unreadable file is a {@link StoreException}; a file too short
   * to be either format, a {@link CorruptChunkException}.
   */
  public static IpcReader open(Path file, BufferAllocator allocator) {
    return open(file, allocator, DEFAULT_MAX_ALLOCATION);
  }

  /** Like {@link #open(Path, BufferAllocator)}, with another limit on what loading one message may allocate. */
  public static IpcReader open(Path file, BufferAllocator allocator, long maxAllocation) {
    FileChannel channel;
    try {
      channel = FileChannel.open(file);
    } catch (NoSuchFileException e) {
      throw new StoreException("cannot read " + file + ": no such file");
    } catch (IOException e) {
      throw new StoreException("cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      long size = channel.size();
      byte[] head = new byte[MAGIC.length];
      if (size >= MAGIC.length && readFully(channel.position(0), ByteBuffer.wrap(head))
          && java.util.Arrays.equals(head, MAGIC)) {
        long footer = footerStart(channel, size);
        Schema schema = footerSchema(channel, footer, size - 10 - footer);
        return new IpcReader(channel.position(8), file.toString(), Format.FILE, 8, footer, schema, allocator, maxAllocation);
      }
      return new IpcReader(channel.position(0), file.toString(), Format.STREAM, 0, size, null, allocator, maxAllocation);
    } catch (IOException | RuntimeException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof ZarrException z) {
        throw z;
      }
      throw new StoreException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A reader of the IPC stream {@code in} (borrowed until the reader is closed, which closes it), read
   * as it arrives, its length unknown: {@code name} says where it comes from in messages. The caller
   * owns the reader and closes it.
   */
  public static IpcReader stream(InputStream in, String name, BufferAllocator allocator) {
    return new IpcReader(Channels.newChannel(in), name, Format.STREAM, 0, -1, null, allocator, DEFAULT_MAX_ALLOCATION);
  }

  /**
   * Where the footer of an IPC file of {@code size} bytes starts: {@code ARROW1}, padding, the
   * messages, the footer, its int32 length and {@code ARROW1} again.
   */
  private static long footerStart(FileChannel channel, long size) throws IOException {
    ByteBuffer tail = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
    if (size < 8 + 10 || !readFully(channel.position(size - 10), tail)) {
      throw new CorruptChunkException("Arrow IPC file of " + size + " bytes: too short for its magic and footer");
    }
    byte[] magic = new byte[MAGIC.length];
    tail.get(4, magic);
    int footer = tail.getInt(0);
    if (!java.util.Arrays.equals(magic, MAGIC) || footer <= 0 || footer > size - 8 - 10) {
      throw new CorruptChunkException("Arrow IPC file of " + size + " bytes: no footer at its end (truncated?)");
    }
    return size - 10 - footer;
  }

  /** The schema in the footer of an IPC file (the messages need not repeat it: apache-arrow's do not). */
  private static Schema footerSchema(FileChannel channel, long at, long length) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate((int) length).order(ByteOrder.LITTLE_ENDIAN);
    if (!readFully(channel.position(at), bytes)) {
      throw IpcMessages.corrupt(at, "the file ends inside its footer");
    }
    org.apache.arrow.flatbuf.Schema flat;
    short version;
    try {
      Footer footer = Footer.getRootAsFooter(bytes.flip());
      flat = footer.schema();
      version = footer.version();
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, "unreadable file footer (" + e.getClass().getSimpleName() + ")");
    }
    if (flat == null) {
      throw IpcMessages.corrupt(at, "the file footer has no schema");
    }
    return schema(flat, version == MetadataVersion.V4, at);
  }

  /** Reads {@code into} whole from where {@code in} is; false when the input ends first. */
  private static boolean readFully(ReadableByteChannel in, ByteBuffer into) throws IOException {
    while (into.hasRemaining()) {
      if (in.read(into) < 0) {
        return false;
      }
    }
    return true;
  }

  /** The format of the input. */
  public Format format() {
    return format;
  }

  @Override
  protected Schema readSchema() throws IOException {
    if (schema == null) {
      IpcMessages.Msg first = nextMessage();
      if (first == null) {
        throw new CorruptChunkException("Arrow IPC stream " + name + ": no schema message");
      }
      if (first.headerType() != MessageHeader.Schema) {
        throw IpcMessages.corrupt(first.at(), "the stream starts with a " + first.kind() + " message, not a schema");
      }
      schema = schema(first.header(new org.apache.arrow.flatbuf.Schema()), first.v4(), first.at());
    }
    return schema;
  }

  /** The schema of a schema message or footer at byte {@code at}, checked before and after conversion. */
  private static Schema schema(org.apache.arrow.flatbuf.Schema flat, boolean v4, long at) {
    IpcSchemas.checkShape(flat, at);
    Schema converted;
    try {
      converted = Schema.convertSchema(flat);
    } catch (UnsupportedOperationException e) {
      throw new UnsupportedExtensionException("Arrow IPC message at byte " + at + ": " + e.getMessage());
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(at, "unreadable schema (" + e.getMessage() + ")");
    }
    IpcSchemas.checkSupported(converted, v4, at);
    return converted;
  }

  /**
   * Loads dictionaries up to the next record batch, then the batch, into the root. Returns false
   * at the end of the stream.
   */
  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    VectorSchemaRoot root = root();
    for (IpcMessages.Msg m = nextMessage(); m != null; m = nextMessage()) {
      if (m.headerType() == MessageHeader.DictionaryBatch) {
        dictionary(m);
      } else if (m.headerType() == MessageHeader.Schema && format == Format.FILE && m.at() == 8) {
        continue; // a file may repeat its footer's schema as its first message
      } else if (m.headerType() == MessageHeader.RecordBatch) {
        RecordBatch batch = m.header(new RecordBatch());
        List<FieldVector> columns = load(m, batch, root.getSchema().getFields(), "record batch");
        try {
          for (int i = 0; i < columns.size(); i++) {
            Move.into(columns.get(i), root.getVector(i));
          }
        } finally {
          columns.forEach(FieldVector::close);
        }
        root.setRowCount((int) batch.length());
        return true;
      } else {
        throw IpcMessages.corrupt(m.at(), "unexpected " + m.kind() + " message");
      }
    }
    return false;
  }

  /** Replaces dictionary {@code id}'s vector, or appends a delta to it. */
  private void dictionary(IpcMessages.Msg m) throws IOException {
    DictionaryBatch batch = m.header(new DictionaryBatch());
    long id;
    boolean delta;
    RecordBatch data;
    try {
      id = batch.id();
      delta = batch.isDelta();
      data = batch.data();
    } catch (RuntimeException e) {
      throw IpcMessages.corrupt(m.at(), "unreadable dictionary batch");
    }
    Dictionary dictionary = lookup(id);
    if (dictionary == null) {
      throw IpcMessages.corrupt(m.at(), "dictionary batch for id " + id + ", which the schema does not use");
    }
    if (data == null) {
      throw IpcMessages.corrupt(m.at(), "dictionary batch without data");
    }
    FieldVector target = dictionary.getVector();
    Field field = dictionaryField(id);
    try (FieldVector loaded = load(m, data, List.of(field), "dictionary batch " + id).get(0)) {
      if (!delta) {
        Move.into(loaded, target);
        return;
      }
      try (FieldVector joined = Gather.gather(field, List.of(Gather.Run.of(target), Gather.Run.of(loaded)), allocator)) {
        Move.into(joined, target);
      }
    }
  }

  /** The columns of {@code batch}, its body read from the input and loaded by a {@link BatchLoader}. */
  private List<FieldVector> load(IpcMessages.Msg m, RecordBatch batch, List<Field> fields, String what) throws IOException {
    if (m.bodyLength() > Integer.MAX_VALUE - 64) {
      throw new UnsupportedExtensionException("Arrow IPC " + describe() + ", message at byte " + m.at() + ": a body of "
          + m.bodyLength() + " bytes; zarrow reads bodies of up to 2 GiB");
    }
    try (ArrowBuf body = body(m)) {
      return new BatchLoader(body, allocator, maxAllocation).loadColumns(batch, 0, m.bodyLength(), fields, m.at(), what);
    }
  }

  /**
   * The body of {@code m} in new memory: allocated at once when the input's length vouches for it,
   * otherwise grown piece by piece as the bytes arrive.
   */
  private ArrowBuf body(IpcMessages.Msg m) throws IOException {
    long length = m.bodyLength();
    long capacity = end >= 0 ? length : Math.min(length, PIECE);
    ArrowBuf body = Buffers.allocateUninitialized(allocator, capacity);
    try {
      long got = 0;
      while (got < length) {
        if (got == capacity) {
          long larger = Math.min(length, capacity * 2);
          ArrowBuf grown = Buffers.allocateUninitialized(allocator, larger);
          grown.setBytes(0, body, 0, got);
          body.close();
          body = grown;
          capacity = larger;
        }
        int n = in.read(body.nioBuffer(got, (int) (capacity - got)));
        if (n < 0) {
          throw IpcMessages.corrupt(m.at(), "the " + describe() + " ends inside the body, after " + got + " of " + length + " bytes");
        }
        got += n;
      }
      position += length;
      bytesRead += length;
      return body;
    } catch (IOException | RuntimeException e) {
      body.close();
      throw e;
    }
  }

  /**
   * The next message with its metadata read (its body, if any, is read next, by {@link #load}), or
   * null at the end-of-stream marker or at the end of the messages.
   */
  private IpcMessages.Msg nextMessage() throws IOException {
    if (ended || position == end) {
      return null;
    }
    long at = position;
    ByteBuffer prefix = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    int first = read(prefix);
    if (first == 0 && end < 0) {
      return null; // the end of an input of unknown length, where a message could start
    }
    if (first < 4) {
      throw IpcMessages.corrupt(at, "truncated message length (" + first + " bytes left)");
    }
    int skip = 4;
    int length = prefix.getInt(0);
    if (length == -1) {
      if (read(prefix.clear()) < 4) {
        throw IpcMessages.corrupt(at, "truncated message length after the continuation marker");
      }
      skip = 8;
      length = prefix.getInt(0);
    }
    if (length == 0) {
      ended = true;
      return null;
    }
    IpcMessages.checkMetadataLength(length, at, end >= 0 ? end - at - skip : Integer.MAX_VALUE);
    ByteBuffer metadata = metadata(length, at);
    long bodyStart = at + skip + length;
    IpcMessages.Msg m = IpcMessages.message(metadata, at, bodyStart, end >= 0 ? end - bodyStart : Long.MAX_VALUE);
    bytesRead += skip + length;
    if (m.headerType() == MessageHeader.Schema && m.bodyLength() > 0) {
      throw IpcMessages.corrupt(at, "a schema message with a body");
    }
    return m;
  }

  /** Fills {@code into} from the input as far as it goes; returns the bytes read (fewer only at its end). */
  private int read(ByteBuffer into) throws IOException {
    int got = 0;
    while (into.hasRemaining()) {
      int n = in.read(into);
      if (n < 0) {
        break;
      }
      got += n;
    }
    position += got;
    return got;
  }

  /** {@code length} bytes of metadata, read in pieces when the input's length is unknown (memory follows what arrives). */
  private ByteBuffer metadata(int length, long at) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(end >= 0 ? length : Math.min(length, PIECE));
    while (true) {
      read(out);
      if (out.position() == length) {
        return out.flip().order(ByteOrder.LITTLE_ENDIAN);
      }
      if (out.hasRemaining()) {
        throw IpcMessages.corrupt(at, "the " + describe() + " ends inside the message metadata");
      }
      out = ByteBuffer.allocate((int) Math.min(length, (long) out.capacity() * 2)).put(out.flip());
    }
  }

  private String describe() {
    return format == Format.FILE ? "file" : "stream";
  }

  @Override
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  protected void closeReadSource() throws IOException {
    in.close();
  }
}
