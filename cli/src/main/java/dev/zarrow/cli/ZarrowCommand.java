package dev.zarrow.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrow.ZarrNode;
import dev.zarrow.ZarrOptions;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.store.WritableStore;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
  /** Where a command run without picocli ({@link DirectLine}) writes; null under picocli. */
  Direct direct;

  record Direct(PrintWriter out, PrintWriter err) {}

  PrintWriter out() {
    return direct != null ? direct.out() : spec.commandLine().getOut();
  }

  PrintWriter err() {
    return direct != null ? direct.err() : spec.commandLine().getErr();
  }

  /** The options arrays are opened with: the defaults, with the global switches applied. */
  ZarrOptions options() {
    ZarrOptions defaults = OWN_JAR_ALONE ? ZarrOptions.builtIn() : ZarrOptions.defaults();
    return main.noVerifyChecksums ? defaults.withCodecOptions(defaults.codecs().withVerifyChecksums(false)) : defaults;
  }

  /**
   * True when the class path is the CLI's own jar alone (its launcher or the shaded jar, run with
   * {@code java -jar} as {@code bin/zarrow} does): then the plugins are zarrow's own, those the shaded
   * jar's services name, and {@link ZarrOptions#builtIn} takes them without a class-path lookup, which
   * would open the shaded jar and index its entries (30 ms of a 230 ms {@code info}, README "Start-up").
   * Any other class path (an embedding, a plugin beside the jar) is looked through as the library does.
   */
  static final boolean OWN_JAR_ALONE = ownJarAlone(System.getProperty("java.class.path", ""));

  static boolean ownJarAlone(String classPath) {
    if (classPath.contains(File.pathSeparator)) {
      return false;
    }
    String name = classPath.substring(classPath.lastIndexOf(File.separatorChar) + 1);
    String jar = "zarrow-cli-" + Build.VERSION;
    return name.equals(jar + "-all.jar") || name.equals(jar + "-launcher.jar");
  }

  /** A usage error (exit 2) of this subcommand. */
  RuntimeException usage(String message) {
    return direct != null ? new DirectLine.UsageError(message) : new ParameterException(spec.commandLine(), message);
  }

  /**
   * The existing store at {@code location} (a directory, {@code file:}, {@code http(s)://},
   * {@code s3://}, {@code gs://}, a {@code .zip} or {@code zip:} archive, {@code memory:}), to read; a missing one is a
   * data error, never created; a location that names no store is a usage error.
   */
  Store openExisting(String location) {
    try {
      return Stores.open(location);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  /** The store at {@code location} to write, created when missing; a read-only kind is a usage error. */
  WritableStore openWritable(String location) {
    try {
      return Stores.openWritable(location);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
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
      JsonGenerator generator = Json.FACTORY.createGenerator(out());
      generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      return generator;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
