package dev.zarrow.cli;

import dev.zarrow.error.CodecException;
import dev.zarrow.error.StoreException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;

/**
 * What {@code import} reads: a file, or standard input ({@code -}), its format told by its first bytes
 * ({@link ImportCommand#detect}). An IPC stream is read as it comes, through {@link CheckedIpcStream};
 * an IPC file or a JSON file from standard input is first copied to a temporary file (both need to
 * seek), removed by {@link #close}. Every length an IPC input gives is checked against its size
 * before Arrow allocates for it.
 */
final class ImportInput implements AutoCloseable {
  private static final int HEAD = 6;

  /** The input for messages: the file, or {@code stdin}. */
  final String name;
  final ImportCommand.Format format;
  private final Path file;
  private final InputStream stream;
  private final Path spool;

  private ImportInput(String name, ImportCommand.Format format, Path file, InputStream stream, Path spool) {
    this.name = name;
    this.format = format;
    this.file = file;
    this.stream = stream;
    this.spool = spool;
  }

  /** The input {@code argument} names: {@code -} is {@code stdin}. */
  static ImportInput open(Path argument, InputStream stdin) {
    if (!argument.toString().equals("-")) {
      return new ImportInput(argument.toString(), ImportCommand.detect(argument), argument, null, null);
    }
    BufferedInputStream in = new BufferedInputStream(stdin, 1 << 16);
    try {
      in.mark(HEAD);
      byte[] head = in.readNBytes(HEAD);
      in.reset();
      ImportCommand.Format format = ImportCommand.detect(head, head.length, "stdin");
      if (format == ImportCommand.Format.STREAM) {
        return new ImportInput("stdin", format, null, in, null);
      }
      Path spool = Files.createTempFile("zarrow-import-stdin", ".tmp");
      try {
        Files.copy(in, spool, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(spool);
        throw e;
      }
      return new ImportInput("stdin", format, spool, null, spool);
    } catch (IOException e) {
      throw new StoreException("cannot read stdin: " + e.getMessage(), e);
    }
  }

  /** The file to read (a JSON-integration file; for stdin, its temporary copy). */
  Path file() {
    return file;
  }

  /**
   * A reader of the IPC stream or file, its memory from {@code allocator}; the caller closes it. The
   * blocks an IPC file's footer lists are checked against the file's size here.
   */
  ArrowReader ipcReader(BufferAllocator allocator) throws IOException {
    if (format == ImportCommand.Format.STREAM) {
      InputStream in = stream != null ? stream : Files.newInputStream(file);
      return new ArrowStreamReader(new CheckedIpcStream(in, stream != null ? -1 : Files.size(file)), allocator);
    }
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    ArrowFileReader reader = new ArrowFileReader(channel, allocator);
    try {
      long size = channel.size();
      for (ArrowBlock block : concat(reader)) {
        long end = block.getOffset() + block.getMetadataLength() + block.getBodyLength();
        if (block.getOffset() < 0 || block.getMetadataLength() <= 0 || block.getBodyLength() < 0 || end < 0 || end > size) {
          throw new CodecException(name + ": not a readable Arrow IPC file: its footer lists a block of " + block.getMetadataLength()
              + " + " + block.getBodyLength() + " bytes at byte " + block.getOffset() + ", outside the file of " + size + " bytes");
        }
      }
      return reader;
    } catch (IOException | RuntimeException e) {
      reader.close();
      if (e instanceof CodecException c) {
        throw c;
      }
      throw new CodecException(name + ": not a readable Arrow IPC file: " + Main.oneLine(String.valueOf(e.getMessage())), e);
    }
  }

  private static Iterable<ArrowBlock> concat(ArrowFileReader reader) throws IOException {
    var all = new java.util.ArrayList<>(reader.getDictionaryBlocks());
    all.addAll(reader.getRecordBlocks());
    return all;
  }

  /** Removes the temporary copy of stdin. */
  @Override
  public void close() {
    if (spool != null) {
      try {
        Files.deleteIfExists(spool);
      } catch (IOException ignored) {
        // a file in the temporary directory that nothing points to
      }
    }
  }
}
