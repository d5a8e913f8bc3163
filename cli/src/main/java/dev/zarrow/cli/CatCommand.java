package dev.zarrow.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.vector.JsonValueWriter;
import dev.zarrow.NdVector;
import dev.zarrow.dtype.DataType;
import dev.zarrow.grid.Box;
import dev.zarrow.store.Store;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow cat STORE PATH [--region R] [--json]}: the elements of an array (or a region of it) in C
 * order. With {@code --json}, one line {@code {"shape":[...],"data_type":...,"values":[...]}}; without,
 * one line per element: its index, a tab, its JSON value. Reads slab by slab (at most about a million
 * elements, and at most {@value #SLAB_BYTES} bytes of fixed-size ones, at a time; a chunk when one is
 * larger), so any array streams through bounded memory, records of megabytes as well as numbers. The
 * JSON document is printed whole or not at all: every slab is decoded before any of it is printed. An array or region of more
 * than {@code --max-elements} (default {@value #DEFAULT_MAX_ELEMENTS}) is refused before anything is
 * read, as a usage error that suggests {@code --region}: printing 2^62 elements would never end.
 */
@Command(
    name = "cat",
    description = {
      "Print the elements of an array in C order.",
      "--json prints {\"shape\":[...],\"data_type\":...,\"values\":[...]} on one line; otherwise one line per"
          + " element: index TAB value."
    })
final class CatCommand extends ZarrowCommand {
  /** Elements read at a time (more when one chunk is larger). */
  static final long SLAB_ELEMENTS = 1 << 20;

  /** Bytes of fixed-size elements read at a time: fewer elements when each is large (a record of megabytes). */
  static final long SLAB_BYTES = 16 << 20;

  /** The most elements cat prints unless told otherwise: about 100 MB of JSON numbers. */
  static final long DEFAULT_MAX_ELEMENTS = 10_000_000;

  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, http(s)://, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String store;

  @Parameters(index = "1", paramLabel = "PATH", description = "The array's path in the store.")
  String path;

  @Option(names = "--json", description = "Print one JSON document (the machine format).")
  boolean json;

  @Option(
      names = "--region",
      paramLabel = "R",
      description = "start:stop per dimension, comma-separated (numpy-like; ':' or an omitted start/stop for"
          + " the full extent, a single index for one element), e.g. 0:10,: ; missing trailing dimensions"
          + " are whole.")
  String region;

  @Option(
      names = "--max-elements",
      paramLabel = "N",
      defaultValue = "" + DEFAULT_MAX_ELEMENTS,
      description = "Refuse to print more than N elements (default: ${DEFAULT-VALUE}); use --region for a part.")
  long maxElements;

  @Override
  public Integer call() throws IOException {
    String p = nodePath(path);
    try (Store s = openExisting(store); BufferAllocator allocator = new RootAllocator()) {
      ZarrArray array = Zarr.openArray(s, p, options());
      Box box = region == null ? Box.of(array.shape()) : parseRegion(region, array.shape());
      checkSize(array, box);
      List<Box> slabs = Slabs.of(box, array.grid().chunkShape(), slabElements(array.dataType()));
      if (json) {
        printJson(array, box, slabs, allocator);
      } else {
        printLines(array, box, slabs, allocator);
      }
    }
    return Main.OK;
  }

  /**
   * The elements of {@code type} read at a time: {@link #SLAB_ELEMENTS}, fewer where that many would be
   * more than {@link #SLAB_BYTES} (at least one); {@link #SLAB_ELEMENTS} of a type of variable size,
   * whose elements' sizes are known only once read.
   */
  static long slabElements(DataType type) {
    int width = type.byteWidth();
    return width <= 0 ? SLAB_ELEMENTS : Math.max(1, Math.min(SLAB_ELEMENTS, SLAB_BYTES / width));
  }

  /** Refuses, before anything is read, to print more than {@code --max-elements}. */
  private void checkSize(ZarrArray array, Box box) {
    if (maxElements <= 0) {
      throw usage("--max-elements " + maxElements + ": must be a positive number of elements");
    }
    long count = box.size(); // fits: the box lies inside the array, whose element count does
    if (count <= maxElements) {
      return;
    }
    // The option at fault first: --region when one was given, else the limit the whole array passes.
    String what = region == null
        ? "--max-elements " + maxElements + ": array '" + array.path() + "' of shape " + java.util.Arrays.toString(array.shape())
            + " has " + count + " elements"
        : "--region " + region + ": " + count + " elements, more than --max-elements " + maxElements;
    throw usage(what + "; print a part of it with --region (e.g. --region " + example(array.shape()) + ")"
        + " or raise --max-elements");
  }

  /** A small region of {@code shape} to suggest: the first 10 indexes of the first dimension. */
  private static String example(long[] shape) {
    return shape.length == 0 ? ":" : "0:" + Math.min(10, shape[0]);
  }

  private Box parseRegion(String text, long[] shape) {
    try {
      return Box.parse(text, shape);
    } catch (IllegalArgumentException e) {
      throw usage("--region: " + e.getMessage());
    }
  }

  /**
   * Prints the document only once every element decodes: a corrupt chunk fails the command (exit 3)
   * with nothing on stdout, never with half a document. One slab is decoded before the first byte is
   * written; a region of several slabs is decoded twice, first to check every slab, then slab by slab
   * to print, so memory stays at one slab. (Only a store changing between the two passes, or failing
   * in the second, can still cut the output short; the exit code then says so.)
   */
  private void printJson(ZarrArray array, Box box, List<Box> slabs, BufferAllocator allocator) throws IOException {
    if (slabs.size() > 1) {
      for (Box slab : slabs) {
        array.read(slab, allocator).close();
      }
    }
    JsonGenerator g = null;
    JsonValueWriter values = null;
    for (Box slab : slabs) {
      try (NdVector part = array.read(slab, allocator)) {
        if (g == null) {
          g = jsonOut();
          // On a failure the generator is dropped unclosed: neither flushed nor completed into a truncated
          // document that would parse as the data.
          g.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
          writeHeader(g, array, box);
          values = new JsonValueWriter(g);
        }
        values.writeAll(part.vector());
      }
      if (out().checkError()) {
        return; // stdout is gone (e.g. a closed pipe): stop reading
      }
    }
    if (g == null) {
      g = jsonOut();
      writeHeader(g, array, box);
    }
    g.writeEndArray();
    g.writeEndObject();
    g.close();
    out().println();
  }

  private static void writeHeader(JsonGenerator g, ZarrArray array, Box box) throws IOException {
    g.writeStartObject();
    g.writeArrayFieldStart("shape");
    for (long n : box.shape()) {
      g.writeNumber(n);
    }
    g.writeEndArray();
    g.writeFieldName("data_type");
    dev.zarrow.metadata.Json.writeTree(g, array.metadata().dataType().toJson());
    g.writeArrayFieldStart("values");
  }

  private void printLines(ZarrArray array, Box box, List<Box> slabs, BufferAllocator allocator) throws IOException {
    long[] index = box.start();
    StringWriter text = new StringWriter();
    try (JsonGenerator g = json(text)) {
      JsonValueWriter values = new JsonValueWriter(g);
      for (Box slab : slabs) {
        try (NdVector part = array.read(slab, allocator)) {
          for (int i = 0; i < part.vector().getValueCount(); i++) {
            values.write(part.vector(), i);
            g.flush();
            out().append(indexText(index)).append('\t').append(text.getBuffer()).append('\n');
            text.getBuffer().setLength(0);
            next(index, box);
          }
        }
        if (out().checkError()) {
          return;
        }
      }
    }
  }

  private static JsonGenerator json(StringWriter into) {
    try {
      JsonGenerator g = dev.zarrow.metadata.Json.FACTORY.createGenerator(into);
      g.setRootValueSeparator(null); // one value per line, no separator before the next
      return g;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String indexText(long[] index) {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < index.length; i++) {
      s.append(i == 0 ? "" : ",").append(index[i]);
    }
    return s.append(']').toString();
  }

  /** Advances {@code index} to the next position of {@code box} in C order. */
  private static void next(long[] index, Box box) {
    for (int d = index.length - 1; d >= 0; d--) {
      if (++index[d] < box.end(d)) {
        return;
      }
      index[d] = box.start(d);
    }
  }
}
