package dev.zarrow.cli;

import dev.zarrow.metadata.ConsolidatedMetadata;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow consolidate STORE [PATH]}: writes the consolidated metadata of the hierarchy rooted at the
 * group PATH in the form of its format: {@code consolidated_metadata} inline in the root {@code zarr.json}
 * (Zarr v3, as zarr-python 3 writes it) or {@code .zmetadata} (Zarr v2, as zarr-python 2 writes it). One
 * atomic write of that key ({@link ConsolidatedMetadata#consolidate}). A store that cannot be written is
 * a usage error; no group at PATH, or metadata that cannot be read, a data error.
 */
@Command(name = "consolidate",
    description = "Write the consolidated metadata of a hierarchy (consolidated_metadata in the root zarr.json for Zarr v3,"
        + " .zmetadata for v2), so that opening and listing it takes one read, and ls works over HTTP.")
final class ConsolidateCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "STORE", description = "The store: a directory, s3://BUCKET/PREFIX, a .zip archive or memory:.")
  String store;

  @Parameters(index = "1", arity = "0..1", paramLabel = "PATH", defaultValue = "", description = "The group at the hierarchy's root (default: the store root).")
  String path;

  @Override
  public Integer call() {
    String p = nodePath(path);
    try (Store existing = openExisting(store)) {
      // a missing store is a data error, never created here
    }
    try (WritableStore s = openWritable(store)) {
      ConsolidatedMetadata written = ConsolidatedMetadata.consolidate(s, p);
      int nodes = written.nodePaths().size() - 1;
      out().println("consolidated " + nodes + (nodes == 1 ? " node" : " nodes") + " below " + (p.isEmpty() ? "/" : p)
          + " into " + written.key() + " (Zarr v" + written.format() + ")");
    }
    return Main.OK;
  }
}
