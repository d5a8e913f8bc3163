package dev.zarrow.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every subcommand shares: stdout (JSON) and stderr (messages), the options of the top-level
 * command, opening stores, and usage errors. Subcommands return an exit code or throw; {@link Main}
 * maps what they throw.
 */
abstract class ZarrowCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @ParentCommand Main main;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** The options arrays are opened with: the defaults, with the global switches applied. */
  ZarrOptions options() {
    ZarrOptions defaults = ZarrOptions.defaults();
    return main.noVerifyChecksums ? defaults.withCodecOptions(defaults.codecs().withVerifyChecksums(false)) : defaults;
  }

  /** A usage error (exit 2) of this subcommand. */
  ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The store in the existing directory {@code dir}; a missing one is a data error, never created. */
  static FileSystemStore openExisting(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new NoSuchNodeException("no store at " + dir + " (" + (Files.exists(dir) ? "not a directory" : "no such directory") + ")");
    }
    return FileSystemStore.open(dir);
  }

  /** {@code path} normalized, or a usage error when it is not a valid node path. */
  String nodePath(String path) {
    try {
      return ZarrNode.normalize(path == null ? "" : path);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  /** Prints {@code json} two-space indented, then a newline. */
  void printJson(JsonNode json) {
    out().println(new String(Json.pretty(json), StandardCharsets.UTF_8));
  }

  /** A generator writing compact JSON to stdout; closing it flushes but leaves stdout open. */
  JsonGenerator jsonOut() {
    try {
      JsonGenerator generator = Json.MAPPER.getFactory().createGenerator(out());
      generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      return generator;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
