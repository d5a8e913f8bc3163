package dev.zarrow.cli;

import dev.zarrow.error.StoreException;
import dev.zarrow.ipc.IpcReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What {@code import} reads: a file, or standard input ({@code -}), its format told by its first bytes
 * ({@link ImportCommand#detect}). An IPC stream is read as it comes, by {@link IpcReader}; an IPC file
 * or a JSON file from standard input is first copied to a temporary file (both need to seek), removed
 * by {@link #close}.
 */
final class ImportInput implements AutoCloseable {

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
      in.mark(ImportCommand.HEAD);
      byte[] head = in.readNBytes(ImportCommand.HEAD);
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
   * zarrow's reader of the IPC stream or file, its memory from {@code allocator}; the caller closes it.
   * It checks every length against what remains (a stream from stdin: memory grows only with what
   * arrives) before anything is allocated for it.
   */
  IpcReader ipcReader(BufferAllocator allocator) {
    return stream != null ? IpcReader.stream(stream, name, allocator) : IpcReader.open(file, allocator);
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
