package dev.zarrow.cli;

import dev.zarrow.dataset.Dataset;
import dev.zarrow.dataset.DatasetOptions;
import dev.zarrow.table.ArrayReader;
import dev.zarrow.table.TableReader;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.ipc.IpcStreamWriter;
import dev.zarrow.ipc.SchemaRootReader;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ZarrNode;
import dev.zarrow.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow export STORE PATH OUT [--format stream|file] [--batch-rows N] [--column NAME]...}: a group
 * table (see {@link dev.zarrow.table.TableReader}; only a group that claims a table, unless {@code
 * --aligned-arrays}) or a single array ({@link dev.zarrow.table.ArrayReader}); with {@code --dataset
 * [--variable NAME]... [--raw]} a gridded dataset (xarray's group) as the table of its grid ({@link
 * dev.zarrow.dataset.DatasetTable}, in batches of parts of the grid's chunks); as an Arrow IPC stream, or with
 * {@code --format file} an Arrow IPC file (random access; one batch when there are dictionary-encoded
 * columns, since a file cannot replace a dictionary), written to OUT ({@code -}
 * for stdout) through a temporary file beside it ({@code .OUT.*.part}, made like any new file, under
 * the umask), renamed into place once complete. The temporary file is removed when the export fails
 * and when the process is stopped by SIGINT or SIGTERM (a shutdown hook), so OUT is whole or untouched.
 * An OUT that exists and is no regular file (a device such as /dev/null, a named pipe) is written in
 * place: a rename would replace it.
 * A failure to write is a data error (exit 3), reported in one line. Progress on stderr.
 */
@Command(
    name = "export",
    description = {
      "Write a group table or a single array as an Arrow IPC stream (or --format file: an IPC file), restoring the table's original schema"
          + " (names, types, nullability, metadata, dictionaries). A rank >= 2 array becomes rows of"
          + " arrow.fixed_shape_tensor. With --dataset, a gridded dataset (an xarray group; PATH '' or / is the root)"
          + " as one row per grid cell: a column per dimension, coordinate and variable, CF-decoded. OUT '-' is stdout."
    })
final class ExportCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String storeDir;

  @Parameters(index = "1", paramLabel = "PATH", description = "The group (a table) or array to export.")
  String path;

  @Parameters(index = "2", paramLabel = "OUT", description = "The file to write (replaced; a device or named pipe is written in place), or - for stdout.")
  String out;

  /** The two Arrow IPC formats. */
  enum Format { stream, file }

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "stream", description = "stream (default): an Arrow IPC"
      + " stream (.arrows); file: an Arrow IPC file (.arrow, random access; with dictionary-encoded columns one batch,"
      + " since a file cannot replace a dictionary).")
  Format format;

  @Option(names = "--batch-rows", paramLabel = "N", description = "Rows per record batch (default: a chunk's rows).")
  int batchRows;

  @Option(names = "--column", paramLabel = "NAME", description = "Export only this column of a group table (repeat, in order).")
  List<String> columns;

  @Option(names = "--aligned-arrays", description = "Export a group that holds no table (no zarrow_table attribute, e.g."
      + " written by another tool) as the table of its aligned child arrays.")
  boolean alignedArrays;

  @Option(names = "--dataset", description = "Export PATH, a group written by xarray (arrays with dimension names), as"
      + " the table xarray's to_dataframe().reset_index() gives, chunk by chunk over the grid.")
  boolean dataset;

  @Option(names = "--variable", paramLabel = "NAME", description = "With --dataset: export this data variable (repeat;"
      + " default: all). The table's grid is the union of their dimensions.")
  List<String> variables;

  @Option(names = "--raw", description = "With --dataset: the stored values, without CF decoding (no masking, scaling,"
      + " times or booleans).")
  boolean raw;

  @Override
  public Integer call() throws IOException {
    if (!dataset && (variables != null || raw)) {
      throw usage("--variable and --raw apply to --dataset");
    }
    if (dataset && (batchRows != 0 || alignedArrays)) {
      throw usage("--dataset exports batches of parts of the grid's chunks: --batch-rows and --aligned-arrays do not apply");
    }
    if (batchRows < 0) {
      throw usage("--batch-rows must be 0 or more, not " + batchRows);
    }
    String nodePath = nodePath(path);
    Path target = out.equals("-") ? null : Path.of(out).toAbsolutePath();
    if (target != null && !Files.isDirectory(target.getParent())) {
      throw usage("OUT's directory " + target.getParent() + " does not exist");
    }
    if (target != null && Files.isDirectory(target)) {
      throw usage("OUT " + target + " is a directory");
    }
    try (Store store = openExisting(storeDir); BufferAllocator allocator = new RootAllocator()) {
      ZarrNode node = Zarr.open(store, nodePath, options());
      if (dataset && !(node instanceof ZarrGroup)) {
        throw usage("--dataset exports a group; '" + nodePath + "' is an array");
      }
      if (columns != null && !(node instanceof ZarrGroup)) {
        throw usage("--column applies to group tables; '" + nodePath + "' is an array");
      }
      if (node instanceof ZarrGroup g && !dataset && !alignedArrays && !TableReader.holdsTable(g)) {
        throw new NoSuchNodeException("export: '" + nodePath + "' in " + storeDir + " is a group that holds no table (no "
            + "zarrow_table attribute: not written as a table, or an import that did not finish); --aligned-arrays exports"
            + " its aligned child arrays anyway");
      }
      String what = (dataset ? "dataset '" : node instanceof ZarrGroup ? "table '" : "array '") + nodePath + "'";
      try (ArrowReader reader = reader(node, allocator)) {
        if (target == null) {
          out().flush();
          // The writer closes its channel: stdout must stay open for whoever runs us in-process.
          OutputStream stdout = new java.io.FilterOutputStream(main.stdoutBytes) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
              flush();
            }
          };
          long[] done = write(reader, Channels.newChannel(stdout), what);
          report(what, "stdout", done);
        } else if (Files.exists(target) && !Files.isRegularFile(target)) {
          report(what, target.toString(), writeInPlace(reader, target, what));
        } else {
          report(what, target.toString(), writeFile(reader, target, what));
        }
      }
    }
    return Main.OK;
  }

  /** The reader of the node; for an IPC file with dictionary-encoded columns, of one batch. */
  private ArrowReader reader(ZarrNode node, BufferAllocator allocator) throws IOException {
    ArrowReader reader = reader(node, allocator, batchRows);
    if (format == Format.file && reader instanceof SchemaRootReader r
        && r.storedSchema().getFields().stream().anyMatch(ExportCommand::hasDictionary)) {
      reader.close();
      return reader(node, allocator, Integer.MAX_VALUE);
    }
    return reader;
  }

  private ArrowReader reader(ZarrNode node, BufferAllocator allocator, int rows) {
    if (dataset) {
      return Dataset.open((ZarrGroup) node).table(new DatasetOptions(variables, columns, raw)).reader(allocator);
    }
    return node instanceof ZarrGroup g
        ? (alignedArrays ? TableReader.ofAlignedArrays(g, allocator, columns, rows) : TableReader.of(g, allocator, columns, rows))
        : ArrayReader.of((ZarrArray) node, allocator, rows);
  }

  private static boolean hasDictionary(Field field) {
    return field.getDictionary() != null || field.getChildren().stream().anyMatch(ExportCommand::hasDictionary);
  }

  /**
   * Writes the stream to a temporary file beside {@code target} and renames it into place; the
   * temporary file goes when anything fails, and on SIGINT/SIGTERM. Returns {rows, batches, bytes}.
   */
  private long[] writeFile(ArrowReader reader, Path target, String what) {
    Path temp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".part");
    Thread cleanup = new Thread(() -> deleteQuietly(temp), "zarrow export cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      long[] done;
      // Made like any new file (the umask applies), unlike Files.createTempFile's owner-only mode.
      try (FileChannel file = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        done = write(reader, file, what);
      }
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return done;
    } catch (IOException e) {
      throw new StoreException("export: cannot write " + target + ": " + reason(e), e);
    } finally {
      deleteQuietly(temp);
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs (or ran) anyway
      }
    }
  }

  /**
   * Writes the stream straight into {@code target}, an existing file that is not a regular one (a
   * device such as /dev/null, a named pipe): renaming a temporary file over it would replace the
   * device or pipe with a regular file (and, for /dev/null, write the whole table into memory first).
   */
  private long[] writeInPlace(ArrowReader reader, Path target, String what) {
    try (FileChannel sink = FileChannel.open(target, StandardOpenOption.WRITE)) {
      return write(reader, sink, what);
    } catch (IOException e) {
      throw new StoreException("export: cannot write " + target + ": " + reason(e), e);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof FileSystemException f) {
      return f.getReason() != null ? f.getReason() : e.getClass().getSimpleName().replace("Exception", "");
    }
    return String.valueOf(e.getMessage());
  }

  private static void deleteQuietly(Path temp) {
    try {
      Files.deleteIfExists(temp);
    } catch (IOException ignored) {
      // nothing more to do: the export failed already, or the process is stopping
    }
  }

  /**
   * Writes the stream; returns {rows, batches, bytes}. A file's channel takes each Arrow buffer in one
   * write from its memory; a stream's wrapper would copy it through 8 KiB arrays, a system call each.
   */
  private long[] write(ArrowReader reader, WritableByteChannel sink, String what) throws IOException {
    long rows = 0;
    long batches = 0;
    ProgressLine progress = new ProgressLine(err());
    try (IpcStreamWriter writer = format == Format.file
        ? IpcStreamWriter.file(reader, sink) : new IpcStreamWriter(reader, sink)) {
      try {
        writer.start();
        while (reader.loadNextBatch()) {
          writer.writeBatch();
          rows += reader.getVectorSchemaRoot().getRowCount();
          batches++;
          long rowsSoFar = rows;
          long batchesSoFar = batches;
          progress.update(() -> "export: " + what + ": " + rowsSoFar + " rows in " + batchesSoFar + " batches so far");
        }
        writer.end();
      } catch (IOException e) {
        throw new StoreException("export: cannot write " + (out.equals("-") ? "stdout" : out) + ": " + e.getMessage(), e);
      } catch (IllegalStateException e) { // a dictionary the IPC file cannot replace (past 2^31 - 1 rows)
        throw new UnsupportedExtensionException("export: " + what + ": " + e.getMessage(), e);
      }
      return new long[] {rows, batches, writer.bytesWritten()};
    }
  }

  private void report(String what, String where, long[] done) {
    err().println("export: wrote " + what + " to " + where + " (IPC " + format + "): " + done[0] + " rows in " + done[1] + " batches, "
        + done[2] + " bytes");
  }
}
